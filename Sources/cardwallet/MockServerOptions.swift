import ArgumentParser
import CardMockServer
import CardModels
import Foundation

/// The defaults a command's `--help` states for the server options it changes.
///
/// `cardwallet mock-server` shows the configuration's own values (``MockServerSettingKey``
/// reads them from ``MockServerConfiguration/default``, where each is defined); `cardwallet
/// demo` picks a free port and short-lived access tokens unless told otherwise, and says so.
protocol MockServerHelpDefaults {
    /// What `key` is when no option, environment variable or file sets it, as `--help` shows it.
    static func text(for key: MockServerSettingKey) -> String
}

/// The defaults of `cardwallet mock-server`: those of the configuration.
enum StandaloneServerHelpDefaults: MockServerHelpDefaults {
    static func text(for key: MockServerSettingKey) -> String { key.helpText(in: .default) }
}

/// The defaults of `cardwallet demo` (see ``DemoDefaults``).
enum DemoServerHelpDefaults: MockServerHelpDefaults {
    static func text(for key: MockServerSettingKey) -> String {
        switch key {
        case .port: "a free one"
        case .accessTokenTTL: "\(DemoDefaults.accessTokenLifetime)"
        default: key.helpText(in: .default)
        }
    }
}

/// The options of `cardwallet mock-server`.
typealias MockServerOptions = ServerOptions<StandaloneServerHelpDefaults>

/// The server options of `cardwallet demo`: the same options, with the demo's defaults in `--help`.
typealias DemoServerOptions = ServerOptions<DemoServerHelpDefaults>

/// The mock server's command-line options, shared by `cardwallet mock-server` and (through
/// `@OptionGroup`) `cardwallet demo`.
///
/// Every option is an override, the top layer of ``MockServerConfiguration/resolve(_:)``: what
/// is not given comes from a `CARDWALLET_MOCK_*` environment variable, else from the config file
/// (`--config`, `$CARDWALLET_MOCK_CONFIG`, else `Config/mock-server.json` in the current folder
/// when it exists), else from the built-in defaults.
struct ServerOptions<HelpDefaults: MockServerHelpDefaults>: ParsableArguments {
    /// The configuration file; see `Config/README.md`.
    @Option(
        name: .long,
        help: ArgumentHelp(
            "A mock-server.json configuration file (see Config/README.md). Without it: $\(MockServerSettingsSources.configFileVariable), else ./\(MockServerOptions.repositoryConfigPath) if present, else the built-in defaults.",
            valueName: "file"))
    var config: String?

    /// The address to bind.
    @Option(
        help: ArgumentHelp(
            "The address to listen on. (default: \(HelpDefaults.text(for: .host)))", valueName: "address"))
    var host: String?

    /// The TCP port.
    @Option(
        help: ArgumentHelp(
            "The TCP port; 0 picks a free one. (default: \(HelpDefaults.text(for: .port)))", valueName: "port"))
    var port: Int?

    /// The access-token lifetime.
    @Option(
        name: .customLong("access-ttl"),
        help: ArgumentHelp(
            "How long an access token lives, e.g. 30s or 5m. (default: \(HelpDefaults.text(for: .accessTokenTTL)))",
            valueName: "duration"),
        transform: DurationArgument.parse)
    var accessTTL: TimeSpan?

    /// The refresh-token lifetime.
    @Option(
        name: .customLong("refresh-ttl"),
        help: ArgumentHelp(
            "How long a refresh token lives, e.g. 1h or 1d. (default: \(HelpDefaults.text(for: .refreshTokenTTL)))",
            valueName: "duration"),
        transform: DurationArgument.parse)
    var refreshTTL: TimeSpan?

    /// The data file.
    @Option(
        name: .customLong("data"),
        help: ArgumentHelp(
            "Keep the data in this SQLite file across restarts: created from the seed data when missing, each change written before it is answered; a JSON data file of an earlier version is migrated once. (default: \(HelpDefaults.text(for: .dataFile)))",
            valueName: "file"))
    var dataFile: String?

    /// Latency added to every response.
    @Option(
        help: ArgumentHelp(
            "Delay added to every response, e.g. 200ms; at most 1m. (default: \(HelpDefaults.text(for: .latency)))",
            valueName: "duration"),
        transform: DurationArgument.parse)
    var latency: TimeSpan?

    /// The share of card requests answered with 503.
    @Option(
        name: .customLong("fail-rate"),
        help: ArgumentHelp(
            "The share of card requests answered with 503, from 0 to 1 (0.1 = one in ten). (default: \(HelpDefaults.text(for: .failRate)))",
            valueName: "share"))
    var failRate: Double?

    /// Whether the `/_admin` endpoints exist.
    @Flag(
        inversion: .prefixedNo,
        help: ArgumentHelp(
            "Enable POST /_admin/expire?email=, POST /_admin/revoke?email= and GET /_admin/stats; without them they answer 404. (default: \(HelpDefaults.text(for: .admin)))"
        ))
    var admin: Bool?

    /// Whatever follows the first argument these options do not know.
    ///
    /// Its only job is to stop the root command's options (`--config`, `--log-level`,
    /// `--server`, `-v`) from taking values meant for this command: swift-argument-parser lets a
    /// parent command match its options anywhere on the line, unless the subcommand captures
    /// its input for passthrough. What lands here is reported as an unknown argument.
    @Argument(parsing: .captureForPassthrough, help: .private)
    var unexpected: [String] = []

    /// Rejects bad values before anything starts, with every problem named.
    func validate() throws {
        if let first = unexpected.first {
            // `--help` after an option lands here too: show the help, as for any command.
            if unexpected.contains(where: { ["-h", "--help", "-help"].contains($0) }) { throw CleanExit.helpRequest() }
            let printable = String(
                first.unicodeScalars.map { $0.value < 0x20 || $0.value == 0x7F ? "?" : Character($0) })
            throw ValidationError(
                first.hasPrefix("-")
                    ? "Unknown option '\(printable)'."
                    : "Unexpected argument '\(printable)': this command takes only options.")
        }
        if let port, !(0...65535).contains(port) {
            throw ValidationError("--port must be from 0 to 65535 (0 picks a free port), not \(port).")
        }
        if let failRate, !failRate.isFinite || !(0...1).contains(failRate) {
            throw ValidationError("--fail-rate must be a share from 0 to 1, e.g. 0.1, not \(failRate).")
        }
        do {
            _ = try makeConfiguration()
        } catch {
            throw ValidationError(error.description)
        }
    }

    /// The values given on the command line, as the settings' first layer.
    var flags: [MockServerSettingKey: String] {
        var flags: [MockServerSettingKey: String] = [:]
        flags[.host] = host
        flags[.port] = port.map { "\($0)" }
        flags[.accessTokenTTL] = accessTTL?.description
        flags[.refreshTokenTTL] = refreshTTL?.description
        flags[.dataFile] = dataFile
        flags[.latency] = latency?.description
        flags[.failRate] = failRate.map { "\($0)" }
        flags[.admin] = admin.map { "\($0)" }
        return flags
    }

    /// The configuration these options describe over `environment` and the config file, with
    /// where each value came from. Not validated: the demo changes some values first.
    /// - Throws: ``MockServerError`` when the config file cannot be used or a value has the
    ///   wrong type.
    func resolve(
        environment: [String: String] = ProcessInfo.processInfo.environment
    ) throws(MockServerError) -> ResolvedMockServerConfiguration {
        try MockServerConfiguration.resolve(
            MockServerSettingsSources(
                flags: flags, environment: environment, configFile: config,
                defaultConfigFile: MockServerOptions.repositoryConfigPath))
    }

    /// The validated configuration of `cardwallet mock-server`.
    /// - Throws: ``MockServerError`` when a file cannot be used or a value is invalid.
    func makeConfiguration(
        environment: [String: String] = ProcessInfo.processInfo.environment
    ) throws(MockServerError) -> ResolvedMockServerConfiguration {
        let resolved = try resolve(environment: environment)
        try resolved.validate()
        return resolved
    }

    /// The configuration file used when neither `--config` nor `CARDWALLET_MOCK_CONFIG` names
    /// one and it exists.
    static var repositoryConfigPath: String { "Config/mock-server.json" }
}

/// Parses a duration option (`30s`, `5m`, `1h30m`).
private enum DurationArgument {
    @Sendable static func parse(_ text: String) throws -> TimeSpan {
        try TimeSpan(parsing: text)
    }
}
