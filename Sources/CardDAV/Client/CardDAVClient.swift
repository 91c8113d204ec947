import Foundation
public import Logging
public import Networking

/// A CardDAV client for one server and account: discovery, address books, sync by token, and
/// cards read and written under ETags. Every request goes through a `Networking` provider, so
/// plugins (a `LoggerPlugin`) see each exchange, with `Authorization` shown as `<private>`.
///
/// ```swift
/// let client = CardDAVClient(
///     configuration: CardDAVConfiguration(server: try CardDAVConfiguration.serverURL("https://dav.example.com/")),
///     credentials: CardDAVCredentials(user: "alice") { try store.password(for: "alice") },
///     transport: transport, plugins: [log])
/// let account = try await client.discover()
/// let book = account.books[0]
/// let delta = try await client.sync(book, since: savedToken)
/// let (fetch, remove) = delta.plan(known: cachedETags)
/// let cards = try await client.multiget(fetch, in: book)
/// ```
///
/// The password goes only to the configured server's origin, over `https` or to this computer
/// (unless plain `http` is allowed), as `Basic` credentials; hrefs, redirects and principals on
/// another origin are refused with ``CardDAVError/foreignLocation(server:location:)``.
/// docs/CardDAV.md describes discovery and sync as state machines.
public struct CardDAVClient: Sendable {
    /// The configuration.
    public let configuration: CardDAVConfiguration
    /// The user name.
    public let user: String
    /// The origin every request goes to.
    public let origin: ServerOrigin

    let provider: Provider<CardDAVTarget>
    let logger: Logger
    /// Why no call may be made (an insecure or unusable server address), or `nil`: decided once.
    private let refusal: CardDAVError?

    /// A client.
    ///
    /// - Parameters:
    ///   - configuration: the server and rules.
    ///   - credentials: the user name and where the password comes from.
    ///   - transport: the HTTP transport (`LiveTransport`, or a `StubTransport` in tests).
    ///   - plugins: plugins every request goes through, in order (a `LoggerPlugin`, say).
    ///   - logger: where discovery and sync say what they decided (never a password).
    public init(
        configuration: CardDAVConfiguration,
        credentials: CardDAVCredentials,
        transport: any Transport,
        plugins: [any Plugin] = [],
        logger: Logger = Logger(label: "cardwallet.carddav", factory: { _ in SwiftLogNoOpLogHandler() })
    ) {
        self.configuration = configuration
        self.user = credentials.user
        let origin = ServerOrigin(configuration.server)
        self.origin = origin ?? ServerOrigin(URL(string: "http://invalid.invalid/")!)!
        if origin == nil {
            refusal = .invalidServerURL(CardDAVConfiguration.maskingUserInfo(configuration.server.absoluteString))
        } else if origin?.isInsecure == true && !configuration.allowsInsecureHTTP {
            refusal = .insecureServer(configuration.server.absoluteString)
        } else {
            refusal = nil
        }
        self.logger = logger
        let interceptor = BasicAuthInterceptor(
            credentials: credentials, origin: self.origin, allowsInsecureHTTP: configuration.allowsInsecureHTTP)
        // The card API's rules: at most K requests per host adapted and sent at once (K the
        // transport's connections per host unless configured), no retries (Basic credentials
        // have nothing to refresh: a 401 goes back to the caller).
        self.provider = Provider<CardDAVTarget>(
            transport: transport, plugins: plugins, interceptors: [interceptor], maximumRetries: 0,
            admission: Admission(limit: configuration.requestsPerHost ?? transport.connectionsPerHost))
    }

    // MARK: Sending

    /// Sends `endpoint` to `url` and returns the answer whatever its status; only failures with
    /// no answer (transport, refusals before sending, cancellation) throw.
    func exchange(_ endpoint: CardDAVTarget.Endpoint, to url: URL) async throws(CardDAVError) -> Response {
        if let refusal { throw refusal }
        guard origin.contains(url) else {
            throw .foreignLocation(server: origin.description, location: url.absoluteString)
        }
        let target = CardDAVTarget(url: url, endpoint: endpoint, timeout: configuration.requestTimeout)
        do {
            return try await provider.request(target)
        } catch {
            if case .unacceptableStatus(let response) = error { return response }
            throw Judge.error(from: error, server: configuration.server.absoluteString)
        }
    }

    /// The URL of `href` (an absolute path, or a URL on the server's origin).
    ///
    /// - Throws: ``CardDAVError/invalidRequest(_:)`` for text that is not one, and
    ///   ``CardDAVError/foreignLocation(server:location:)`` for a URL on another origin.
    func url(of href: String) throws(CardDAVError) -> URL {
        guard let resolved = Href.resolve(href, against: configuration.server), ServerOrigin(resolved) != nil else {
            throw .invalidRequest("“\(href)” is not a path on the CardDAV server.")
        }
        guard origin.contains(resolved) else {
            throw .foreignLocation(server: origin.description, location: resolved.absoluteString)
        }
        guard let url = origin.url(path: Href.path(of: resolved)) else {
            throw .invalidRequest("“\(href)” is not a path on the CardDAV server.")
        }
        return url
    }

    /// The canonical path of an href found in an answer to `response`, checked to be on the
    /// server's origin.
    func path(ofHref href: String, in response: Response) throws(CardDAVError) -> String {
        // A plain absolute path is on the request's origin, the server's (requests go nowhere
        // else, and the transport follows no redirects).
        if let path = Href.plainAbsolutePath(href) { return path }
        guard let resolved = Href.resolve(href, against: response.request.url) else {
            throw Judge.badAnswer(response, "it holds the href “\(href)”, which is not a URL")
        }
        guard origin.contains(resolved) else {
            throw .foreignLocation(server: origin.description, location: resolved.absoluteString)
        }
        return Href.path(of: resolved)
    }
}
