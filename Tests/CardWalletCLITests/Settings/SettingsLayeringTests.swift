import CardWalletLive
import Foundation
import Logging
import TestSupport
import Testing

@testable import cardwallet

/// flag > environment > user file > defaults, for every key, and the errors for bad values.
@Suite struct SettingsLayeringTests {
    /// An environment with a private HOME and XDG_CONFIG_HOME (no real user file is read).
    func environment(_ folder: TemporaryFolder, _ extra: [String: String] = [:]) -> [String: String] {
        ["HOME": folder.path("home"), "XDG_CONFIG_HOME": folder.path("config")].merging(extra) { $1 }
    }

    func load(
        _ folder: TemporaryFolder, overrides: ClientSettingsOverrides = ClientSettingsOverrides(),
        _ extra: [String: String] = [:]
    ) async throws -> ResolvedClientSettings {
        try await ClientSettingsLoader.load(overrides: overrides, environment: environment(folder, extra))
    }

    @Test func withNothingSetEverySettingIsTheDefault() async throws {
        let folder = try TemporaryFolder("cli")
        defer { folder.remove() }
        let resolved = try await load(folder)
        #expect(resolved.settings == ClientSettings.defaults)
        #expect(resolved.origins.isEmpty)
        #expect(resolved.configFile == nil)
        #expect(resolved.warnings.isEmpty)
    }

    @Test func flagBeatsEnvironmentBeatsUserFileBeatsDefaults() async throws {
        let folder = try TemporaryFolder("cli")
        defer { folder.remove() }
        let file = try folder.write(
            """
            {"server": "http://file.example/v1", "log": {"level": "info", "maxBytes": 8192},
             "timeouts": {"connect": "3s"}, "ui": {"pageSize": 25}}
            """, to: "config/cardwallet/config.json")
        let env = [
            "CARDWALLET_SERVER": "http://env.example/v1", "CARDWALLET_LOG_LEVEL": "debug",
            "CARDWALLET_TIMEOUTS_CONNECT": "2s",
        ]

        let fileOnly = try await load(folder)
        #expect(fileOnly.settings.server == "http://file.example/v1")
        #expect(fileOnly.settings.logLevel == .info)
        #expect(fileOnly.settings.pageSize == 25)
        #expect(fileOnly.settings.requestTimeout == ClientSettings.defaults.requestTimeout)
        #expect(fileOnly.origin(of: .server) == .file(file))
        #expect(fileOnly.origin(of: .requestTimeout) == .defaults)
        #expect(fileOnly.configFile == file)

        let withEnvironment = try await load(folder, env)
        #expect(withEnvironment.settings.server == "http://env.example/v1")
        #expect(withEnvironment.settings.logLevel == .debug)
        #expect(withEnvironment.settings.connectTimeout == .seconds(2))
        #expect(withEnvironment.settings.logMaxBytes == 8192)
        #expect(withEnvironment.origin(of: .server) == .environment("CARDWALLET_SERVER"))
        #expect(withEnvironment.origin(of: .logMaxBytes) == .file(file))

        let withFlags = try await load(
            folder, overrides: ClientSettingsOverrides(server: "http://flag.example/v1", logLevel: .trace), env)
        #expect(withFlags.settings.server == "http://flag.example/v1")
        #expect(withFlags.settings.logLevel == .trace)
        #expect(withFlags.settings.connectTimeout == .seconds(2))
        #expect(withFlags.origin(of: .server) == .flag("--server"))
        #expect(withFlags.origin(of: .logLevel) == .flag("--log-level"))
    }

    @Test func everyKeyCanBeSetFromTheEnvironment() async throws {
        let folder = try TemporaryFolder("cli")
        defer { folder.remove() }
        let env = [
            "CARDWALLET_SERVER": "https://cards.example/v1", "CARDWALLET_TOKEN_FILE": "/tmp/t.json",
            "CARDWALLET_TIMEOUTS_CONNECT": "1500ms", "CARDWALLET_TIMEOUTS_REQUEST": "2m",
            "CARDWALLET_SESSION_REFRESH_MARGIN": "0", "CARDWALLET_LOG_LEVEL": "WARNING",
            "CARDWALLET_LOG_FILE": "no", "CARDWALLET_LOG_MAX_BYTES": "65536",
            "CARDWALLET_LOG_BODY_PREVIEW_BYTES": "0", "CARDWALLET_UI_PAGE_SIZE": "200",
            "CARDWALLET_TIMEOUTS_AUTH": "5s", "CARDWALLET_ALLOW_INSECURE_HTTP": "true",
            "CARDWALLET_UI_IMAGES": " Sixel", "CARDWALLET_BOOK": "work", "CARDWALLET_ACCOUNT": "work account",
            "CARDWALLET_PASSWORD_COMMAND": "pass show dav/alice", "CARDWALLET_SYNC_INTERVAL": "15",
            "CARDWALLET_OAUTH_ISSUER": "google",
            "CARDWALLET_OAUTH_CLIENT_ID": "id-1", "CARDWALLET_OAUTH_CLIENT_SECRET": "s-1",
            "CARDWALLET_OAUTH_SCOPE": "openid email", "CARDWALLET_OAUTH_REDIRECT_TIMEOUT": "90s",
        ]
        #expect(Set(env.keys) == Set(ClientSettingKey.allCases.map(\.environmentVariable)))
        let settings = try await load(folder, env).settings
        var expected = ClientSettings(
            server: "https://cards.example/v1", tokenFile: "/tmp/t.json", connectTimeout: .milliseconds(1500),
            requestTimeout: .seconds(120), refreshMargin: .zero, logLevel: .warning, logFile: false,
            logMaxBytes: 65536, logBodyPreviewBytes: 0, pageSize: 200, authTimeout: .seconds(5),
            allowInsecureHTTP: true, images: "sixel", book: "work", account: "work account",
            passwordCommand: "pass show dav/alice", serverIsDefault: false,
            oauth: ClientSettings.OAuthSettings(
                issuer: "google", clientID: "id-1", clientSecret: "s-1", scope: "openid email",
                redirectTimeout: .seconds(90)))
        expected.syncInterval = 15
        #expect(settings == expected)
    }

    @Test func anUnknownPictureProtocolNamesTheKeyAndTheChoices() async throws {
        let folder = try TemporaryFolder("cli")
        defer { folder.remove() }
        await #expect {
            try await load(folder, ["CARDWALLET_UI_IMAGES": "gif"])
        } throws: { error in
            "\(error)"
                == "The setting ui.images (from CARDWALLET_UI_IMAGES) must be one of auto, kitty, iterm, sixel, blocks, off."
        }
    }

    @Test func anEmptyVariableCountsAsUnset() async throws {
        let folder = try TemporaryFolder("cli")
        defer { folder.remove() }
        try folder.write(#"{"server": "http://file.example/v1"}"#, to: "config/cardwallet/config.json")
        let resolved = try await load(folder, ["CARDWALLET_SERVER": "", "CARDWALLET_TOKEN_FILE": ""])
        #expect(resolved.settings.server == "http://file.example/v1")
        #expect(resolved.settings.tokenFile == nil)
    }

    @Test func configFileComesFromTheFlagThenTheVariableThenXDGThenHome() async throws {
        let folder = try TemporaryFolder("cli")
        defer { folder.remove() }
        let flagFile = try folder.write(#"{"ui": {"pageSize": 1}}"#, to: "flag.json")
        let envFile = try folder.write(#"{"ui": {"pageSize": 2}}"#, to: "env.json")
        try folder.write(#"{"ui": {"pageSize": 3}}"#, to: "config/cardwallet/config.json")
        try folder.write(#"{"ui": {"pageSize": 4}}"#, to: "home/.config/cardwallet/config.json")
        let both = ["CARDWALLET_CONFIG": envFile]
        #expect(try await load(folder, overrides: .init(configFile: flagFile), both).settings.pageSize == 1)
        #expect(try await load(folder, both).settings.pageSize == 2)
        #expect(try await load(folder).settings.pageSize == 3)
        let noXDG = try await ClientSettingsLoader.load(
            overrides: ClientSettingsOverrides(), environment: ["HOME": folder.path("home")])
        #expect(noXDG.settings.pageSize == 4)
        let relativeXDG = try await ClientSettingsLoader.load(
            overrides: ClientSettingsOverrides(), environment: ["HOME": folder.path("home"), "XDG_CONFIG_HOME": "cfg"])
        #expect(relativeXDG.settings.pageSize == 4)
    }

    @Test func anExplicitConfigFileMustExistButTheDefaultOneNeedNot() async throws {
        let folder = try TemporaryFolder("cli")
        defer { folder.remove() }
        let missing = folder.path("nope.json")
        await #expect(throws: ClientSettingsError.configFileMissing(path: missing, origin: .flag("--config"))) {
            try await load(folder, overrides: .init(configFile: missing))
        }
        await #expect(
            throws: ClientSettingsError.configFileMissing(path: missing, origin: .environment("CARDWALLET_CONFIG"))
        ) {
            try await load(folder, ["CARDWALLET_CONFIG": missing])
        }
        #expect(try await load(folder).settings == .defaults)
    }

    @Test(arguments: [
        ("[1, 2]", "its top level is not a JSON object"),
        ("{\"server\": ", "it is not valid JSON"),
        ("{\"ui\": {\"pageSize\": [1, \"x\"]}}", "a value is of an unsupported kind"),
    ])
    func aBrokenConfigFileIsRefusedWithItsPath(text: String, problem: String) async throws {
        let folder = try TemporaryFolder("cli")
        defer { folder.remove() }
        let file = try folder.write(text, to: "config/cardwallet/config.json")
        await #expect(throws: ClientSettingsError.configFileUnreadable(path: file, problem: problem)) {
            try await load(folder)
        }
    }

    @Test func aNullValueInTheFileMeansTheDefault() async throws {
        let folder = try TemporaryFolder("cli")
        defer { folder.remove() }
        try folder.write(#"{"server": null, "ui": {"pageSize": 7}}"#, to: "config/cardwallet/config.json")
        let resolved = try await load(folder)
        #expect(resolved.settings.server == ClientSettings.defaults.server)
        #expect(resolved.settings.pageSize == 7)
    }

    @Test func unknownKeysInTheFileAreReportedAsWarnings() async throws {
        let folder = try TemporaryFolder("cli")
        defer { folder.remove() }
        try folder.write(
            #"{"sever": "x", "log": {"level": "info", "colour": true}, "ui": 3}"#, to: "config/cardwallet/config.json")
        let resolved = try await load(folder)
        #expect(resolved.settings.logLevel == .info)
        #expect(resolved.warnings.count == 3)
        #expect(resolved.warnings.contains { $0.contains("\"sever\"") })
        #expect(resolved.warnings.contains { $0.contains("\"log.colour\"") })
        #expect(resolved.warnings.contains { $0.contains("\"ui\"") })
    }
}
