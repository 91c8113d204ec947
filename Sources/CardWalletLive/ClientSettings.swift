public import Logging

/// The client's settings, resolved from every layer: command-line flags, then the environment,
/// then the user's config file, then ``defaults`` (the same values as `Config/cardwallet.json`).
///
/// Load them with ``ClientSettingsLoader/load(overrides:environment:)``, or through
/// ``ClientOptions/resolveSettings(environment:)`` in a command. See `Config/README.md` for
/// every key.
public struct ClientSettings: Sendable, Equatable {
    /// The card API's base URL as written, e.g. `http://127.0.0.1:8080/v1` (checked when the
    /// client is built: see ``LiveBackends/make(settings:environment:networkLogger:sessionLogger:eventSink:recordsCreated:recentCapacity:)``).
    public var server: String
    /// The token file, or `nil` for the default `$XDG_STATE_HOME/cardwallet/tokens.json`
    /// (`~/.local/state/cardwallet/tokens.json`). Empty text in any layer means the default.
    public var tokenFile: String?
    /// How long to wait for a connection to the server.
    public var connectTimeout: Duration
    /// The most time one card request may take (uploads included).
    public var requestTimeout: Duration
    /// Refresh the access token when it expires within this margin (for clock skew).
    public var refreshMargin: Duration
    /// swift-log messages at this level or more severe are written (to standard error by the
    /// scripting commands). `critical` keeps them quiet: commands report failures themselves.
    public var logLevel: Logger.Level
    /// Whether the TUI writes its network log to `cardwallet.log` in the state folder.
    public var logFile: Bool
    /// The log file's size limit in bytes, after which the TUI starts it afresh.
    public var logMaxBytes: Int
    /// The most body bytes shown in a network log event's preview.
    public var logBodyPreviewBytes: Int
    /// How many cards the TUI's list asks for per request (1–200).
    public var pageSize: Int
    /// The most time a login, token refresh or logout exchange may take, body included. It
    /// stays below the token file's lock timeout (30 s), so a slow server cannot make other
    /// processes give up waiting for the lock while a refresh is on the wire.
    public var authTimeout: Duration
    /// Whether passwords and tokens may go to a plain `http://` server that is not this
    /// computer (`--allow-insecure-http`). Off by default: such a server is refused.
    public var allowInsecureHTTP: Bool
    /// How the TUI draws card pictures (`ui.images`): `auto` (ask the terminal), `kitty`,
    /// `iterm`, `sixel`, `blocks` or `off`; `CARDWALLET_IMAGES` overrides it (docs/TUI.md).
    public var images: String
    /// The address book of a CardDAV server to use (`book`, `CARDWALLET_BOOK`, `--book`): its id,
    /// as `cardwallet books` lists it; `nil` for the one the login chose.
    public var book: String?
    /// The stored account to use (`account`, `CARDWALLET_ACCOUNT`, `--account`), by name; `nil`
    /// for the default account.
    public var account: String?
    /// The command that prints the password at a login (`passwordCommand`,
    /// `CARDWALLET_PASSWORD_COMMAND`, `--password-command`), run by `/bin/sh -c`; `nil` to ask.
    public var passwordCommand: String?
    /// Whether ``server`` is the built-in default (no layer set it): then the default account's
    /// server is used instead, when there is one.
    public var serverIsDefault: Bool
    /// How often the TUI syncs every book in the background, and `sync --watch` syncs, in
    /// seconds (`syncInterval`, `CARDWALLET_SYNC_INTERVAL`); 0: never in the background.
    public var syncInterval: Int = 60
    /// The OAuth 2.0 client a login with `--oauth` uses when the command line does not name one
    /// (`oauth.clientId`, `oauth.clientSecret`, `oauth.scope`), and how long it waits for the
    /// browser (`oauth.redirectTimeout`).
    public var oauth: OAuthSettings

    /// The `oauth` entry of the settings.
    public struct OAuthSettings: Sendable, Equatable {
        /// The authorization server of the interface's browser login (Ctrl-O) when its Server field
        /// does not say `google`: `google` or an issuer's address (`oauth.issuer`).
        public var issuer: String?
        /// The client id (`oauth.clientId`, `CARDWALLET_OAUTH_CLIENT_ID`, `--client-id`).
        public var clientID: String?
        /// The client secret (`oauth.clientSecret`, `CARDWALLET_OAUTH_CLIENT_SECRET`,
        /// `--client-secret`); kept in the account's secret store after the login, never in its record.
        public var clientSecret: String?
        /// The scope, over the issuer's default (`oauth.scope`, `--scope`).
        public var scope: String?
        /// How long a login waits for the browser to come back (`oauth.redirectTimeout`).
        public var redirectTimeout: Duration

        /// Settings.
        public init(
            issuer: String? = nil, clientID: String? = nil, clientSecret: String? = nil, scope: String? = nil,
            redirectTimeout: Duration = .seconds(300)
        ) {
            self.issuer = issuer
            self.clientID = clientID
            self.clientSecret = clientSecret
            self.scope = scope
            self.redirectTimeout = redirectTimeout
        }
    }

    /// Settings with every value given.
    public init(
        server: String, tokenFile: String?, connectTimeout: Duration, requestTimeout: Duration,
        refreshMargin: Duration, logLevel: Logger.Level, logFile: Bool, logMaxBytes: Int, logBodyPreviewBytes: Int,
        pageSize: Int, authTimeout: Duration = .seconds(20), allowInsecureHTTP: Bool = false, images: String = "auto",
        book: String? = nil, account: String? = nil, passwordCommand: String? = nil, serverIsDefault: Bool = false,
        oauth: OAuthSettings = OAuthSettings()
    ) {
        self.oauth = oauth
        self.images = images
        self.book = book
        self.account = account
        self.passwordCommand = passwordCommand
        self.serverIsDefault = serverIsDefault
        self.authTimeout = authTimeout
        self.allowInsecureHTTP = allowInsecureHTTP
        self.server = server
        self.tokenFile = tokenFile
        self.connectTimeout = connectTimeout
        self.requestTimeout = requestTimeout
        self.refreshMargin = refreshMargin
        self.logLevel = logLevel
        self.logFile = logFile
        self.logMaxBytes = logMaxBytes
        self.logBodyPreviewBytes = logBodyPreviewBytes
        self.pageSize = pageSize
    }

    /// The built-in defaults: the one place they are defined. `--help` prints them from here;
    /// `Config/cardwallet.json` is a template holding the same values for people to copy (a
    /// test checks it against these).
    public static let defaults = ClientSettings(
        server: "http://127.0.0.1:8080/v1",
        tokenFile: nil,
        connectTimeout: .seconds(10),
        requestTimeout: .seconds(60),
        refreshMargin: .seconds(30),
        logLevel: .critical,
        logFile: true,
        logMaxBytes: 1_048_576,
        logBodyPreviewBytes: 4096,
        pageSize: 50,
        authTimeout: .seconds(20),
        allowInsecureHTTP: false,
        images: "auto",
        serverIsDefault: true)

    /// The accepted range of each numeric key, so a value can never stall or flood the program.
    public enum Limits {
        /// `timeouts.connect`: 100 ms to 10 minutes.
        public static let connectTimeout: ClosedRange<Duration> = .milliseconds(100) ... .seconds(600)
        /// `timeouts.request`: 1 second to 1 hour.
        public static let requestTimeout: ClosedRange<Duration> = .seconds(1) ... .seconds(3600)
        /// `session.refreshMargin`: none to 1 hour.
        public static let refreshMargin: ClosedRange<Duration> = .zero ... .seconds(3600)
        /// `log.maxBytes`: 4 KiB to 1 GiB.
        public static let logMaxBytes: ClosedRange<Int> = 4096...(1 << 30)
        /// `log.bodyPreviewBytes`: none to 1 MiB.
        public static let logBodyPreviewBytes: ClosedRange<Int> = 0...(1 << 20)
        /// `ui.pageSize`: what `GET /cards` accepts.
        public static let pageSize: ClosedRange<Int> = 1...200
        /// `timeouts.auth`: 1 to 25 seconds, below the token file's 30-second lock timeout.
        public static let authTimeout: ClosedRange<Duration> = .seconds(1) ... .seconds(25)
        /// `syncInterval`: off (0), or 5 seconds to a day.
        public static let syncInterval: ClosedRange<Int> = 0...86_400
        /// `oauth.redirectTimeout`: 1 second to 1 hour.
        public static let redirectTimeout: ClosedRange<Duration> = .seconds(1) ... .seconds(3600)
    }
}
