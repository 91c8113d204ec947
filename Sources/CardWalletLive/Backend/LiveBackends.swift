public import CardAPI
public import CardBackend
public import CardProviders
public import Foundation
public import Logging
public import Networking
public import Secrets
public import TokenStore

/// The composition root of the live pieces: the one place that builds backends, from the list
/// of providers (docs/Architecture.md). One set of ``ClientSettings`` describes the token store,
/// one `LiveTransport`, one `LoggerPlugin`, the accounts' secrets, and the backend of the account
/// in use built on them; everything above holds `any CardBackend`.
///
/// ```swift
/// let resolved = try await options.resolveSettings()
/// let live = try LiveBackends.make(settings: resolved.settings, environment: ProcessInfo.processInfo.environment)
/// defer { Task { await live.shutdown() } }     // or await it before exiting
/// let cards = try await live.backend.listing(.whole(since: nil))
/// ```
///
/// The interactive interface builds its pieces with ``makeForTerminal(settings:environment:sessionLogger:sink:providers:keyring:)``.
///
/// Call ``shutdown()`` when done: it shuts the transport's HTTP client down.
public struct LiveBackends: Sendable {
    /// The settings the pieces were built from.
    public let settings: ClientSettings
    /// The server in use: the account's, else the one the settings name (checked, trailing
    /// slashes removed).
    public let server: URL
    /// The token file shared by every cardwallet process of the user: tokens and account records.
    public let tokenStore: TokenStore
    /// The HTTP transport (one per process; pooled connections).
    public let transport: LiveTransport
    /// The logger plugin every request goes through.
    public let log: LoggerPlugin
    /// The logger the session reports to.
    public let sessionLogger: Logger
    /// The accounts: the registered providers, what backends are built on, the secrets.
    public let directory: AccountDirectory
    /// The stored account in use (``ClientSettings/account``, the one at an explicit server, else
    /// the default one); `nil` when none is stored for the server in use.
    public let account: AccountRecord?
    /// The backend of ``account`` (or of ``server`` before any login there).
    public let backend: any CardBackend

    /// Builds the live pieces.
    ///
    /// - Parameters:
    ///   - settings: resolved settings.
    ///   - environment: the process environment, for the default token location
    ///     (`XDG_STATE_HOME`, `HOME`), `~` in `tokenFile`, the session bus of the keyring, and
    ///     password commands.
    ///   - networkLogger: also receives every network event as a one-line message at its
    ///     level (the `LoggerPlugin`'s swift-log bridge); `nil` for none.
    ///   - sessionLogger: where the session reports logins, refreshes and expiry (never a token);
    ///     `nil` discards them.
    ///   - eventSink: where the plugin hands every event (the interface's log pane), or `nil`.
    ///   - recordsCreated: whether the plugin records `created` events (a request built, not yet
    ///     adapted); the TUI shows none, the scripting commands' debug log does.
    ///   - recentCapacity: how many events the plugin keeps for `recent()`.
    ///   - providers: the kinds of server the wallet knows (``Providers/standard``; tests add theirs).
    ///   - keyring: where passwords go; `nil` for the session's keyring through libsecret.
    ///   - choosingAccount: whether an account must be chosen (`false` for commands about every
    ///     account: none is then when the choice is unclear).
    /// - Throws: ``ClientSetupError`` for a server that is not an http(s) URL with a host (or
    ///   holds a password, or is plain http to another computer without
    ///   ``ClientSettings/allowInsecureHTTP``), no usable token location, or an account that
    ///   cannot be chosen.
    public static func make(
        settings: ClientSettings, environment: [String: String], networkLogger: Logger? = nil,
        sessionLogger: Logger? = nil, eventSink: (any NetworkEventSink)? = nil, recordsCreated: Bool = true,
        recentCapacity: Int = 500, providers: [any BackendProvider] = Providers.standard,
        keyring: (any SecretStore)? = nil, choosingAccount: Bool = true
    ) throws(ClientSetupError) -> LiveBackends {
        let configured: URL
        do {
            configured = try ServerAddress.url(settings.server, allowingInsecureHTTP: settings.allowInsecureHTTP)
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
        let secrets = AccountSecrets(
            keyring: keyring ?? KeyringSecretStore(environment: environment), tokenStore: store,
            environment: environment)
        let context = ProviderContext(
            tokenStore: store, transport: transport, plugins: [log], logger: sessionLogger,
            settings: providerSettings(for: settings), password: { try await secrets.password(for: $0) },
            secret: { try await secrets.secretIfKept(for: $0) },
            keepSecret: { try await secrets.replace($1, for: $0) })
        let directory = AccountDirectory(
            providers: providers, context: context, secrets: secrets, book: settings.book)
        let choice = AccountChoice(name: settings.account, server: settings.serverIsDefault ? nil : configured)
        let chosen: (server: URL, account: AccountRecord?)
        if choosingAccount {
            chosen = try directory.choose(choice, fallback: configured)
        } else {
            // A command about every account (`accounts`, `logout --all`): none must be chosen.
            chosen = (try? directory.choose(choice, fallback: configured)) ?? (configured, nil)
        }
        let backend: any CardBackend
        do throws(AccountProblem) {
            if let account = chosen.account {
                backend = try directory.backend(for: account)
            } else {
                backend = try directory.backend(at: chosen.server)
            }
        } catch {
            throw .account(error.description)
        }
        // `--book ID` names an address book of the account in use: refused where its server has
        // none (the card API), never ignored.
        if choosingAccount, let book = settings.book, let account = chosen.account, !(backend is any AddressBooks) {
            throw .account(
                "--book \(TerminalText.escaped(book)): the account \(TerminalText.escaped(account.name)) is on a card "
                    + "server, which has no address books. --book names a CardDAV address book (cardwallet books "
                    + "lists them); --book all works on every account's books. Nothing was done.")
        }
        return LiveBackends(
            settings: settings, server: chosen.server, tokenStore: store, transport: transport, log: log,
            sessionLogger: sessionLogger, directory: directory, account: chosen.account, backend: backend)
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

    /// What a backend is built with under `settings`.
    public static func providerSettings(for settings: ClientSettings) -> ProviderSettings {
        ProviderSettings(
            allowsInsecureHTTP: settings.allowInsecureHTTP, requestTimeout: settings.requestTimeout,
            probeTimeout: min(ProviderSettings.defaultProbeTimeout, settings.requestTimeout),
            refreshMargin: settings.refreshMargin, authTimeout: settings.authTimeout)
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
    /// - Throws: ``ClientSetupError``, as ``make(settings:environment:networkLogger:sessionLogger:eventSink:recordsCreated:recentCapacity:providers:keyring:)``.
    public static func makeForTerminal(
        settings: ClientSettings, environment: [String: String], sessionLogger: Logger? = nil,
        sink: LiveEventSink, providers: [any BackendProvider] = Providers.standard, keyring: (any SecretStore)? = nil
    ) throws(ClientSetupError) -> LiveBackends {
        try make(
            settings: settings, environment: environment, sessionLogger: sessionLogger, eventSink: sink,
            recordsCreated: terminalRecordsCreated, recentCapacity: 0, providers: providers, keyring: keyring)
    }

    /// The card API client of `server` on these pieces: for the benchmarks, which measure the
    /// client itself. Everything else goes through backends.
    public func cardAPIClient(for server: URL, account: String? = nil) -> CardAPIClient {
        CardAPIProvider.client(
            server: server, account: account, context: directory.context, settings: directory.context.settings)
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
    /// The account asked for cannot be used (no such account, several and none chosen, a kind
    /// this cardwallet does not know); the text says which and what to do.
    case account(String)

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
        case .account(let text):
            text
        }
    }
}
