import CardAPIContract
import CardBackend
import CardModels
import Foundation
public import Logging
public import Networking
public import TokenStore

/// The card API for one server: async methods that return model types and throw
/// ``CardAPIError``, with a ``CardSession`` that keeps the tokens fresh.
///
/// ```swift
/// let transport = LiveTransport()
/// let log = LoggerPlugin(configuration: .init(tagExtractor: .jsonField("errorCode")))
/// let client = CardAPIClient(
///     configuration: CardAPIConfiguration(server: try CardAPIConfiguration.serverURL("http://127.0.0.1:8080/v1")),
///     tokenStore: try TokenStore(environment: ProcessInfo.processInfo.environment),
///     transport: transport, plugins: [log])
/// try await client.login(email: "demo@cardwallet.dev", password: password)
/// let page = try await client.listCards(query: "ada")
/// ```
///
/// Nothing is global: build as many clients as you need (one per server). They may share one
/// transport and the same plugins; every request — the token refresh included — goes through
/// those plugins, so a `LoggerPlugin` sees it all.
public struct CardAPIClient: Sendable {
    /// The configuration.
    public let configuration: CardAPIConfiguration
    /// The session: tokens, refresh, state stream, login and logout.
    public let session: CardSession

    let cards: Provider<CardService>
    let judge: ResponseJudge
    let interceptor: SessionInterceptor
    /// The refusal every token-bearing call gets when the server is plain `http://` to another
    /// computer and the configuration does not allow it, or `nil`: decided once, not per request
    /// (the configuration cannot change).
    private let transportSecurityRefusal: CardAPIError?
    /// What this client was built on, for a client of another account on the same pieces.
    private let pieces: Pieces

    private struct Pieces: Sendable {
        var tokenStore: TokenStore
        var transport: any Transport
        var plugins: [any Plugin]
        var wallClock: any SessionClock
        var clock: any Clock<Duration>
        var logger: Logger
    }

    /// A client.
    ///
    /// - Parameters:
    ///   - configuration: the server, account and rules.
    ///   - tokenStore: where tokens are kept; processes sharing the file share the session.
    ///   - transport: the HTTP transport (`LiveTransport`, or a `StubTransport` in tests).
    ///   - plugins: plugins every request goes through, in order (a `LoggerPlugin`, say).
    ///   - wallClock: the clock token expiry is judged by.
    ///   - clock: the clock `Retry-After` waits run on.
    ///   - logger: where the session reports refreshes, adoptions and expiry (never a token);
    ///     discards everything by default.
    public init(
        configuration: CardAPIConfiguration,
        tokenStore: TokenStore,
        transport: any Transport,
        plugins: [any Plugin] = [],
        wallClock: any SessionClock = SystemSessionClock(),
        clock: any Clock<Duration> = ContinuousClock(),
        logger: Logger = Logger(label: "cardwallet.session", factory: { _ in SwiftLogNoOpLogHandler() })
    ) {
        self.configuration = configuration
        self.pieces = Pieces(
            tokenStore: tokenStore, transport: transport, plugins: plugins, wallClock: wallClock, clock: clock,
            logger: logger)
        do {
            try configuration.checkTransportSecurity()
            transportSecurityRefusal = nil
        } catch {
            transportSecurityRefusal = error
        }
        let judge = ResponseJudge(server: configuration.serverKey)
        self.judge = judge
        let auth = Provider<AuthService>(transport: transport, plugins: plugins, clock: clock, maximumRetries: 0)
        let session = CardSession(
            server: configuration.server, account: configuration.account, tokenStore: tokenStore,
            policy: configuration.session, wallClock: wallClock,
            exchange: CardTokenExchange(
                server: configuration.server, auth: auth, judge: judge, authTimeout: configuration.session.authTimeout),
            logger: logger)
        self.session = session
        // Card requests take their token only when admitted (at most the transport's connections
        // per host at once); the interceptor holds this gate while a 401's refresh runs. The auth
        // provider has an admission of its own, so the refresh never waits behind that gate.
        let admission = Admission(limit: configuration.requestsPerHost ?? transport.connectionsPerHost)
        let interceptor = SessionInterceptor(
            session: session, maximumRetryAfter: configuration.session.maximumRetryAfter, admission: admission)
        self.interceptor = interceptor
        // At most one retry after a refresh and one after a Retry-After wait.
        self.cards = Provider<CardService>(
            transport: transport, plugins: plugins + [interceptor], interceptors: [interceptor], clock: clock,
            maximumRetries: 2, admission: admission)
    }

    /// A client of the same server on the same token store, transport and plugins, for `account`.
    public func client(forAccount account: String?) -> CardAPIClient {
        var other = configuration
        other.account = account
        return CardAPIClient(
            configuration: other, tokenStore: pieces.tokenStore, transport: pieces.transport, plugins: pieces.plugins,
            wallClock: pieces.wallClock, clock: pieces.clock, logger: pieces.logger)
    }

    /// The token store in use.
    public var tokenStore: TokenStore { session.tokenStore }

    // MARK: Session

    /// Logs in; see ``CardSession/login(email:password:)``.
    ///
    /// - Throws: ``CardAPIError/insecureServer(_:)`` before sending anything when the server is
    ///   plain `http://` to another computer and the configuration does not allow it.
    @discardableResult
    public func login(email: String, password: String) async throws(CardAPIError) -> User {
        try checkTransportSecurity()
        return try await session.login(email: email, password: password)
    }

    /// Logs out; see ``CardSession/logout()``.
    ///
    /// - Throws: ``CardAPIError/insecureServer(_:)``, as ``login(email:password:)`` does.
    @discardableResult
    public func logout() async throws(CardAPIError) -> LogoutResult {
        try checkTransportSecurity()
        return try await session.logout()
    }

    /// Who is logged in where; see ``CardSession/status()``.
    public func status() async -> SessionStatusReport {
        await session.status()
    }

    // MARK: Sending

    /// Sends a card request and returns the response, every failure as a ``CardAPIError``.
    func send(_ endpoint: CardService.Endpoint) async throws(CardAPIError) -> Response {
        // Tokens go with every card request: never in the clear to another computer unless allowed.
        try checkTransportSecurity()
        let target = CardService(
            server: configuration.server, endpoint: endpoint, timeout: configuration.requestTimeout)
        do {
            return try await cards.request(target)
        } catch {
            throw judge.error(from: error)
        }
    }

    /// Throws ``CardAPIError/insecureServer(_:)`` when tokens must not go to this server.
    private func checkTransportSecurity() throws(CardAPIError) {
        if let transportSecurityRefusal { throw transportSecurityRefusal }
    }

    /// `id` if it can be a card id (letters, digits, `-`, `_`; 1–64), so it stays one path segment.
    static func checked(_ id: String) throws(CardAPIError) -> String {
        guard (1...64).contains(id.utf8.count), id.utf8.allSatisfy(Self.isIDByte) else { throw .invalidCardID(id) }
        return id
    }

    private static func isIDByte(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
            UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "_"):
            true
        default: false
        }
    }

    /// Sends a card request and decodes the `data` of its success envelope.
    func send<Payload: Codable & Sendable>(
        _ endpoint: CardService.Endpoint, returning type: Payload.Type
    ) async throws(CardAPIError) -> Payload {
        try judge.data(type, from: try await send(endpoint))
    }
}
