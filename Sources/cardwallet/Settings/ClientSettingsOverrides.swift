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
