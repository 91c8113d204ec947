import Logging

/// The client's settings, resolved from every layer: command-line flags, then the environment,
/// then the user's config file, then ``defaults`` (the same values as `Config/cardwallet.json`).
///
/// Load them with ``ClientSettingsLoader/load(overrides:environment:)``, or through
/// ``ClientOptions/resolveSettings(environment:)`` in a command. See `Config/README.md` for
/// every key.
struct ClientSettings: Sendable, Equatable {
    /// The card API's base URL as written, e.g. `http://127.0.0.1:8080/v1` (checked when the
    /// client is built: see ``LiveClient/make(settings:environment:networkLogger:sessionLogger:deliveryInterval:)``).
    var server: String
    /// The token file, or `nil` for the default `$XDG_STATE_HOME/cardwallet/tokens.json`
    /// (`~/.local/state/cardwallet/tokens.json`). Empty text in any layer means the default.
    var tokenFile: String?
    /// How long to wait for a connection to the server.
    var connectTimeout: Duration
    /// The most time one card request may take (uploads included).
    var requestTimeout: Duration
    /// Refresh the access token when it expires within this margin (for clock skew).
    var refreshMargin: Duration
    /// swift-log messages at this level or more severe are written (to standard error by the
    /// scripting commands). `critical` keeps them quiet: commands report failures themselves.
    var logLevel: Logger.Level
    /// Whether the TUI writes its network log to `cardwallet.log` in the state folder.
    var logFile: Bool
    /// The log file's size limit in bytes, after which the TUI starts it afresh.
    var logMaxBytes: Int
    /// The most body bytes shown in a network log event's preview.
    var logBodyPreviewBytes: Int
    /// How many cards the TUI's list asks for per request (1–200).
    var pageSize: Int

    /// The built-in defaults; `Config/cardwallet.json` holds the same values (a test checks).
    static let defaults = ClientSettings(
        server: "http://127.0.0.1:8080/v1",
        tokenFile: nil,
        connectTimeout: .seconds(10),
        requestTimeout: .seconds(60),
        refreshMargin: .seconds(30),
        logLevel: .critical,
        logFile: true,
        logMaxBytes: 1_048_576,
        logBodyPreviewBytes: 4096,
        pageSize: 50)

    /// The accepted range of each numeric key, so a value can never stall or flood the program.
    enum Limits {
        /// `timeouts.connect`: 100 ms to 10 minutes.
        static let connectTimeout: ClosedRange<Duration> = .milliseconds(100) ... .seconds(600)
        /// `timeouts.request`: 1 second to 1 hour.
        static let requestTimeout: ClosedRange<Duration> = .seconds(1) ... .seconds(3600)
        /// `session.refreshMargin`: none to 1 hour.
        static let refreshMargin: ClosedRange<Duration> = .zero ... .seconds(3600)
        /// `log.maxBytes`: 4 KiB to 1 GiB.
        static let logMaxBytes: ClosedRange<Int> = 4096...(1 << 30)
        /// `log.bodyPreviewBytes`: none to 1 MiB.
        static let logBodyPreviewBytes: ClosedRange<Int> = 0...(1 << 20)
        /// `ui.pageSize`: what `GET /cards` accepts.
        static let pageSize: ClosedRange<Int> = 1...200
    }
}

/// Values given on the command line; `nil` means "not given" (the other layers decide).
struct ClientSettingsOverrides: Sendable, Equatable {
    /// `--server`.
    var server: String?
    /// `--log-level`.
    var logLevel: Logger.Level?
    /// `--config`: the config file to read instead of the default one.
    var configFile: String?

    /// Overrides; every value is optional.
    init(server: String? = nil, logLevel: Logger.Level? = nil, configFile: String? = nil) {
        self.server = server
        self.logLevel = logLevel
        self.configFile = configFile
    }
}

/// Where a setting's value came from, for `status` and error messages.
enum SettingOrigin: Sendable, Hashable, CustomStringConvertible {
    /// A command-line option, e.g. `--server`.
    case flag(String)
    /// An environment variable.
    case environment(String)
    /// A config file.
    case file(String)
    /// The built-in defaults.
    case defaults

    /// `--server`, `CARDWALLET_SERVER`, `/home/u/.config/cardwallet/config.json`, `built-in default`.
    var description: String {
        switch self {
        case .flag(let name): name
        case .environment(let name): name
        case .file(let path): path
        case .defaults: "built-in default"
        }
    }
}

/// Settings with what the loader found out on the way.
struct ResolvedClientSettings: Sendable, Equatable {
    /// The values.
    var settings: ClientSettings
    /// Where each key's value came from.
    var origins: [ClientSettingKey: SettingOrigin]
    /// The config file that was read, if any.
    var configFile: String?
    /// Harmless problems worth telling the user, e.g. an unknown key in the config file.
    var warnings: [String]

    /// Where `key`'s value came from.
    func origin(of key: ClientSettingKey) -> SettingOrigin { origins[key] ?? .defaults }
}
