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

    /// A context.
    public init(
        tokenStore: TokenStore, transport: any Transport, plugins: [any Plugin], logger: Logger,
        settings: ProviderSettings, password: @escaping @Sendable (AccountRecord) async throws -> String
    ) {
        self.tokenStore = tokenStore
        self.transport = transport
        self.plugins = plugins
        self.logger = logger
        self.settings = settings
        self.password = password
    }
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
