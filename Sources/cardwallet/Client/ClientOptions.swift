import ArgumentParser
import CardBackend
import CardWalletLive
import Foundation
import Logging

/// The options every client command shares (the scripting commands and the TUI), embedded with
/// `@OptionGroup var client: ClientOptions`.
///
/// Each option overrides one setting; what is not given comes from the environment
/// (`CARDWALLET_SERVER`, `CARDWALLET_LOG_LEVEL`, …), then the config file, then the defaults.
struct ClientOptions: ParsableArguments {
    /// `--server URL`.
    @Option(
        name: .long,
        help: ArgumentHelp(
            "The server, for one command: the card API's base URL (e.g. http://127.0.0.1:8080/v1) or a CardDAV "
                + "server's address (e.g. https://dav.example.com/); the account stored there is used. Overrides "
                + "CARDWALLET_SERVER and the config file. (default: the default account's server, else "
                + "\(ClientSettings.defaults.server))",
            valueName: "url"))
    var server: String?

    /// `--account NAME`.
    @Option(
        name: .long,
        help: ArgumentHelp(
            "The stored account to use, by name (`cardwallet accounts` lists them). Also CARDWALLET_ACCOUNT and "
                + "\"account\" in the config file. (default: the default account, marked * in `cardwallet accounts`)",
            valueName: "name"))
    var account: String?

    /// `--book ID`.
    @Option(
        name: .long,
        help: ArgumentHelp(
            "On a CardDAV server: the address book to use, by its id (`cardwallet books` lists them). "
                + "`all`: every book of every account at once (the wallet's All view; list, query, export, sync). "
                + "Also CARDWALLET_BOOK and \"book\" in the config file. (default: the one the login chose)",
            valueName: "id"))
    var book: String?

    /// `--config FILE`.
    @Option(
        name: .long,
        help: ArgumentHelp(
            "A JSON config file to read instead of $XDG_CONFIG_HOME/cardwallet/config.json (~/.config/cardwallet/config.json). Also CARDWALLET_CONFIG.",
            valueName: "file"))
    var config: String?

    /// `-v` / `--verbose`.
    @Flag(
        name: [.short, .long],
        help: "Print every network exchange as one line on standard error as it happens (tokens and passwords hidden).")
    var verbose = false

    /// `--offline`.
    @Flag(
        help:
            "Answer from the local card cache without trying the network (list, show). Commands that change cards refuse (exit 6)."
    )
    var offline = false

    /// `--log-level LEVEL`.
    @Option(
        name: .customLong("log-level"),
        help: ArgumentHelp(
            "swift-log messages at this level or above go to standard error: trace, debug, info, notice, warning, "
                + "error or critical. Also CARDWALLET_LOG_LEVEL. (default: \(ClientSettings.defaults.logLevel.rawValue)"
                + (ClientSettings.defaults.logLevel == .critical ? ", i.e. quiet)" : ")"),
            valueName: "level"),
        transform: ClientOptions.parseLogLevel)
    var logLevel: Logger.Level?

    /// `--allow-insecure-http`.
    @Flag(
        name: .customLong("allow-insecure-http"),
        help: ArgumentHelp(
            "Send the password and tokens to a plain http:// server that is not this computer (unencrypted: "
                + "anyone on the network can read them; a warning says so). Without it, only https:// and "
                + "http://localhost, 127.0.0.1 or ::1 are used. Also CARDWALLET_ALLOW_INSECURE_HTTP."))
    var allowInsecureHTTP = false

    /// Rejects a `--server` that is not an http or https URL (or holds a password) before
    /// anything runs. Plain http to another computer is judged later, with every layer's
    /// `allowInsecureHTTP`.
    func validate() throws {
        guard ArgumentChecks.apply else { return }
        if let server {
            do {
                _ = try ServerAddress.url(server, allowingInsecureHTTP: true)
            } catch {
                throw ValidationError(error.description)
            }
        }
    }

    /// The command-line overrides these options give.
    var overrides: ClientSettingsOverrides {
        ClientSettingsOverrides(
            server: server, logLevel: logLevel, configFile: config, allowInsecureHTTP: allowInsecureHTTP ? true : nil,
            book: book, account: account)
    }

    /// The settings for these options in `environment`: flags, then environment, then the
    /// config file, then the defaults.
    ///
    /// - Throws: ``ClientSettingsError`` naming the bad key and where it came from.
    func resolveSettings(
        environment: [String: String] = ProcessInfo.processInfo.environment
    ) async throws(ClientSettingsError) -> ResolvedClientSettings {
        try await ClientSettingsLoader.load(overrides: overrides, environment: environment)
    }

    static func parseLogLevel(_ text: String) throws -> Logger.Level {
        guard let level = Logger.Level(rawValue: text.lowercased()) else {
            throw ValidationError("use trace, debug, info, notice, warning, error or critical")
        }
        return level
    }
}
