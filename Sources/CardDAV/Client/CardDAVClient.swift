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
/// The password goes only where the ``CredentialScope`` admits — the configured server's
/// origin, or another `https` host of its registrable domain (iCloud's partition hosts, kept in
/// ``passwordHosts`` for the person to be told) — over `https` or to this computer (unless plain
/// `http` is allowed), as `Basic` credentials; hrefs, redirects and principals anywhere else are
/// refused with ``CardDAVError/foreignLocation(server:location:)``. docs/CardDAV.md describes
/// discovery and sync as state machines.
public struct CardDAVClient: Sendable {
    /// The configuration.
    public let configuration: CardDAVConfiguration
    /// The user name.
    public let user: String
    /// The origin requests go to (``CardDAVConfiguration/server``'s): paths are resolved on it.
    public let origin: ServerOrigin
    /// Where the password may go: the rule, from the address the person gave.
    public let scope: CredentialScope

    let provider: Provider<CardDAVTarget>
    /// How requests are authorized: `Basic`, or a bearer token.
    let authorization: AuthorizationType
    let ledger = PasswordLedger()
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
    ///   - admission: the gate of requests per host, shared by the clients of one backend so
    ///     that a 401's refresh holds every request in line, whichever client sends it; `nil`
    ///     for a gate of this client's own.
    public init(
        configuration: CardDAVConfiguration,
        credentials: CardDAVCredentials,
        transport: any Transport,
        plugins: [any Plugin] = [],
        logger: Logger = Logger(label: "cardwallet.carddav", factory: { _ in SwiftLogNoOpLogHandler() }),
        admission: Admission? = nil
    ) {
        self.configuration = configuration
        self.user = credentials.user
        let invalid = ServerOrigin(URL(string: "http://invalid.invalid/")!)!
        let origin = ServerOrigin(configuration.server)
        let given = configuration.givenAddress.map { ServerOrigin($0) } ?? origin
        self.origin = origin ?? invalid
        self.scope = CredentialScope(server: given ?? invalid)
        if origin == nil || given == nil {
            let address = configuration.givenAddress ?? configuration.server
            refusal = .invalidServerURL(CardDAVConfiguration.maskingUserInfo(address.absoluteString))
        } else if origin?.isInsecure == true && !configuration.allowsInsecureHTTP {
            refusal = .insecureServer(configuration.server.absoluteString)
        } else if !scope.admits(configuration.server) {
            refusal = .foreignLocation(server: scope.server.description, location: configuration.server.absoluteString)
        } else {
            refusal = nil
        }
        self.logger = logger
        let check = CredentialCheck(
            scope: scope, ledger: ledger, allowsInsecureHTTP: configuration.allowsInsecureHTTP)
        let admission = admission ?? Admission(limit: configuration.requestsPerHost ?? transport.connectionsPerHost)
        // Back off when the server asks to (429, 503 with Retry-After), once per request.
        let backoff = BackoffInterceptor(maximumWait: configuration.maximumRetryAfter)
        if let bearer = credentials.bearer {
            // A bearer token: the shared session's interceptor (refresh before expiry, one refresh
            // and one retry after a 401) behind the same check as the password's.
            let interceptor = bearer.make(admission) { request in try check.admit(request) }
            self.authorization = .bearer
            self.provider = Provider<CardDAVTarget>(
                transport: transport, plugins: plugins + [interceptor, backoff], interceptors: [interceptor, backoff],
                maximumRetries: 2, admission: admission)
        } else {
            // The card API's rules: at most K requests per host adapted and sent at once (K the
            // transport's connections per host unless configured); Basic credentials have nothing to
            // refresh: a 401 goes back to the caller.
            let interceptor = BasicAuthInterceptor(
                user: credentials.user, password: credentials.password ?? { "" }, check: check)
            self.authorization = .basic
            self.provider = Provider<CardDAVTarget>(
                transport: transport, plugins: plugins + [backoff], interceptors: [interceptor, backoff],
                maximumRetries: 1, admission: admission)
        }
    }

    /// The hosts other than the given address's own that this client sent the password to
    /// (another `https` host of its registrable domain, which discovery was led to), in the
    /// order first sent: what the person must be told.
    public var passwordHosts: [String] { ledger.recorded }

    // MARK: Sending

    /// Sends `endpoint` to `url` and returns the answer whatever its status; only failures with
    /// no answer (transport, refusals before sending, cancellation) throw.
    func exchange(_ endpoint: CardDAVTarget.Endpoint, to url: URL) async throws(CardDAVError) -> Response {
        if let refusal { throw refusal }
        guard scope.admits(url) else {
            throw .foreignLocation(server: scope.server.description, location: url.absoluteString)
        }
        let target = CardDAVTarget(
            url: url, endpoint: endpoint, timeout: configuration.requestTimeout, authorization: authorization)
        do {
            return try await provider.request(target)
        } catch {
            if case .unacceptableStatus(let response) = error { return response }
            throw DAVErrors.error(from: error, server: configuration.server.absoluteString)
        }
    }

    /// The URL of `href` (an absolute path on the server's origin, or a URL the scope admits).
    ///
    /// - Throws: ``CardDAVError/invalidRequest(_:)`` for text that is not one, and
    ///   ``CardDAVError/foreignLocation(server:location:)`` for a URL outside the scope.
    func url(of href: String) throws(CardDAVError) -> URL {
        if let refusal { throw refusal }
        guard let resolved = Href.resolve(href, against: configuration.server), let target = ServerOrigin(resolved)
        else {
            throw .invalidRequest("“\(href)” is not a path on the CardDAV server.")
        }
        guard scope.admits(resolved) else {
            throw .foreignLocation(server: scope.server.description, location: resolved.absoluteString)
        }
        guard let url = target.url(path: Href.path(of: resolved)) else {
            throw .invalidRequest("“\(href)” is not a path on the CardDAV server.")
        }
        return url
    }

    /// The canonical path of an href found in an answer to `response`, checked to be on the
    /// origin the request went to (a path names a place on it; the transport follows no
    /// redirects).
    func path(ofHref href: String, in response: Response) throws(CardDAVError) -> String {
        if let path = Href.plainAbsolutePath(href) { return path }
        guard let resolved = Href.resolve(href, against: response.request.url) else {
            throw DAVErrors.badAnswer(response, "it holds the href “\(href)”, which is not a URL")
        }
        guard ServerOrigin(resolved) == ServerOrigin(response.request.url) else {
            throw .foreignLocation(server: scope.server.description, location: resolved.absoluteString)
        }
        return Href.path(of: resolved)
    }
}
