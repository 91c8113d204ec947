import CardModels

/// One setting of the mock server: its key in `mock-server.json` (dotted for nested objects),
/// its environment variable, its command-line flag if it has one, and its kind.
///
/// Every setting is read through one swift-configuration `ConfigReader`: flag, then
/// environment, then config file, then the default, which is the value in
/// ``MockServerConfiguration/default`` — defined once, in ``MockServerConfiguration``'s
/// initializer. `--help`, `Config/README.md` and `Config/mock-server.json` show that value
/// (tests compare them).
public enum MockServerSettingKey: String, CaseIterable, Sendable, Hashable {
    case host
    case port
    case accessTokenTTL
    case refreshTokenTTL
    case latency
    case failRate
    case admin
    case dataFile
    case passwordHashCost
    case maxImageBytes = "limits.maxImageBytes"
    case maxJSONBytes = "limits.maxJSONBytes"
    case failedLoginsPerMinute = "limits.failedLoginsPerMinute"
    case refreshesPerMinute = "limits.refreshesPerMinute"

    /// The kinds of value a setting holds.
    public enum Kind: Sendable {
        /// Text (an address).
        case text
        /// A path, or `null` for none.
        case optionalPath
        /// A whole number.
        case integer
        /// A duration as text: a number and a unit (`ms`, `s`, `m`, `h`, `d`).
        case duration
        /// A number from 0 to 1.
        case share
        /// `true` or `false`.
        case boolean
    }

    /// The dotted key, e.g. `limits.maxImageBytes`.
    public var key: String { rawValue }

    /// The key's path in a config file, e.g. `["limits", "maxImageBytes"]`.
    public var components: [String] { rawValue.split(separator: ".").map(String.init) }

    /// The key prefix of the environment variables: `CARDWALLET_MOCK_`.
    public static let environmentPrefix = ["cardwallet", "mock"]

    /// The environment variable that sets this key, e.g. `CARDWALLET_MOCK_ACCESS_TOKEN_TTL`
    /// (swift-configuration's naming: capitals, with `_` for dots and camel-case humps).
    public var environmentVariable: String {
        // The keys are ASCII identifiers: bytes, not Characters (this runs for every key each
        // time `cardwallet` starts, to build `mock-server --help`'s table).
        var name: [UInt8] = []
        for (position, component) in (Self.environmentPrefix + components).enumerated() {
            if position > 0 { name.append(UInt8(ascii: "_")) }
            var previousIsLowercase = false
            for byte in component.utf8 {
                let isLowercase = (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte)
                let isUppercase = (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(byte)
                if previousIsLowercase, isUppercase { name.append(UInt8(ascii: "_")) }
                name.append(isLowercase ? byte - 0x20 : byte)
                previousIsLowercase = isLowercase
            }
        }
        return String(decoding: name, as: UTF8.self)
    }

    /// The command-line option that sets it, if any.
    public var flag: String? {
        switch self {
        case .host: "--host"
        case .port: "--port"
        case .accessTokenTTL: "--access-ttl"
        case .refreshTokenTTL: "--refresh-ttl"
        case .latency: "--latency"
        case .failRate: "--fail-rate"
        case .admin: "--admin"
        case .dataFile: "--data"
        case .passwordHashCost, .maxImageBytes, .maxJSONBytes, .failedLoginsPerMinute, .refreshesPerMinute: nil
        }
    }

    /// What the value is.
    public var kind: Kind {
        switch self {
        case .host: .text
        case .dataFile: .optionalPath
        case .port, .passwordHashCost, .maxImageBytes, .maxJSONBytes, .failedLoginsPerMinute, .refreshesPerMinute:
            .integer
        case .accessTokenTTL, .refreshTokenTTL, .latency: .duration
        case .failRate: .share
        case .admin: .boolean
        }
    }

    /// The key's value in `configuration` as JSON, the way `mock-server.json` and
    /// `Config/README.md` write it: `"127.0.0.1"`, `8080`, `"5m"`, `0`, `false`, `null`.
    public func jsonText(in configuration: MockServerConfiguration) -> String {
        switch value(in: configuration) {
        case .text(let text): "\"\(text)\""
        case .none: "null"
        case .number(let number): number
        case .boolean(let flag): "\(flag)"
        }
    }

    /// The key's value in `configuration` as `--help` shows it: `127.0.0.1`, `8080`, `5m`,
    /// `0`, `off`, `in memory only`.
    public func helpText(in configuration: MockServerConfiguration) -> String {
        switch value(in: configuration) {
        case .text(let text): text
        case .none: "in memory only"
        case .number(let number): number
        case .boolean(let flag): flag ? "on" : "off"
        }
    }

    private enum Shown {
        case text(String)
        case none
        case number(String)
        case boolean(Bool)
    }

    private func value(in configuration: MockServerConfiguration) -> Shown {
        let limits = configuration.limits
        switch self {
        case .host: return .text(configuration.host)
        case .port: return .number("\(configuration.port)")
        case .accessTokenTTL: return .text(configuration.accessTokenTTL.description)
        case .refreshTokenTTL: return .text(configuration.refreshTokenTTL.description)
        case .latency: return .text(configuration.latency.description)
        case .failRate:
            let share = configuration.failRate
            return .number(share == share.rounded() && abs(share) < 1e15 ? "\(Int(share))" : "\(share)")
        case .admin: return .boolean(configuration.admin)
        case .dataFile: return configuration.dataFile.map { .text($0) } ?? .none
        case .passwordHashCost: return .number("\(configuration.passwordHashCost)")
        case .maxImageBytes: return .number("\(limits.maxImageBytes)")
        case .maxJSONBytes: return .number("\(limits.maxJSONBytes)")
        case .failedLoginsPerMinute: return .number("\(limits.failedLoginsPerMinute)")
        case .refreshesPerMinute: return .number("\(limits.refreshesPerMinute)")
        }
    }
}
