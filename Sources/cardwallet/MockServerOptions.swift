import CardModels
import ArgumentParser
import CardMockServer
import Foundation

/// The defaults a command's `--help` states for the server options it changes.
///
/// `cardwallet mock-server` uses the configuration's values; `cardwallet demo` picks a free
/// port and short-lived access tokens unless told otherwise, and says so in its own help.
protocol MockServerHelpDefaults {
    /// What `--port` is when not given, as shown in `--help`.
    static var port: String { get }
    /// What `--access-ttl` is when not given, as shown in `--help`.
    static var accessTTL: String { get }
}

/// The defaults of `cardwallet mock-server`: those of the configuration.
enum StandaloneServerHelpDefaults: MockServerHelpDefaults {
    static var port: String { "\(MockServerConfiguration.default.port)" }
    static var accessTTL: String { "\(MockServerConfiguration.default.accessTokenTTL)" }
}

/// The defaults of `cardwallet demo` (see ``DemoDefaults``).
enum DemoServerHelpDefaults: MockServerHelpDefaults {
    static var port: String { "a free one" }
    static var accessTTL: String { "\(DemoDefaults.accessTokenLifetime)" }
}

/// The options of `cardwallet mock-server`.
typealias MockServerOptions = ServerOptions<StandaloneServerHelpDefaults>

/// The server options of `cardwallet demo`: the same options, with the demo's defaults in `--help`.
typealias DemoServerOptions = ServerOptions<DemoServerHelpDefaults>

/// The mock server's command-line options, shared by `cardwallet mock-server` and (through
/// `@OptionGroup`) `cardwallet demo`.
///
/// Every option is an override: what is not given comes from `--config`, else from
/// `Config/mock-server.json` in the current folder when it exists, else from the built-in
/// defaults (the same values).
struct ServerOptions<HelpDefaults: MockServerHelpDefaults>: ParsableArguments {
    /// The configuration file; see `Config/README.md`.
    @Option(
        name: .long,
        help: ArgumentHelp(
            "A mock-server.json configuration file (see Config/README.md). Without it: ./Config/mock-server.json if present, else the built-in defaults.",
            valueName: "file"))
    var config: String?

    /// The address to bind.
    @Option(
        help: ArgumentHelp(
            "The address to listen on. (default: \(MockServerConfiguration.default.host))", valueName: "address"))
    var host: String?

    /// The TCP port.
    @Option(help: ArgumentHelp("The TCP port; 0 picks a free one. (default: \(HelpDefaults.port))", valueName: "port"))
    var port: Int?

    /// The access-token lifetime.
    @Option(
        name: .customLong("access-ttl"),
        help: ArgumentHelp(
            "How long an access token lives, e.g. 30s or 5m. (default: \(HelpDefaults.accessTTL))",
            valueName: "duration"),
        transform: DurationArgument.parse)
    var accessTTL: TimeSpan?

    /// The refresh-token lifetime.
    @Option(
        name: .customLong("refresh-ttl"),
        help: ArgumentHelp(
            "How long a refresh token lives, e.g. 1h or 1d. (default: \(MockServerConfiguration.default.refreshTokenTTL))",
            valueName: "duration"),
        transform: DurationArgument.parse)
    var refreshTTL: TimeSpan?

    /// The data file.
    @Option(
        name: .customLong("data"),
        help: ArgumentHelp(
            "Keep the data in this JSON file across restarts: created from the seed data when missing, replaced atomically after every change. (default: in memory only)",
            valueName: "file"))
    var dataFile: String?

    /// Latency added to every response.
    @Option(
        help: ArgumentHelp(
            "Delay added to every response, e.g. 200ms; at most 1m. (default: \(MockServerConfiguration.default.latency))",
            valueName: "duration"),
        transform: DurationArgument.parse)
    var latency: TimeSpan?

    /// The share of card requests answered with 503.
    @Option(
        name: .customLong("fail-rate"),
        help: ArgumentHelp(
            "The share of card requests answered with 503, from 0 to 1 (0.1 = one in ten). (default: 0)",
            valueName: "share"))
    var failRate: Double?

    /// Whether the `/_admin` endpoints exist.
    @Flag(
        help: "Enable POST /_admin/expire?email=, POST /_admin/revoke?email= and GET /_admin/stats; without it they answer 404. (default: off)"
    )
    var admin = false

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
            let printable = String(first.unicodeScalars.map { $0.value < 0x20 || $0.value == 0x7F ? "?" : Character($0) })
            throw ValidationError(
                first.hasPrefix("-")
                    ? "Unknown option '\(printable)'." : "Unexpected argument '\(printable)': this command takes only options.")
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

    /// The configuration these options describe, and where its base values came from.
    /// - Throws: ``MockServerError`` when a file cannot be used or a value is invalid.
    func makeConfiguration() throws(MockServerError) -> (configuration: MockServerConfiguration, source: String) {
        var configuration: MockServerConfiguration
        let source: String
        if let config {
            configuration = try MockServerConfiguration.load(from: URL(fileURLWithPath: config))
            source = config
        } else if FileManager.default.fileExists(atPath: repositoryConfig) {
            configuration = try MockServerConfiguration.load(from: URL(fileURLWithPath: repositoryConfig))
            source = repositoryConfig
        } else {
            configuration = .default
            source = "built-in defaults"
        }
        if let host { configuration.host = host }
        if let port { configuration.port = port }
        if let accessTTL { configuration.accessTokenTTL = accessTTL }
        if let refreshTTL { configuration.refreshTokenTTL = refreshTTL }
        if let dataFile { configuration.dataFile = dataFile }
        if let latency { configuration.latency = latency }
        if let failRate { configuration.failRate = failRate }
        if admin { configuration.admin = true }
        try configuration.validate()
        return (configuration, source)
    }

    /// The configuration file used when `--config` is not given and it exists.
    var repositoryConfig: String { "Config/mock-server.json" }
}

/// Parses a duration option (`30s`, `5m`, `1h30m`).
private enum DurationArgument {
    @Sendable static func parse(_ text: String) throws -> TimeSpan {
        try TimeSpan(parsing: text)
    }
}
