import ArgumentParser
import CardMockServer
import CardModels
import Foundation
import Logging
import TestSupport
import Testing

@testable import cardwallet

/// `cardwallet mock-server` and `cardwallet demo` options: each is parsed by the command it
/// follows (never by the root command's options of the same name), and `--help` states each
/// command's own defaults.
@Suite struct MockServerOptionsTests {
    /// A configuration file with a user of its own, so tests can tell it was read.
    static func configurationFile(_ folder: TemporaryFolder) throws -> String {
        try folder.write(
            #"{"port": 0, "passwordHashCost": 4, "users": [{"id": "u-file", "email": "file@cardwallet.dev", "name": "From The File", "password": "file-password"}], "cardsFile": "none.json"}"#,
            to: "server.json")
    }

    @Test func configAndLogLevelAfterMockServerAreItsOwn() throws {
        let folder = try TemporaryFolder("mock-options")
        defer { folder.remove() }
        try folder.write(#"{"cards": []}"#, to: "none.json")
        let path = try Self.configurationFile(folder)
        let command = try CardWalletCommand.parseAsRoot([
            "mock-server", "--config", path, "--log-level", "error", "--port", "0", "--access-ttl", "30s", "--admin",
        ])
        let server = try #require(command as? MockServerCommand)
        #expect(server.server.config == path)
        #expect(server.logLevel == .error)
        let configuration = try server.server.makeConfiguration().configuration
        #expect(configuration.users.map(\.email) == ["file@cardwallet.dev"])
        #expect(configuration.accessTokenTTL == .seconds(30))
        #expect(configuration.admin)

        let demo = try #require(try CardWalletCommand.parseAsRoot(["demo", "--config", path]) as? DemoCommand)
        #expect(demo.server.config == path)
        #expect(try DemoDefaults.apply(to: demo.server).users.map(\.email) == ["file@cardwallet.dev"])
    }

    @Test func theDemoHashesItsPublishedPasswordsCheaplyUnlessAConfigurationSaysHow() throws {
        let plain = try #require(try CardWalletCommand.parseAsRoot(["demo"]) as? DemoCommand)
        let fast = try DemoDefaults.apply(to: plain.server)
        #expect(fast.passwordHashCost == DemoDefaults.passwordHashCost)
        #expect(fast.port == 0)

        let folder = try TemporaryFolder("demo-cost")
        defer { folder.remove() }
        let path = try folder.write(#"{"passwordHashCost": 12}"#, to: "server.json")
        let configured = try #require(try CardWalletCommand.parseAsRoot(["demo", "--config", path]) as? DemoCommand)
        #expect(try DemoDefaults.apply(to: configured.server).passwordHashCost == 12)
    }

    @Test(arguments: [
        (["mock-server", "--config", "/no/such/file.json"], "there is no such file"),
        (["mock-server", "--bogus"], "Unknown option '--bogus'"),
        (["mock-server", "extra"], "Unexpected argument 'extra'"),
        (["mock-server", "--server", "http://x/v1"], "Unknown option '--server'"),
        (["mock-server", "--port", "70000"], "--port must be from 0 to 65535"),
        (["mock-server", "--fail-rate", "1.5"], "--fail-rate must be a share from 0 to 1"),
        (["mock-server", "--access-ttl", "5"], "has no unit"),
        (["mock-server", "--latency", "2m"], "latency: must be at most 1m"),
        (["mock-server", "--log-level", "loud"], "use trace, debug, info"),
        (["demo", "--config", "/no/such/file.json"], "there is no such file"),
        (["demo", "--verbose"], "Unknown option '--verbose'"),
    ])
    func badOptionsAreRefusedWithAMessage(arguments: [String], message: String) {
        let error = #expect(throws: (any Error).self) { try CardWalletCommand.parseAsRoot(arguments) }
        let text = error.map { CardWalletCommand.message(for: $0) } ?? ""
        #expect(text.contains(message), "\(arguments): \(text)")
        #expect(error.map { CardWalletCommand.exitCode(for: $0) } == .validationFailure)
    }

    /// The issue's command line, plus `--config` and `--log-level`.
    static let documentedOptions = [
        "--config", "--host", "--port", "--access-ttl", "--refresh-ttl", "--data", "--latency", "--fail-rate",
        "--admin",
        "--log-level",
    ]

    @Test func mockServerHelpDocumentsEveryOptionWithItsDefault() {
        let help = CardWalletCommand.helpMessage(for: MockServerCommand.self, columns: 400)
        let lines = help.split(separator: "\n").map(String.init)
        for option in Self.documentedOptions {
            let index = lines.firstIndex {
                let line = $0.trimmingCharacters(in: .whitespaces)
                return line.hasPrefix(option + " ") || line.hasPrefix(option + "/--no-")
            }
            #expect(index != nil, "\(option) is not in --help")
            // A description follows the option's name and value, on its line or the next.
            guard let index else { continue }
            let words = lines[index].split(separator: " ").count
            let next = index + 1 < lines.count ? lines[index + 1].trimmingCharacters(in: .whitespaces) : ""
            #expect(words > 3 || (next.count > 10 && !next.hasPrefix("-")), "\(option) has no description")
        }
        #expect(help.contains("0 picks a free one. (default: 8080)"))
        #expect(help.contains("(default: 5m)"))
        #expect(help.contains("(default: 1d)"))
        #expect(help.contains("(default: \(MockServerCommand.defaultLogLevel.rawValue))"))
        // Every setting's default, from the configuration's own values: on its option's line,
        // and in the table of environment variables.
        for key in MockServerSettingKey.allCases {
            let shown = key.helpText(in: .default)
            if let flag = key.flag,
                let index = lines.firstIndex(where: { $0.trimmingCharacters(in: .whitespaces).hasPrefix(flag) })
            {
                // A long option name puts its description on the next line.
                let line = lines[index].hasSuffix(">") && index + 1 < lines.count ? lines[index + 1] : lines[index]
                #expect(line.hasSuffix("(default: \(shown))"), "\(flag): \(line)")
            }
            #expect(
                lines.contains { $0.hasPrefix("  " + key.environmentVariable + " ") && $0.hasSuffix(" " + shown) },
                "\(key.environmentVariable) and its default are not in --help")
        }
        #expect(help.contains("listening on http://HOST:PORT/v1"))
        #expect(!help.contains("unexpected"), "the passthrough guard stays out of the help")
    }

    @Test func theEnvironmentSetsWhatNoOptionSets() throws {
        let command = try #require(
            try CardWalletCommand.parseAsRoot(["mock-server", "--port", "0"]) as? MockServerCommand)
        let environment = ["CARDWALLET_MOCK_PORT": "9999", "CARDWALLET_MOCK_ACCESS_TOKEN_TTL": "45s"]
        let resolved = try command.server.makeConfiguration(environment: environment)
        #expect(resolved.configuration.port == 0 && resolved.origin(of: .port) == .flag("--port"))
        #expect(resolved.configuration.accessTokenTTL == .seconds(45))
        #expect(resolved.origin(of: .accessTokenTTL) == .environment("CARDWALLET_MOCK_ACCESS_TOKEN_TTL"))
    }

    @Test func theDemoKeepsItsDefaultsOverAFileButNotOverTheEnvironment() throws {
        let folder = try TemporaryFolder("demo-layers")
        defer { folder.remove() }
        let path = try folder.write(#"{"port": 9000, "accessTokenTTL": "10m"}"#, to: "server.json")
        let plain = try #require(try CardWalletCommand.parseAsRoot(["demo", "--config", path]) as? DemoCommand)
        let fromFile = try DemoDefaults.apply(to: plain.server, environment: [:])
        #expect(fromFile.port == 0 && fromFile.accessTokenTTL == DemoDefaults.accessTokenLifetime)
        let fromEnvironment = try DemoDefaults.apply(
            to: plain.server,
            environment: [
                "CARDWALLET_MOCK_PORT": "9001", "CARDWALLET_MOCK_ACCESS_TOKEN_TTL": "2m",
                "CARDWALLET_MOCK_PASSWORD_HASH_COST": "6",
            ])
        #expect(fromEnvironment.port == 9001 && fromEnvironment.accessTokenTTL == .minutes(2))
        #expect(fromEnvironment.passwordHashCost == 6)
        let named = try #require(try CardWalletCommand.parseAsRoot(["demo"]) as? DemoCommand)
        let cheap = try DemoDefaults.apply(
            to: named.server, environment: [MockServerSettingsSources.configFileVariable: path])
        #expect(
            cheap.passwordHashCost == MockServerConfiguration.default.passwordHashCost, "a named file keeps its cost")
    }

    @Test func demoHelpStatesTheDemosOwnDefaults() {
        let help = CardWalletCommand.helpMessage(for: DemoCommand.self, columns: 400)
        #expect(help.contains("0 picks a free one. (default: a free one)"))
        #expect(help.contains("(default: \(DemoDefaults.accessTokenLifetime))"))
        #expect(!help.contains("(default: 8080)"))
        #expect(!help.contains("(default: 5m)"))
    }
}
