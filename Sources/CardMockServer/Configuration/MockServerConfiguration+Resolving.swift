import CardModels
import Configuration
import Foundation
import Synchronization

extension MockServerConfiguration {
    /// Resolves the configuration with swift-configuration, as the client resolves its own: a
    /// `ConfigReader` over the command-line values (an `InMemoryProvider`), the
    /// `CARDWALLET_MOCK_*` environment variables (an `EnvironmentVariablesProvider` behind the
    /// `cardwallet.mock` key prefix) and the config file; what none of them sets is the value
    /// in ``default``. Seed users and cards come from the file (or are the built-in demo data).
    ///
    /// ```swift
    /// let resolved = try MockServerConfiguration.resolve(
    ///     MockServerSettingsSources(flags: [.port: "0"], environment: ProcessInfo.processInfo.environment))
    /// try resolved.validate()
    /// print(resolved.configuration.port, resolved.origin(of: .port))   // 0 --port
    /// ```
    /// - Throws: ``MockServerError`` for a config file that cannot be used (a missing file
    ///   named by `--config` or `CARDWALLET_MOCK_CONFIG` included) or a value of the wrong type.
    public static func resolve(_ sources: MockServerSettingsSources) throws(MockServerError)
        -> ResolvedMockServerConfiguration
    {
        var flagValues: [AbsoluteConfigKey: ConfigValue] = [:]
        for (key, text) in sources.flags {
            flagValues[AbsoluteConfigKey(key.components)] = ConfigValue(content(text, for: key.kind), isSecret: false)
        }
        let variables = sources.environment.filter { $0.key.hasPrefix("CARDWALLET_MOCK_") && !$0.value.isEmpty }
        var providers: [any ConfigProvider] = [
            InMemoryProvider(name: "command line", values: flagValues),
            EnvironmentVariablesProvider(environmentVariables: variables)
                .prefixKeys(with: ConfigKey(MockServerSettingKey.environmentPrefix)),
        ]
        var origins: [(MockServerSettingKey) -> MockServerSettingOrigin] = [
            { .flag($0.flag ?? $0.key) },
            { .environment($0.environmentVariable) },
        ]
        let location = configFileLocation(sources)
        let file = try location.map { (location) throws(MockServerError) in
            try MockServerConfigFile.read(path: location.path)
        }
        if let file {
            providers.append(InMemoryProvider(name: file.path, values: file.values))
            origins.append { _ in .file(file.path) }
        }

        let recorder = LastAccessRecorder()
        var resolution = SettingResolution(
            reader: ConfigReader(providers: providers, accessReporter: recorder), recorder: recorder, origins: origins)
        var configuration = MockServerConfiguration.default
        try resolution.apply(to: &configuration)
        if let file {
            configuration.users = file.users ?? MockServerConfiguration.default.users
            if let cardsFile = file.cardsFile {
                let folder = URL(fileURLWithPath: file.path).deletingLastPathComponent()
                configuration.seedCards = try loadCards(from: URL(fileURLWithPath: cardsFile, relativeTo: folder))
            }
        }
        let warnings = (file?.unknownKeys ?? []).map { key in
            "ignoring the unknown key “\(TerminalText.escaped(key))” in the configuration file \(TerminalText.escaped(file?.path ?? ""))"
        }
        return ResolvedMockServerConfiguration(
            configuration: configuration, origins: resolution.found, configFile: file?.path,
            configFileOrigin: location?.origin, warnings: warnings)
    }

    /// `--config`, else `CARDWALLET_MOCK_CONFIG`, else the default file when it exists.
    private static func configFileLocation(_ sources: MockServerSettingsSources) -> (
        path: String, origin: MockServerSettingOrigin
    )? {
        if let path = sources.configFile { return (path, .flag("--config")) }
        let variable = MockServerSettingsSources.configFileVariable
        if let path = sources.environment[variable], !path.isEmpty { return (path, .environment(variable)) }
        if let path = sources.defaultConfigFile, FileManager.default.fileExists(atPath: path) {
            return (path, .defaults)
        }
        return nil
    }

    /// A command-line value as the reader should see it: of the key's type when it parses as
    /// one, else as text (and the reader reports the mismatch).
    private static func content(_ text: String, for kind: MockServerSettingKey.Kind) -> ConfigContent {
        switch kind {
        case .integer: Int(text).map(ConfigContent.int) ?? .string(text)
        case .share: Double(text).map(ConfigContent.double) ?? .string(text)
        case .boolean: Bool(text).map(ConfigContent.bool) ?? .string(text)
        case .text, .optionalPath, .duration: .string(text)
        }
    }
}

/// Reads one setting at a time and turns what the recorder saw into a value, an origin or an
/// error naming both.
private struct SettingResolution {
    let reader: ConfigReader
    let recorder: LastAccessRecorder
    let origins: [(MockServerSettingKey) -> MockServerSettingOrigin]
    var found: [MockServerSettingKey: MockServerSettingOrigin] = [:]

    mutating func apply(to configuration: inout MockServerConfiguration) throws(MockServerError) {
        for key in MockServerSettingKey.allCases {
            switch key.kind {
            case .text, .optionalPath, .duration:
                guard let (text, origin) = try read(key, { $0.string(forKey: $1) }) else { continue }
                try set(key, text: text, origin: origin, in: &configuration)
            case .integer:
                guard let (number, _) = try read(key, { $0.int(forKey: $1) }) else { continue }
                set(key, integer: number, in: &configuration)
            case .share:
                guard let (share, _) = try read(key, { $0.double(forKey: $1) }) else { continue }
                configuration.failRate = share
            case .boolean:
                guard let (flag, _) = try read(key, { $0.bool(forKey: $1) }) else { continue }
                configuration.admin = flag
            }
        }
    }

    private func set(
        _ key: MockServerSettingKey, text: String, origin: MockServerSettingOrigin,
        in configuration: inout MockServerConfiguration
    ) throws(MockServerError) {
        if key.kind == .duration {
            let span: TimeSpan
            do {
                span = try TimeSpan(parsing: text)
            } catch {
                throw .invalidSetting(key: key, origin: origin, problem: "must be a duration: \(error.description)")
            }
            switch key {
            case .accessTokenTTL: configuration.accessTokenTTL = span
            case .refreshTokenTTL: configuration.refreshTokenTTL = span
            default: configuration.latency = span
            }
        } else if key == .host {
            configuration.host = text
        } else {
            configuration.dataFile = text
        }
    }

    private func set(_ key: MockServerSettingKey, integer: Int, in configuration: inout MockServerConfiguration) {
        switch key {
        case .port: configuration.port = integer
        case .passwordHashCost: configuration.passwordHashCost = integer
        case .maxImageBytes: configuration.limits.maxImageBytes = integer
        case .maxJSONBytes: configuration.limits.maxJSONBytes = integer
        case .failedLoginsPerMinute: configuration.limits.failedLoginsPerMinute = integer
        default: configuration.limits.refreshesPerMinute = integer
        }
    }

    /// Reads `key` with `get`; `nil` when no layer sets it.
    private mutating func read<Value>(
        _ key: MockServerSettingKey, _ get: (ConfigReader, ConfigKey) -> Value?
    ) throws(MockServerError) -> (value: Value, origin: MockServerSettingOrigin)? {
        _ = recorder.take()
        let value = get(reader, ConfigKey(key.components))
        guard let event = recorder.take(), let index = event.providerResults.indices.last else { return nil }
        let origin = origins.indices.contains(index) ? origins[index](key) : .defaults
        switch event.providerResults[index].result {
        case .failure:
            throw .invalidSetting(key: key, origin: origin, problem: Self.expectation(for: key.kind))
        case .success(let lookup):
            guard lookup.value != nil else { return nil }
            guard event.conversionError == nil, let value else {
                throw .invalidSetting(key: key, origin: origin, problem: Self.expectation(for: key.kind))
            }
            found[key] = origin
            return (value, origin)
        }
    }

    static func expectation(for kind: MockServerSettingKey.Kind) -> String {
        switch kind {
        case .text: "must be text"
        case .optionalPath: "must be a path (or null for none)"
        case .integer: "must be a whole number"
        case .duration: "must be a duration: a number and a unit (ms, s, m, h, d), such as \"30s\" or \"5m\""
        case .share: "must be a number from 0 to 1, such as 0.1"
        case .boolean: "must be true or false"
        }
    }
}

/// Keeps the last `ConfigReader` access event: which provider answered, and why a value was
/// refused (swift-configuration's non-throwing getters fall back silently; the event does not).
private final class LastAccessRecorder: AccessReporter {
    private let last = Mutex<AccessEvent?>(nil)

    func report(_ event: AccessEvent) {
        last.withLock { $0 = event }
    }

    func take() -> AccessEvent? {
        last.withLock { event in
            defer { event = nil }
            return event
        }
    }
}
