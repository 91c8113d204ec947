public import CardAPI
public import CardBackend
public import CardDAV
public import Foundation
public import Logging
public import Networking
public import TokenStore

/// The composition root of the live pieces: the one place that knows which kind of server a
/// wallet is on and builds its ``CardBackend/CardBackend`` (docs/Architecture.md). One set of
/// ``ClientSettings`` describes the token store, one `LiveTransport`, one `LoggerPlugin`, and the
/// backend of the configured server built on them; everything above holds `any CardBackend`.
///
/// ```swift
/// let resolved = try await options.resolveSettings()
/// let live = try LiveBackends.make(settings: resolved.settings, environment: ProcessInfo.processInfo.environment)
/// defer { Task { await live.shutdown() } }     // or await it before exiting
/// let cards = try await live.backend.listing(.whole(since: nil))
/// ```
///
/// The interactive interface builds its pieces with ``makeForTerminal(settings:environment:sessionLogger:sink:)``.
///
/// Call ``shutdown()`` when done: it shuts the transport's HTTP client down.
public struct LiveBackends: Sendable {
    /// The settings the pieces were built from.
    public let settings: ClientSettings
    /// The server's base URL (checked, trailing slashes removed).
    public let server: URL
    /// The token file shared by every cardwallet process of the user.
    public let tokenStore: TokenStore
    /// The HTTP transport (one per process; pooled connections).
    public let transport: LiveTransport
    /// The logger plugin every request goes through.
    public let log: LoggerPlugin
    /// The logger the session reports to.
    public let sessionLogger: Logger
    /// The backend of ``server``, for the account stored there.
    public private(set) var backend: any CardBackend

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
    ///   - eventSink: where the plugin hands every event (the interface's log pane), or `nil`.
    ///   - recordsCreated: whether the plugin records `created` events (a request built, not yet
    ///     adapted); the TUI shows none, the scripting commands' debug log does.
    ///   - recentCapacity: how many events the plugin keeps for `recent()`.
    /// - Throws: ``ClientSetupError`` for a server that is not an http(s) URL with a host (or
    ///   holds a password, or is plain http to another computer without
    ///   ``ClientSettings/allowInsecureHTTP``), or no usable token location.
    public static func make(
        settings: ClientSettings, environment: [String: String], networkLogger: Logger? = nil,
        sessionLogger: Logger? = nil, eventSink: (any NetworkEventSink)? = nil, recordsCreated: Bool = true,
        recentCapacity: Int = 500
    ) throws(ClientSetupError) -> LiveBackends {
        let server: URL
        do {
            server = try ServerAddress.url(settings.server, allowingInsecureHTTP: settings.allowInsecureHTTP)
        } catch {
            switch error.problem {
            case .insecure(let url): throw .insecureServer(url)
            // The text with any user info as `<private>`: a password in it is never echoed.
            case .invalid(let shown): throw .invalidServer(shown)
            }
        }
        let store = try tokenStore(for: settings, environment: environment)
        let transport = LiveTransport(configuration: transportConfiguration(for: settings))
        let log = LoggerPlugin(
            configuration: loggerConfiguration(
                for: settings, recordsCreated: recordsCreated, recentCapacity: recentCapacity),
            logger: networkLogger, sink: eventSink)
        let sessionLogger =
            sessionLogger ?? Logger(label: "cardwallet.session", factory: { _ in SwiftLogNoOpLogHandler() })
        var live = LiveBackends(
            settings: settings, server: server, tokenStore: store, transport: transport, log: log,
            sessionLogger: sessionLogger,
            backend: CardAPIBackend(
                client: cardAPIClient(
                    server: server, settings: settings, store: store, transport: transport, log: log,
                    logger: sessionLogger)))
        live.backend = live.backend(for: server)
        return live
    }

    /// Whether the interface's plugin records `created` events: no, the pane shows `sent`.
    public static let terminalRecordsCreated = false

    /// The transport configuration `settings` ask for.
    public static func transportConfiguration(for settings: ClientSettings) -> LiveTransport.Configuration {
        var configuration = LiveTransport.Configuration()
        configuration.connectTimeout = settings.connectTimeout
        configuration.readTimeout = min(configuration.readTimeout, settings.requestTimeout)
        configuration.requestTimeout = settings.requestTimeout
        return configuration
    }

    /// The logger plugin's configuration for `settings`: the server's `errorCode` as each
    /// response's tag; the interface passes `recordsCreated: false, recentCapacity: 0`.
    public static func loggerConfiguration(
        for settings: ClientSettings, recordsCreated: Bool = true, recentCapacity: Int = 500
    ) -> LoggerPlugin.Configuration {
        LoggerPlugin.Configuration(
            bodyPreviewLimit: settings.logBodyPreviewBytes, recentCapacity: recentCapacity,
            tagExtractor: .jsonField("errorCode"), recordsCreated: recordsCreated)
    }

    /// The live pieces as the interactive interface uses them: every event goes to `sink` (the
    /// log pane, in order with the session's news), `created` events are not recorded (the pane
    /// shows `sent`), and the plugin keeps no ring of recent events (the pane keeps its lines).
    ///
    /// - Throws: ``ClientSetupError``, as ``make(settings:environment:networkLogger:sessionLogger:eventSink:recordsCreated:recentCapacity:)``.
    public static func makeForTerminal(
        settings: ClientSettings, environment: [String: String], sessionLogger: Logger? = nil,
        sink: LiveEventSink
    ) throws(ClientSetupError) -> LiveBackends {
        try make(
            settings: settings, environment: environment, sessionLogger: sessionLogger, eventSink: sink,
            recordsCreated: terminalRecordsCreated, recentCapacity: 0)
    }

    /// The backend of `server` (the configured one, or one typed into the TUI's login form), on
    /// the same transport, plugin and token store: a CardDAV address book when a CardDAV login
    /// is stored for it (a password), else the card API.
    ///
    /// - Parameters:
    ///   - server: the server's base URL (checked with `ServerAddress.url(_:allowingInsecureHTTP:)`).
    ///   - account: the account to use; `nil` for the only one stored for `server`.
    public func backend(for server: URL, account: String? = nil) -> any CardBackend {
        let key = ServerAddress.key(server.absoluteString)
        if let passwords = try? tokenStore.passwords(server: key), !passwords.isEmpty {
            return cardDAVBackend(for: server)
        }
        return CardAPIBackend(client: cardAPIClient(for: server, account: account))
    }

    /// The backend a login at `server` talks to, found by asking it: the card API answers at its
    /// base URL with its JSON envelopes; any other answer is taken for a CardDAV server (whose
    /// login then finds its address books, or says it found none). A server that cannot be
    /// reached gets the card API's backend, whose login says so.
    /// Nothing is asked while the token file is unsafe to use: the card API's login says why.
    public func detectBackend(for server: URL) async -> any CardBackend {
        let api = cardAPIClient(for: server)
        guard (try? tokenStore.checkSafety()) != nil else { return CardAPIBackend(client: api) }
        switch await api.answersAsCardAPI() {
        case false?: return cardDAVBackend(for: server)
        case true?, nil: return CardAPIBackend(client: api)
        }
    }

    /// The CardDAV backend of `server` on these pieces.
    public func cardDAVBackend(for server: URL) -> CardDAVBackend {
        CardDAVBackend(
            setup: CardDAVBackend.Setup(
                server: server, book: settings.book, allowsInsecureHTTP: settings.allowInsecureHTTP,
                requestTimeout: settings.requestTimeout),
            tokenStore: tokenStore, transport: transport, plugins: [log], logger: sessionLogger)
    }

    /// The card API client of `server` on these pieces: for the benchmarks, which measure the
    /// client itself. Everything else goes through ``backend(for:account:)``.
    public func cardAPIClient(for server: URL, account: String? = nil) -> CardAPIClient {
        Self.cardAPIClient(
            server: server, account: account, settings: settings, store: tokenStore, transport: transport, log: log,
            logger: sessionLogger)
    }

    /// Shuts the transport down; call once, after the last request.
    public func shutdown() async {
        try? await transport.shutdown()
    }

    /// The token store the settings name: `tokenFile` (with `~/` expanded), else the default
    /// location under `XDG_STATE_HOME` or `~/.local/state`.
    public static func tokenStore(
        for settings: ClientSettings, environment: [String: String]
    ) throws(ClientSetupError) -> TokenStore {
        if let file = settings.tokenFile {
            guard let path = LocalPath.expandingHome(file, home: environment["HOME"]) else {
                throw .tokenStore(.noStateLocation)
            }
            return TokenStore(path: path)
        }
        do {
            return try TokenStore(environment: environment)
        } catch {
            throw .tokenStore(error)
        }
    }

    private static func cardAPIClient(
        server: URL, account: String? = nil, settings: ClientSettings, store: TokenStore, transport: LiveTransport,
        log: LoggerPlugin, logger: Logger
    ) -> CardAPIClient {
        CardAPIClient(
            configuration: apiConfiguration(server: server, account: account, settings: settings), tokenStore: store,
            transport: transport, plugins: [log], logger: logger)
    }

    /// The card API configuration for `server` under `settings` (the benchmarks build clients
    /// with it as the interface does).
    public static func apiConfiguration(
        server: URL, account: String? = nil, settings: ClientSettings
    ) -> CardAPIConfiguration {
        CardAPIConfiguration(
            server: server, account: account,
            session: SessionPolicy(refreshMargin: settings.refreshMargin, authTimeout: settings.authTimeout),
            requestTimeout: settings.requestTimeout, allowsInsecureHTTP: settings.allowInsecureHTTP)
    }
}

/// Why the live client cannot be built.
public enum ClientSetupError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The server setting is not an `http` or `https` URL with a host, or holds a user name and
    /// password (the text has them as `<private>`).
    case invalidServer(String)
    /// The server setting is plain `http://` to another computer and plain http was not
    /// allowed (``ClientSettings/allowInsecureHTTP``); see ``CardBackend/ServerAddressError``.
    case insecureServer(String)
    /// There is no usable place for the token file.
    case tokenStore(TokenStoreError)

    /// Where the server address is set, for messages about a wrong one.
    public static let whereToSetTheServer = "Set it with --server, CARDWALLET_SERVER or \"server\" in the config file."

    /// How to allow plain http to another computer, for the message that refuses it.
    public static let howToAllowInsecureHTTP =
        "To allow it: --allow-insecure-http, CARDWALLET_ALLOW_INSECURE_HTTP=true "
        + "or \"allowInsecureHTTP\": true in the config file."

    public var description: String {
        switch self {
        case .insecureServer(let server):
            ServerAddressError(.insecure(server)).description + " " + Self.howToAllowInsecureHTTP
        case .invalidServer(let text):
            ServerAddressError(.invalid(text)).description + " " + Self.whereToSetTheServer
        case .tokenStore(.noStateLocation):
            "There is no place for the token file: set XDG_STATE_HOME or HOME to an absolute path, "
                + "or name a file with CARDWALLET_TOKEN_FILE."
        case .tokenStore(let error):
            error.description
        }
    }
}
