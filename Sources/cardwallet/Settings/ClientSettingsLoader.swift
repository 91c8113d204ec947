import CardBackend
import CardImages
import CardMockServer
import CardModels
import CardWalletLive
import Configuration
import Foundation
import Logging

/// Resolves ``ClientSettings`` with swift-configuration: a `ConfigReader` over the command-line
/// values (an `InMemoryProvider`), the `CARDWALLET_*` environment variables (an
/// `EnvironmentVariablesProvider` behind the `cardwallet` key prefix) and the user's config file
/// (a `FileProvider<JSONSnapshot>`); what none of them sets comes from ``ClientSettings/defaults``.
///
/// ```swift
/// let resolved = try await ClientSettingsLoader.load(
///     overrides: ClientSettingsOverrides(server: "http://127.0.0.1:8080/v1"),
///     environment: ProcessInfo.processInfo.environment)
/// print(resolved.settings.server, resolved.origin(of: .server))   // … --server
/// ```
enum ClientSettingsLoader {
    /// Loads the settings.
    ///
    /// - Parameters:
    ///   - overrides: values from the command line (they win).
    ///   - environment: the process environment: `CARDWALLET_*`, `XDG_CONFIG_HOME`, `HOME`.
    ///     An empty `CARDWALLET_*` variable counts as unset.
    /// - Returns: the settings, each value's origin, the config file read and any warnings.
    /// - Throws: ``ClientSettingsError`` for a missing explicit config file, a file that is not a
    ///   JSON object, or a value of the wrong type or out of range (naming key and origin).
    static func load(
        overrides: ClientSettingsOverrides, environment: [String: String]
    ) async throws(ClientSettingsError) -> ResolvedClientSettings {
        var flagValues: [AbsoluteConfigKey: ConfigValue] = [:]
        if let server = overrides.server {
            flagValues[AbsoluteConfigKey(ClientSettingKey.server.components)] = ConfigValue(
                .string(server), isSecret: false)
        }
        if let level = overrides.logLevel {
            flagValues[AbsoluteConfigKey(ClientSettingKey.logLevel.components)] = ConfigValue(
                .string(level.rawValue), isSecret: false)
        }
        if let account = overrides.account {
            flagValues[AbsoluteConfigKey(ClientSettingKey.account.components)] = ConfigValue(
                .string(account), isSecret: false)
        }
        if let command = overrides.passwordCommand {
            flagValues[AbsoluteConfigKey(ClientSettingKey.passwordCommand.components)] = ConfigValue(
                .string(command), isSecret: false)
        }
        if let book = overrides.book {
            flagValues[AbsoluteConfigKey(ClientSettingKey.book.components)] = ConfigValue(
                .string(book), isSecret: false)
        }
        if let allow = overrides.allowInsecureHTTP {
            flagValues[AbsoluteConfigKey(ClientSettingKey.allowInsecureHTTP.components)] = ConfigValue(
                .bool(allow), isSecret: false)
        }
        let variables = environment.filter { $0.key.hasPrefix("CARDWALLET_") && !$0.value.isEmpty }

        var providers: [any ConfigProvider] = [
            InMemoryProvider(name: "command line", values: flagValues),
            EnvironmentVariablesProvider(environmentVariables: variables).prefixKeys(with: "cardwallet"),
        ]
        var origins: [(ClientSettingKey) -> SettingOrigin] = [
            { key in .flag(Self.flagName(of: key)) },
            { key in .environment(key.environmentVariable) },
        ]
        var warnings: [String] = []
        let location = ConfigFileLocation.resolve(flag: overrides.configFile, environment: environment)
        var configFile: String?
        if let location, let file = try await ConfigFileReader.provider(for: location, warnings: &warnings) {
            providers.append(file)
            origins.append { _ in .file(location.path) }
            configFile = location.path
        }

        let recorder = SettingsAccessRecorder()
        let reader = ConfigReader(providers: providers, accessReporter: recorder)
        var resolution = Resolution(reader: reader, recorder: recorder, origins: origins)
        let defaults = ClientSettings.defaults
        let tokenFile = try resolution.text(.tokenFile) ?? ""
        let book = try resolution.text(.book) ?? ""
        let account = try resolution.text(.account)?.trimmingCharacters(in: .whitespaces) ?? ""
        let passwordCommand = try resolution.text(.passwordCommand)?.trimmingCharacters(in: .whitespaces) ?? ""
        let server = try resolution.server()
        let oauth = ClientSettings.OAuthSettings(
            issuer: try resolution.nonEmptyText(.oauthIssuer),
            clientID: try resolution.nonEmptyText(.oauthClientID),
            clientSecret: try resolution.nonEmptyText(.oauthClientSecret),
            scope: try resolution.nonEmptyText(.oauthScope),
            redirectTimeout: try resolution.duration(.oauthRedirectTimeout, in: ClientSettings.Limits.redirectTimeout)
                ?? defaults.oauth.redirectTimeout)
        var settings = ClientSettings(
            server: server ?? defaults.server,
            tokenFile: tokenFile.isEmpty ? nil : tokenFile,
            connectTimeout: try resolution.duration(.connectTimeout, in: ClientSettings.Limits.connectTimeout)
                ?? defaults.connectTimeout,
            requestTimeout: try resolution.duration(.requestTimeout, in: ClientSettings.Limits.requestTimeout)
                ?? defaults.requestTimeout,
            refreshMargin: try resolution.duration(.refreshMargin, in: ClientSettings.Limits.refreshMargin)
                ?? defaults.refreshMargin,
            logLevel: try resolution.logLevel() ?? defaults.logLevel,
            logFile: try resolution.boolean(.logFile) ?? defaults.logFile,
            logMaxBytes: try resolution.integer(.logMaxBytes, in: ClientSettings.Limits.logMaxBytes)
                ?? defaults.logMaxBytes,
            logBodyPreviewBytes: try resolution.integer(
                .logBodyPreviewBytes, in: ClientSettings.Limits.logBodyPreviewBytes) ?? defaults.logBodyPreviewBytes,
            pageSize: try resolution.integer(.pageSize, in: ClientSettings.Limits.pageSize) ?? defaults.pageSize,
            authTimeout: try resolution.duration(.authTimeout, in: ClientSettings.Limits.authTimeout)
                ?? defaults.authTimeout,
            allowInsecureHTTP: try resolution.boolean(.allowInsecureHTTP) ?? defaults.allowInsecureHTTP,
            images: try resolution.images() ?? defaults.images, book: book.isEmpty ? nil : book,
            account: account.isEmpty ? nil : account, passwordCommand: passwordCommand.isEmpty ? nil : passwordCommand,
            serverIsDefault: server == nil, oauth: oauth)
        settings.syncInterval =
            try resolution.integer(.syncInterval, in: ClientSettings.Limits.syncInterval) ?? defaults.syncInterval
        if settings.allowInsecureHTTP,
            let url = try? ServerAddress.url(settings.server, allowingInsecureHTTP: true), ServerAddress.isInsecure(url)
        {
            // As git and browsers do: allowed, but never silently.
            let origin = resolution.found[.allowInsecureHTTP]?.description ?? "the settings"
            warnings.append(
                "your password and tokens go to \(TerminalText.escaped(url.absoluteString)) unencrypted (plain http:// "
                    + "to another computer, allowed by \(TerminalText.escaped(origin))): anyone on the network "
                    + "between can read them and use your session.")
        }
        return ResolvedClientSettings(
            settings: settings, origins: resolution.found, configFile: configFile, warnings: warnings)
    }
}

extension ClientSettingsLoader {
    /// The command-line option that sets `key`.
    static func flagName(of key: ClientSettingKey) -> String {
        switch key {
        case .server: "--server"
        case .logLevel: "--log-level"
        case .allowInsecureHTTP: "--allow-insecure-http"
        case .passwordCommand: "--password-command"
        case .oauthClientID: "--client-id"
        case .oauthClientSecret: "--client-secret"
        case .oauthScope: "--scope"
        default: "--" + key.key
        }
    }
}

/// Reads one key at a time and turns what the recorder saw into a value, an origin or an error.
private struct Resolution {
    let reader: ConfigReader
    let recorder: SettingsAccessRecorder
    let origins: [(ClientSettingKey) -> SettingOrigin]
    var found: [ClientSettingKey: SettingOrigin] = [:]

    /// Reads `key` with `get`; `nil` when no layer sets it.
    mutating func read<Value>(
        _ key: ClientSettingKey, _ get: (ConfigReader, ConfigKey) -> Value?
    ) throws(ClientSettingsError) -> (value: Value, origin: SettingOrigin)? {
        _ = recorder.take()
        let value = get(reader, ConfigKey(key.components))
        switch SettingLookup(recorder.take()) {
        case .absent:
            return nil
        case .unusable(let index):
            throw .invalidValue(key: key, origin: origin(index, key), problem: Self.expectation(for: key.kind))
        case .found(let index):
            guard let value else { return nil }
            let origin = origin(index, key)
            found[key] = origin
            return (value, origin)
        }
    }

    private func origin(_ index: Int, _ key: ClientSettingKey) -> SettingOrigin {
        origins.indices.contains(index) ? origins[index](key) : .defaults
    }

    mutating func text(_ key: ClientSettingKey) throws(ClientSettingsError) -> String? {
        try read(key) { $0.string(forKey: $1) }?.value
    }

    /// The text of `key` without surrounding spaces, `nil` when unset or empty.
    mutating func nonEmptyText(_ key: ClientSettingKey) throws(ClientSettingsError) -> String? {
        let text = try text(key)?.trimmingCharacters(in: .whitespaces) ?? ""
        return text.isEmpty ? nil : text
    }

    /// The server, or `nil` when no layer sets it — or the config file sets it to `""`, as
    /// `Config/cardwallet.json` does: the default account's server is used then.
    mutating func server() throws(ClientSettingsError) -> String? {
        guard let (value, origin) = try read(.server, { $0.string(forKey: $1) }) else { return nil }
        if value.trimmingCharacters(in: .whitespaces).isEmpty {
            if case .file = origin { return nil }
            throw .invalidValue(
                key: .server, origin: origin, problem: "is empty; give a URL such as http://127.0.0.1:8080/v1")
        }
        return value
    }

    mutating func duration(
        _ key: ClientSettingKey, in range: ClosedRange<Duration>
    ) throws(ClientSettingsError) -> Duration? {
        guard let (text, origin) = try read(key, { $0.string(forKey: $1) }) else { return nil }
        let duration: Duration
        do {
            duration = try TimeSpan(parsing: text).duration
        } catch {
            throw .invalidValue(key: key, origin: origin, problem: Self.expectation(for: .duration))
        }
        guard range.contains(duration) else {
            throw .invalidValue(
                key: key, origin: origin,
                problem: "must be from \(Self.text(range.lowerBound)) to \(Self.text(range.upperBound)), not \(text)")
        }
        return duration
    }

    mutating func integer(_ key: ClientSettingKey, in range: ClosedRange<Int>) throws(ClientSettingsError) -> Int? {
        guard let (value, origin) = try read(key, { $0.int(forKey: $1) }) else { return nil }
        guard range.contains(value) else {
            throw .invalidValue(
                key: key, origin: origin,
                problem: "must be from \(range.lowerBound) to \(range.upperBound), not \(value)")
        }
        return value
    }

    mutating func boolean(_ key: ClientSettingKey) throws(ClientSettingsError) -> Bool? {
        try read(key) { $0.bool(forKey: $1) }?.value
    }

    /// `ui.images`: a picture protocol or `auto`, as `CARDWALLET_IMAGES` takes them.
    mutating func images() throws(ClientSettingsError) -> String? {
        guard let (text, origin) = try read(.images, { $0.string(forKey: $1) }) else { return nil }
        guard case .some = ImageSetting.parse(text) else {
            throw .invalidValue(key: .images, origin: origin, problem: "must be one of \(ImageSetting.names)")
        }
        return text.trimmingCharacters(in: .whitespaces).lowercased()
    }

    mutating func logLevel() throws(ClientSettingsError) -> Logger.Level? {
        guard let (text, origin) = try read(.logLevel, { $0.string(forKey: $1) }) else { return nil }
        guard let level = Logger.Level(rawValue: text.lowercased()) else {
            throw .invalidValue(key: .logLevel, origin: origin, problem: Self.expectation(for: .logLevel))
        }
        return level
    }

    static func expectation(for kind: ClientSettingKey.Kind) -> String {
        switch kind {
        case .text: "must be text"
        case .duration: "must be a duration: a number and a unit (ms, s, m, h), such as \"10s\" or \"1m30s\""
        case .integer: "must be a whole number"
        case .boolean: "must be true or false"
        case .logLevel: "must be one of trace, debug, info, notice, warning, error, critical"
        }
    }

    static func text(_ duration: Duration) -> String {
        TimeSpan(
            milliseconds: Int64(
                duration.components.seconds * 1000
                    + duration.components.attoseconds / 1_000_000_000_000_000)
        ).description
    }
}
