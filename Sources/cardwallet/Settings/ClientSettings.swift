import CardWalletLive
import Logging

/// Values given on the command line; `nil` means "not given" (the other layers decide).
struct ClientSettingsOverrides: Sendable, Equatable {
    /// `--server`.
    var server: String?
    /// `--log-level`.
    var logLevel: Logger.Level?
    /// `--config`: the config file to read instead of the default one.
    var configFile: String?
    /// `--allow-insecure-http`: `true` when given (the flag can only allow, never forbid).
    var allowInsecureHTTP: Bool?
    /// `--book`: the address book of a CardDAV server.
    var book: String?
    /// `--account`: the stored account to use.
    var account: String?
    /// `--password-command`: the command that prints the password at a login.
    var passwordCommand: String?

    /// Overrides; every value is optional.
    init(
        server: String? = nil, logLevel: Logger.Level? = nil, configFile: String? = nil,
        allowInsecureHTTP: Bool? = nil, book: String? = nil, account: String? = nil, passwordCommand: String? = nil
    ) {
        self.server = server
        self.book = book
        self.account = account
        self.passwordCommand = passwordCommand
        self.logLevel = logLevel
        self.configFile = configFile
        self.allowInsecureHTTP = allowInsecureHTTP
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
