import CardAPI
import Foundation
import Logging
import Networking
import TokenStore

/// The live pieces one set of ``ClientSettings`` describes: the token store, one
/// `LiveTransport`, one `LoggerPlugin` and a `CardAPIClient` built on them.
///
/// ```swift
/// let resolved = try await options.resolveSettings()
/// let live = try LiveClient.make(settings: resolved.settings, environment: ProcessInfo.processInfo.environment)
/// defer { Task { await live.shutdown() } }     // or await it before exiting
/// Task { for await event in live.log.events() { pane.append(NetworkEventFormatter().line(event)) } }
/// let cards = try await live.client.allCards()
/// ```
///
/// Call ``shutdown()`` when done: it shuts the transport's HTTP client down.
struct LiveClient: Sendable {
    /// The settings the pieces were built from.
    let settings: ClientSettings
    /// The server's base URL (checked, trailing slashes removed).
    let server: URL
    /// The token file shared by every cardwallet process of the user.
    let tokenStore: TokenStore
    /// The HTTP transport (one per process; pooled connections).
    let transport: LiveTransport
    /// The logger plugin every request goes through; subscribe with `events()`.
    let log: LoggerPlugin
    /// The card API client for ``server``.
    let client: CardAPIClient
    /// The logger the session reports to.
    let sessionLogger: Logger

    /// Builds the live pieces.
    ///
    /// - Parameters:
    ///   - settings: resolved settings.
    ///   - environment: the process environment, for the default token location
    ///     (`XDG_STATE_HOME`, `HOME`) and `~` in `tokenFile`.
    ///   - networkLogger: also receives every network event as a one-line message at its
    ///     level (the `LoggerPlugin`'s swift-log bridge); `nil` for none.
    ///   - sessionLogger: where the session reports logins, refreshes and expiry (never a token);
    ///     `nil` discards them.
    ///   - deliveryInterval: how often the plugin hands events to `events()` subscribers.
    ///   - recordsCreated: whether the plugin records `created` events (a request built, not yet
    ///     adapted); the TUI shows none, the scripting commands' debug log does.
    /// - Throws: ``ClientSetupError`` for a server that is not an http(s) URL with a host, or no
    ///   usable token location.
    static func make(
        settings: ClientSettings, environment: [String: String], networkLogger: Logger? = nil,
        sessionLogger: Logger? = nil, deliveryInterval: Duration = .milliseconds(20),
        recordsCreated: Bool = true
    ) throws(ClientSetupError) -> LiveClient {
        let server: URL
        do {
            server = try CardAPIConfiguration.serverURL(settings.server)
        } catch {
            throw .invalidServer(settings.server)
        }
        let store = try tokenStore(for: settings, environment: environment)

        var transportConfiguration = LiveTransport.Configuration()
        transportConfiguration.connectTimeout = settings.connectTimeout
        transportConfiguration.readTimeout = min(transportConfiguration.readTimeout, settings.requestTimeout)
        transportConfiguration.requestTimeout = settings.requestTimeout
        let transport = LiveTransport(configuration: transportConfiguration)
        let log = LoggerPlugin(
            configuration: LoggerPlugin.Configuration(
                bodyPreviewLimit: settings.logBodyPreviewBytes, tagExtractor: .jsonField("errorCode"),
                recordsCreated: recordsCreated, deliveryInterval: deliveryInterval),
            logger: networkLogger)
        let sessionLogger =
            sessionLogger ?? Logger(label: "cardwallet.session", factory: { _ in SwiftLogNoOpLogHandler() })
        let live = LiveClient(
            settings: settings, server: server, tokenStore: store, transport: transport, log: log,
            client: Self.client(
                server: server, settings: settings, store: store, transport: transport, log: log,
                logger: sessionLogger),
            sessionLogger: sessionLogger)
        return live
    }

    /// Another client on the same transport, plugin and token store, for a different server
    /// (say, one typed into the TUI's login form).
    ///
    /// - Parameters:
    ///   - server: the server's base URL (see `CardAPIConfiguration.serverURL(_:)`).
    ///   - account: the account to use; `nil` for the only one stored for `server`.
    func client(for server: URL, account: String? = nil) -> CardAPIClient {
        Self.client(
            server: server, account: account, settings: settings, store: tokenStore, transport: transport, log: log,
            logger: sessionLogger)
    }

    /// Shuts the transport down; call once, after the last request.
    func shutdown() async {
        try? await transport.shutdown()
    }

    /// The token store the settings name: `tokenFile` (with `~/` expanded), else the default
    /// location under `XDG_STATE_HOME` or `~/.local/state`.
    static func tokenStore(
        for settings: ClientSettings, environment: [String: String]
    ) throws(ClientSetupError) -> TokenStore {
        if var path = settings.tokenFile {
            if path == "~" || path.hasPrefix("~/") {
                guard let home = environment["HOME"], home.hasPrefix("/") else {
                    throw .tokenStore(.noStateLocation)
                }
                path = home + path.dropFirst()
            }
            return TokenStore(path: path)
        }
        do {
            return try TokenStore(environment: environment)
        } catch {
            throw .tokenStore(error)
        }
    }

    private static func client(
        server: URL, account: String? = nil, settings: ClientSettings, store: TokenStore, transport: LiveTransport,
        log: LoggerPlugin, logger: Logger
    ) -> CardAPIClient {
        let configuration = CardAPIConfiguration(
            server: server, account: account, session: SessionPolicy(refreshMargin: settings.refreshMargin),
            requestTimeout: settings.requestTimeout)
        return CardAPIClient(
            configuration: configuration, tokenStore: store, transport: transport, plugins: [log], logger: logger)
    }
}

/// Why the live client cannot be built.
enum ClientSetupError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The server setting is not an `http` or `https` URL with a host.
    case invalidServer(String)
    /// There is no usable place for the token file.
    case tokenStore(TokenStoreError)

    /// Where the server address is set, for messages about a wrong one.
    static let whereToSetTheServer = "Set it with --server, CARDWALLET_SERVER or \"server\" in the config file."

    var description: String {
        switch self {
        case .invalidServer(let text):
            CardAPIError.invalidServerURL(text).description + " " + Self.whereToSetTheServer
        case .tokenStore(.noStateLocation):
            "There is no place for the token file: set XDG_STATE_HOME or HOME to an absolute path, "
                + "or name a file with CARDWALLET_TOKEN_FILE."
        case .tokenStore(let error):
            error.description
        }
    }
}
