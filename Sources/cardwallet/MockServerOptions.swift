import ArgumentParser
import CardMockServer
import Foundation

/// The mock server's command-line options, shared by `cardwallet mock-server` and (through
/// `@OptionGroup`) `cardwallet demo`.
///
/// Every option is an override: what is not given comes from `--config`, else from
/// `Config/mock-server.json` in the current folder when it exists, else from the built-in
/// defaults (the same values).
struct MockServerOptions: ParsableArguments {
    /// The configuration file; see `Config/README.md`.
    @Option(
        name: .long,
        help: ArgumentHelp(
            "A mock-server.json configuration file. Without it: ./Config/mock-server.json if present, else the built-in defaults.",
            valueName: "file"))
    var config: String?

    /// The address to bind.
    @Option(help: ArgumentHelp("The address to listen on. (default: 127.0.0.1)", valueName: "address"))
    var host: String?

    /// The TCP port.
    @Option(help: ArgumentHelp("The TCP port; 0 picks a free one. (default: 8080)", valueName: "port"))
    var port: Int?

    /// The access-token lifetime.
    @Option(
        name: .customLong("access-ttl"),
        help: ArgumentHelp("How long an access token lives, e.g. 30s or 5m. (default: 5m)", valueName: "duration"),
        transform: Self.parseDuration)
    var accessTTL: TimeSpan?

    /// The refresh-token lifetime.
    @Option(
        name: .customLong("refresh-ttl"),
        help: ArgumentHelp("How long a refresh token lives, e.g. 1h or 1d. (default: 1d)", valueName: "duration"),
        transform: Self.parseDuration)
    var refreshTTL: TimeSpan?

    /// The data file.
    @Option(
        name: .customLong("data"),
        help: ArgumentHelp(
            "Keep the data in this JSON file across restarts (written atomically after every change). (default: in memory only)",
            valueName: "file"))
    var dataFile: String?

    /// Latency added to every response.
    @Option(
        help: ArgumentHelp("Delay added to every response, e.g. 200ms; at most 1m. (default: 0s)", valueName: "duration"),
        transform: Self.parseDuration)
    var latency: TimeSpan?

    /// The share of card requests answered with 503.
    @Option(
        name: .customLong("fail-rate"),
        help: ArgumentHelp(
            "The share of card requests answered with 503, from 0 to 1 (0.1 = one in ten). (default: 0)",
            valueName: "share"))
    var failRate: Double?

    /// Whether the `/_admin` endpoints exist.
    @Flag(help: "Enable POST /_admin/expire?email=, POST /_admin/revoke?email= and GET /_admin/stats. (default: off)")
    var admin = false

    /// Rejects bad values before anything starts, with every problem named.
    func validate() throws {
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
        } else if FileManager.default.fileExists(atPath: Self.repositoryConfig) {
            configuration = try MockServerConfiguration.load(from: URL(fileURLWithPath: Self.repositoryConfig))
            source = Self.repositoryConfig
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
    static let repositoryConfig = "Config/mock-server.json"

    private static func parseDuration(_ text: String) throws -> TimeSpan {
        try TimeSpan(parsing: text)
    }
}
