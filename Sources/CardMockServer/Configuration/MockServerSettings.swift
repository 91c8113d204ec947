/// Where the mock server's settings come from, highest layer first: command-line options, the
/// `CARDWALLET_MOCK_*` environment variables, a config file, the defaults.
public struct MockServerSettingsSources: Sendable, Equatable {
    /// Values given on the command line as typed, e.g. `[.port: "0", .accessTokenTTL: "30s"]`.
    public var flags: [MockServerSettingKey: String]
    /// The process environment. `CARDWALLET_MOCK_*` variables set settings (an empty one
    /// counts as unset); `CARDWALLET_MOCK_CONFIG` names a config file.
    public var environment: [String: String]
    /// `--config`: the config file to read. It must exist.
    public var configFile: String?
    /// The file read when neither `--config` nor `CARDWALLET_MOCK_CONFIG` names one, if it
    /// exists (`cardwallet mock-server` uses `Config/mock-server.json`).
    public var defaultConfigFile: String?

    /// The environment variable naming a config file.
    public static let configFileVariable = "CARDWALLET_MOCK_CONFIG"

    /// Sources; every one is optional.
    public init(
        flags: [MockServerSettingKey: String] = [:], environment: [String: String] = [:], configFile: String? = nil,
        defaultConfigFile: String? = nil
    ) {
        self.flags = flags
        self.environment = environment
        self.configFile = configFile
        self.defaultConfigFile = defaultConfigFile
    }
}

/// Where a setting's value came from.
public enum MockServerSettingOrigin: Sendable, Hashable, CustomStringConvertible {
    /// A command-line option, e.g. `--port`.
    case flag(String)
    /// An environment variable, e.g. `CARDWALLET_MOCK_PORT`.
    case environment(String)
    /// A config file.
    case file(String)
    /// The built-in default.
    case defaults

    /// `--port`, `CARDWALLET_MOCK_PORT`, `Config/mock-server.json`, `built-in default`.
    public var description: String {
        switch self {
        case .flag(let name), .environment(let name), .file(let name): name
        case .defaults: "built-in default"
        }
    }

    /// Whether the value was given on the command line or in the environment (not a file, not
    /// a default): `cardwallet demo` keeps its own defaults unless one of those says otherwise.
    public var isExplicit: Bool {
        switch self {
        case .flag, .environment: true
        case .file, .defaults: false
        }
    }
}

/// A configuration with where each setting came from.
public struct ResolvedMockServerConfiguration: Sendable, Equatable {
    /// The configuration (not validated yet: see ``validate()``).
    public var configuration: MockServerConfiguration
    /// Where each setting came from; a key that is absent came from the defaults.
    public var origins: [MockServerSettingKey: MockServerSettingOrigin]
    /// The config file read, if any.
    public var configFile: String?
    /// Who named the config file: `--config`, `CARDWALLET_MOCK_CONFIG`, or the default location.
    public var configFileOrigin: MockServerSettingOrigin?
    /// Harmless problems worth telling the user, e.g. an unknown key in the config file.
    public var warnings: [String]

    /// Where `key`'s value came from.
    public func origin(of key: MockServerSettingKey) -> MockServerSettingOrigin { origins[key] ?? .defaults }

    /// Checks every value, naming where a bad one came from.
    /// - Throws: ``MockServerError/invalidConfiguration(_:)`` listing every problem at once.
    public func validate() throws(MockServerError) {
        let problems = configuration.problems().map { problem -> String in
            let name = problem.prefix { $0 != ":" }
            guard let key = MockServerSettingKey(rawValue: String(name)), origin(of: key) != .defaults else {
                return problem
            }
            return problem + " (from \(origin(of: key)))"
        }
        if !problems.isEmpty { throw .invalidConfiguration(problems) }
    }
}
