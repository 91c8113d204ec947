import Foundation
public import Logging
public import Networking
public import TokenStore

/// What every backend is built on: one per process, shared by all accounts, so the log pane sees
/// every exchange of every account.
public struct ProviderContext: Sendable {
    /// The token file: tokens, account records, passwords no keyring took.
    public var tokenStore: TokenStore
    /// The HTTP transport (pooled connections).
    public var transport: any Transport
    /// The plugins every request goes through (the logger plugin).
    public var plugins: [any Plugin]
    /// The logger sessions report to (never a secret).
    public var logger: Logger
    /// The settings that shape a backend.
    public var settings: ProviderSettings
    /// The password of a stored account, from where its record says it lives (the keyring, a
    /// command, the token file), asked each time a request needs it.
    public var password: @Sendable (AccountRecord) async throws -> String
    /// The secret of a stored account when one is kept, `nil` when none is any more (an OAuth
    /// account's refresh token, forgotten after its session ended): asked at each refresh.
    public var secret: @Sendable (AccountRecord) async throws -> String?
    /// Replaces the secret of a stored account where its record says it lives (a refresh token
    /// the authorization server rotated).
    public var keepSecret: @Sendable (AccountRecord, String) async throws -> Void

    /// A context.
    ///
    /// - Parameters:
    ///   - secret: an account's secret, `nil` when none is kept; by default `password`'s.
    ///   - keepSecret: replaces an account's secret; by default it refuses.
    public init(
        tokenStore: TokenStore, transport: any Transport, plugins: [any Plugin], logger: Logger,
        settings: ProviderSettings, password: @escaping @Sendable (AccountRecord) async throws -> String,
        secret: (@Sendable (AccountRecord) async throws -> String?)? = nil,
        keepSecret: (@Sendable (AccountRecord, String) async throws -> Void)? = nil
    ) {
        self.tokenStore = tokenStore
        self.transport = transport
        self.plugins = plugins
        self.logger = logger
        self.settings = settings
        self.password = password
        self.secret = secret ?? { try await password($0) }
        self.keepSecret = keepSecret ?? { _, _ in throw SecretNotKept() }
    }
}

/// This context keeps no secrets (a test's).
struct SecretNotKept: Error, CustomStringConvertible {
    var description: String { "this program keeps no secrets" }
}

/// The settings a backend is built with.
public struct ProviderSettings: Sendable {
    /// Whether plain `http://` to another computer is allowed.
    public var allowsInsecureHTTP: Bool
    /// How long a request may take.
    public var requestTimeout: Duration
    /// How long a login's probe of an unknown address may take.
    public var probeTimeout: Duration
    /// How long before expiry a token is refreshed at most (token-based servers).
    public var refreshMargin: Duration
    /// How long a login or refresh may take.
    public var authTimeout: Duration

    /// The default probe deadline: a slow server is told apart from a dead one, and a login never
    /// waits a full request deadline before it tries.
    public static let defaultProbeTimeout: Duration = .seconds(5)

    /// Settings.
    public init(
        allowsInsecureHTTP: Bool = false, requestTimeout: Duration = .seconds(60),
        probeTimeout: Duration = defaultProbeTimeout, refreshMargin: Duration = .seconds(30),
        authTimeout: Duration = .seconds(20)
    ) {
        self.allowsInsecureHTTP = allowsInsecureHTTP
        self.requestTimeout = requestTimeout
        self.probeTimeout = probeTimeout
        self.refreshMargin = refreshMargin
        self.authTimeout = authTimeout
    }
}
