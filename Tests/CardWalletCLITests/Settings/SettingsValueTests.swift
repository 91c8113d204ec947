import CardWalletLive
import Foundation
import TestSupport
import Testing

@testable import cardwallet

/// Bad values stop with a message naming the key and its origin; the defaults equal the file.
@Suite struct SettingsValueTests {
    func load(_ folder: TemporaryFolder, _ env: [String: String]) async throws -> ResolvedClientSettings {
        try await ClientSettingsLoader.load(
            overrides: ClientSettingsOverrides(),
            environment: ["HOME": folder.path("home"), "XDG_CONFIG_HOME": folder.path("config")].merging(env) { $1 })
    }

    @Test(arguments: [
        ("CARDWALLET_TIMEOUTS_CONNECT", "soon", ClientSettingKey.connectTimeout, "must be a duration"),
        ("CARDWALLET_TIMEOUTS_CONNECT", "1h", .connectTimeout, "must be from 100ms to 10m, not 1h"),
        ("CARDWALLET_TIMEOUTS_REQUEST", "0", .requestTimeout, "must be from 1s to 1h, not 0"),
        ("CARDWALLET_LOG_MAX_BYTES", "lots", .logMaxBytes, "must be a whole number"),
        ("CARDWALLET_UI_PAGE_SIZE", "500", .pageSize, "must be from 1 to 200, not 500"),
        ("CARDWALLET_LOG_FILE", "maybe", .logFile, "must be true or false"),
        ("CARDWALLET_LOG_LEVEL", "loud", .logLevel, "must be one of trace, debug"),
        ("CARDWALLET_SERVER", "   ", .server, "is empty"),
        // The refresh must end before other processes give up on the token file's lock (30 s).
        ("CARDWALLET_TIMEOUTS_AUTH", "30s", .authTimeout, "must be from 1s to 25s, not 30s"),
        ("CARDWALLET_ALLOW_INSECURE_HTTP", "perhaps", .allowInsecureHTTP, "must be true or false"),
    ])
    func aBadEnvironmentValueNamesTheVariable(
        variable: String, value: String, key: ClientSettingKey, problem: String
    ) async throws {
        let folder = try TemporaryFolder("cli")
        defer { folder.remove() }
        do {
            _ = try await load(folder, [variable: value])
            Issue.record("\(variable)=\(value) was accepted")
        } catch let error as ClientSettingsError {
            guard case .invalidValue(let badKey, let origin, let text) = error else {
                Issue.record("unexpected error \(error)")
                return
            }
            #expect(badKey == key)
            #expect(origin == .environment(variable))
            #expect(text.contains(problem))
            #expect(error.description.contains(variable))
            #expect(error.description.contains(key.key))
        }
    }

    @Test func aWrongTypeInTheFileNamesTheFileAndKey() async throws {
        let folder = try TemporaryFolder("cli")
        defer { folder.remove() }
        let file = try folder.write(#"{"timeouts": {"connect": 10}}"#, to: "config/cardwallet/config.json")
        await #expect(
            throws: ClientSettingsError.invalidValue(
                key: .connectTimeout, origin: .file(file),
                problem: "must be a duration: a number and a unit (ms, s, m, h), such as \"10s\" or \"1m30s\"")
        ) {
            try await load(folder, [:])
        }
        let description = ClientSettingsError.invalidValue(key: .connectTimeout, origin: .file(file), problem: "x")
            .description
        #expect(description == "The setting timeouts.connect in \(file) x.")
    }

    @Test func aBadValueInALowerLayerIsNotReadWhenAHigherLayerSetsTheKey() async throws {
        let folder = try TemporaryFolder("cli")
        defer { folder.remove() }
        try folder.write(#"{"ui": {"pageSize": "many"}}"#, to: "config/cardwallet/config.json")
        #expect(try await load(folder, ["CARDWALLET_UI_PAGE_SIZE": "20"]).settings.pageSize == 20)
    }

    /// `--allow-insecure-http` and its variable and key reach the settings; plain http to
    /// another computer is then allowed with a warning naming where the permission came from.
    @Test func allowingInsecureHTTPWarnsAndSaysWhereItCameFrom() async throws {
        let folder = try TemporaryFolder("cli")
        defer { folder.remove() }
        let remote = ["CARDWALLET_SERVER": "http://192.0.2.7/v1"]
        #expect(try await load(folder, remote).settings.allowInsecureHTTP == false)
        #expect(try await load(folder, remote).warnings.isEmpty)
        let allowed = try await load(folder, remote.merging(["CARDWALLET_ALLOW_INSECURE_HTTP": "true"]) { $1 })
        #expect(allowed.settings.allowInsecureHTTP)
        #expect(allowed.warnings.count == 1)
        #expect(allowed.warnings.first?.contains("unencrypted") == true)
        #expect(allowed.warnings.first?.contains("CARDWALLET_ALLOW_INSECURE_HTTP") == true)
        let flag = try await ClientSettingsLoader.load(
            overrides: ClientSettingsOverrides(allowInsecureHTTP: true),
            environment: ["HOME": folder.path("home"), "CARDWALLET_SERVER": "http://192.0.2.7/v1"])
        #expect(flag.origin(of: .allowInsecureHTTP) == .flag("--allow-insecure-http"))
        #expect(flag.warnings.first?.contains("--allow-insecure-http") == true)
        // Loopback and https need no permission and get no warning.
        let local = try await load(
            folder, ["CARDWALLET_SERVER": "http://localhost:1/v1", "CARDWALLET_ALLOW_INSECURE_HTTP": "true"])
        #expect(local.warnings.isEmpty)
    }

    @Test func environmentVariableNamesFollowSwiftConfiguration() {
        #expect(ClientSettingKey.server.environmentVariable == "CARDWALLET_SERVER")
        #expect(ClientSettingKey.tokenFile.environmentVariable == "CARDWALLET_TOKEN_FILE")
        #expect(ClientSettingKey.refreshMargin.environmentVariable == "CARDWALLET_SESSION_REFRESH_MARGIN")
        #expect(ClientSettingKey.logBodyPreviewBytes.environmentVariable == "CARDWALLET_LOG_BODY_PREVIEW_BYTES")
    }

    /// The compiled-in defaults and `Config/cardwallet.json` hold the same keys and values.
    @Test func compiledDefaultsEqualTheRepositoryFile() async throws {
        let url = Repository.file("Config/cardwallet.json")
        let data = try Data(contentsOf: url)
        let object = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
        #expect(ConfigFileReader.unknownKeys(in: object).isEmpty)
        #expect(Set(Self.leafKeys(object)) == Set(ClientSettingKey.allCases.map(\.key)))

        let folder = try TemporaryFolder("cli")
        defer { folder.remove() }
        let resolved = try await ClientSettingsLoader.load(
            overrides: ClientSettingsOverrides(configFile: url.path), environment: ["HOME": folder.path("home")])
        #expect(resolved.settings == ClientSettings.defaults)
        // Every key came from the file, so the comparison is not the defaults against themselves.
        #expect(Set(resolved.origins.keys) == Set(ClientSettingKey.allCases))
        #expect(resolved.origins.values.allSatisfy { $0 == .file(url.path) })
        #expect(resolved.warnings.isEmpty)
    }

    static func leafKeys(_ object: [String: Any], prefix: String = "") -> [String] {
        object.flatMap { name, value -> [String] in
            let key = prefix.isEmpty ? name : prefix + "." + name
            if let nested = value as? [String: Any] { return leafKeys(nested, prefix: key) }
            return [key]
        }
    }
}
