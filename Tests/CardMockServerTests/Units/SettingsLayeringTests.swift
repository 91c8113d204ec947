import CardModels
import Foundation
import Testing

@testable import CardMockServer

/// Option > `CARDWALLET_MOCK_*` environment > config file > default, for every setting, and the
/// errors for bad values.
@Suite struct MockServerSettingsLayeringTests {
    /// A value of `key`'s kind, different for each `layer` (0 file, 1 environment, 2 option), as
    /// typed on a command line or in the environment.
    static func text(_ key: MockServerSettingKey, layer: Int) -> String {
        switch key.kind {
        case .text: "10.0.0.\(layer + 1)"
        case .optionalPath: "/tmp/layer-\(layer).db"
        case .integer: "\(key == .passwordHashCost ? 5 + layer : 1100 + layer)"
        case .duration: "\(layer + 2)s"
        case .share: "0.\(layer + 1)"
        case .boolean: layer == 1 ? "false" : "true"
        }
    }

    /// The same value as JSON, for a config file.
    static func json(_ key: MockServerSettingKey, layer: Int) -> String {
        switch key.kind {
        case .text, .optionalPath, .duration: "\"\(text(key, layer: layer))\""
        case .integer, .share, .boolean: text(key, layer: layer)
        }
    }

    /// A config file setting `keys` to their layer-0 values.
    static func file(_ keys: [MockServerSettingKey], in folder: URL) throws -> String {
        var top: [String] = []
        var limits: [String] = []
        for key in keys {
            let components = key.components
            let entry = "\"\(components.last ?? "")\": \(json(key, layer: 0))"
            if components.count == 2 { limits.append(entry) } else { top.append(entry) }
        }
        if !limits.isEmpty { top.append("\"limits\": {\(limits.joined(separator: ", "))}") }
        let path = folder.appendingPathComponent("server-\(UUID().uuidString.prefix(6)).json").path
        try Data("{\(top.joined(separator: ", "))}".utf8).write(to: URL(fileURLWithPath: path))
        return path
    }

    @Test func withNothingSetEverySettingIsTheDefault() throws {
        let resolved = try MockServerConfiguration.resolve(MockServerSettingsSources(environment: ["HOME": "/nowhere"]))
        #expect(resolved.configuration == .default)
        #expect(resolved.origins.isEmpty)
        #expect(resolved.configFile == nil && resolved.warnings.isEmpty)
    }

    @Test(arguments: MockServerSettingKey.allCases)
    func optionBeatsEnvironmentBeatsFileBeatsDefault(key: MockServerSettingKey) throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = try Self.file([key], in: folder)
        let environment = [key.environmentVariable: Self.text(key, layer: 1)]
        func value(_ sources: MockServerSettingsSources) throws -> (String, MockServerSettingOrigin) {
            let resolved = try MockServerConfiguration.resolve(sources)
            return (key.jsonText(in: resolved.configuration), resolved.origin(of: key))
        }

        #expect(try value(MockServerSettingsSources()) == (key.jsonText(in: .default), .defaults))
        #expect(try value(MockServerSettingsSources(configFile: path)) == (Self.json(key, layer: 0), .file(path)))
        #expect(
            try value(MockServerSettingsSources(environment: environment, configFile: path))
                == (Self.json(key, layer: 1), .environment(key.environmentVariable)))
        guard let flag = key.flag else { return }
        let flags = [key: Self.text(key, layer: 2)]
        #expect(
            try value(MockServerSettingsSources(flags: flags, environment: environment, configFile: path))
                == (Self.json(key, layer: 2), .flag(flag)))
    }

    @Test func anEmptyVariableCountsAsUnsetAndOthersAreIgnored() throws {
        let resolved = try MockServerConfiguration.resolve(
            MockServerSettingsSources(environment: [
                "CARDWALLET_MOCK_PORT": "", "CARDWALLET_SERVER": "http://x/v1", "PORT": "1",
            ]))
        #expect(resolved.configuration.port == MockServerConfiguration.default.port)
        #expect(resolved.origin(of: .port) == .defaults)
    }

    @Test func theConfigFileComesFromTheOptionThenTheEnvironmentThenTheDefaultLocation() throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let named = try Self.file([.port], in: folder)
        let fromEnvironment = try Self.file([.host], in: folder)
        let fallback = try Self.file([.latency], in: folder)
        let environment = [MockServerSettingsSources.configFileVariable: fromEnvironment]

        let flag = try MockServerConfiguration.resolve(
            MockServerSettingsSources(environment: environment, configFile: named, defaultConfigFile: fallback))
        #expect(flag.configFile == named && flag.configFileOrigin == .flag("--config"))
        let variable = try MockServerConfiguration.resolve(
            MockServerSettingsSources(environment: environment, defaultConfigFile: fallback))
        #expect(
            variable.configFile == fromEnvironment
                && variable.configFileOrigin == .environment("CARDWALLET_MOCK_CONFIG"))
        let usual = try MockServerConfiguration.resolve(MockServerSettingsSources(defaultConfigFile: fallback))
        #expect(usual.configFile == fallback && usual.configuration.latency == .seconds(2))
        // The usual file may be missing; a file named by option or variable may not.
        let none = try MockServerConfiguration.resolve(
            MockServerSettingsSources(defaultConfigFile: fallback + ".missing"))
        #expect(none.configFile == nil && none.configuration == .default)
        for sources in [
            MockServerSettingsSources(configFile: named + ".missing"),
            MockServerSettingsSources(environment: [MockServerSettingsSources.configFileVariable: named + ".missing"]),
        ] {
            let error = #expect(throws: MockServerError.self) { try MockServerConfiguration.resolve(sources) }
            #expect(error?.description.contains("there is no such file") == true)
        }
    }

    @Test func aBadValueNamesItsKeyAndWhereItCameFrom() throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = folder.appendingPathComponent("bad.json").path
        try Data(#"{"port": "eighty", "failRate": "lots", "admin": "yes please"}"#.utf8).write(
            to: URL(fileURLWithPath: file))
        let cases: [(MockServerSettingsSources, String)] = [
            (
                .init(environment: ["CARDWALLET_MOCK_PORT": "eighty"]),
                "The setting port (from CARDWALLET_MOCK_PORT) must be a whole number."
            ),
            (.init(configFile: file), "The setting port in \(file) must be a whole number."),
            (.init(flags: [.port: "8o8o"]), "The option --port must be a whole number."),
            (
                .init(environment: ["CARDWALLET_MOCK_ACCESS_TOKEN_TTL": "5 minutes"]),
                "(from CARDWALLET_MOCK_ACCESS_TOKEN_TTL) must be a duration"
            ),
            (
                .init(environment: ["CARDWALLET_MOCK_ADMIN": "maybe"]),
                "The setting admin (from CARDWALLET_MOCK_ADMIN) must be true or false."
            ),
            (
                .init(flags: [.port: "1"], configFile: file),
                "The setting failRate in \(file) must be a number from 0 to 1"
            ),
        ]
        for (sources, message) in cases {
            let error = #expect(throws: MockServerError.self) { try MockServerConfiguration.resolve(sources) }
            #expect(
                error?.description.contains(message) == true, "\(error?.description ?? "no error"), expected \(message)"
            )
        }
    }

    @Test func anOutOfRangeValueNamesWhereItCameFrom() throws {
        let resolved = try MockServerConfiguration.resolve(
            MockServerSettingsSources(flags: [.latency: "2m"], environment: ["CARDWALLET_MOCK_PORT": "70000"]))
        let error = #expect(throws: MockServerError.self) { try resolved.validate() }
        let problems = error?.configurationProblems ?? []
        #expect(problems.contains { $0.hasPrefix("latency: must be at most 1m") && $0.hasSuffix("(from --latency)") })
        #expect(
            problems.contains {
                $0.hasPrefix("port: must be from 0 to 65535") && $0.hasSuffix("(from CARDWALLET_MOCK_PORT)")
            })
    }

    @Test func unknownKeysInTheFileAreWarningsAndSeedDataComesFromIt() throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = folder.appendingPathComponent("server.json").path
        try Data(
            #"""
            {"prot": 1, "limits": {"maxImageByte": 5, "maxJSONBytes": 4096}, "cardsFile": "none.json",
             "users": [{"id": "u1", "email": "u@x.dev", "name": "U", "password": "long-enough"}]}
            """#.utf8
        ).write(to: URL(fileURLWithPath: file))
        try Data(#"{"cards": []}"#.utf8).write(to: folder.appendingPathComponent("none.json"))
        let resolved = try MockServerConfiguration.resolve(MockServerSettingsSources(configFile: file))
        #expect(resolved.warnings.count == 2)
        #expect(resolved.warnings.contains { $0.contains("“prot”") })
        #expect(resolved.warnings.contains { $0.contains("“limits.maxImageByte”") })
        #expect(resolved.configuration.limits.maxJSONBytes == 4096)
        #expect(resolved.configuration.users.map(\.email) == ["u@x.dev"])
        #expect(resolved.configuration.seedCards.isEmpty)
    }
}
