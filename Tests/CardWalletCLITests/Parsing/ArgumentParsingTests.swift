import ArgumentParser
import CardModels
import Logging
import Testing

@testable import cardwallet

/// The command line: what each command accepts, what it refuses, and what `--help` says.
@Suite struct ArgumentParsingTests {
    static let commands: [(name: String, type: any ParsableCommand.Type)] = [
        ("login", LoginCommand.self), ("logout", LogoutCommand.self), ("status", StatusCommand.self),
        ("books", BooksCommand.self),
        ("list", ListCommand.self), ("show", ShowCommand.self), ("add", AddCommand.self),
        ("edit", EditCommand.self), ("rm", RemoveCommand.self), ("reorder", ReorderCommand.self),
    ]

    @Test func sharedClientOptionsParseOnEveryCommand() throws {
        let command = try CardWalletCommand.parseAsRoot([
            "list", "--server", "http://example.com:9/v1", "-v", "--log-level", "DEBUG", "--config", "/c.json",
            "--query", "ada", "--json",
        ])
        let list = try #require(command as? ListCommand)
        #expect(list.client.server == "http://example.com:9/v1")
        #expect(list.client.verbose)
        #expect(list.client.logLevel == .debug)
        #expect(list.client.config == "/c.json")
        #expect(list.query == "ada")
        #expect(list.json)
        #expect(
            list.client.overrides
                == ClientSettingsOverrides(server: "http://example.com:9/v1", logLevel: .debug, configFile: "/c.json"))
        for name in ["login", "logout", "status", "list"] {
            #expect(throws: Never.self) {
                try CardWalletCommand.parseAsRoot([name, "--server", "https://x.example/v1"])
            }
        }
    }

    @Test func cardFieldOptionsCollectListsAndClearWithEmptyValues() throws {
        let command = try CardWalletCommand.parseAsRoot([
            "add", "--name", " Ada ", "--tag", "math", "--tags", "ai, history", "--tmi", "One;Two", "--tmi", "Three",
            "--avatar", "4", "--title", "",
        ])
        let add = try #require(command as? AddCommand)
        let fields = add.fields.applied(to: CardFields(name: ""))
        #expect(fields.name == "Ada")
        #expect(fields.tags == ["math", "ai", "history"])
        #expect(fields.funFacts == ["One", "Two", "Three"])
        #expect(fields.defaultImage == 4)
        #expect(fields.title == nil)

        let edit = try #require(
            try CardWalletCommand.parseAsRoot(["edit", "c1", "--tag", "", "--bio", "", "--if-version", "3"])
                as? EditCommand)
        let base = CardFields(name: "Ada", bio: "Poet", tags: ["a"])
        let edited = edit.fields.applied(to: base)
        #expect(edited == CardFields(name: "Ada"))
        #expect(edit.ifVersion == "3")
        #expect(try CardWalletCommand.parseAsRoot(["add", "--name", "x", "--default-image", "2"]) is AddCommand)
    }

    @Test(arguments: [
        ["add", "--title", "x"],  // no name
        ["edit", "c1"],  // nothing to change
        ["reorder"],  // no ids
        ["reorder", "a", "b", "a"],  // twice
        ["login", "--password-stdin"],  // no email to go with it
        ["list", "--server", "not a url"],
        ["list", "--log-level", "loud"],
        ["show"],  // no id
        ["add", "--name", "x", "--avatar", "two"],
    ])
    func invalidCommandLinesAreUsageErrors(arguments: [String]) {
        do {
            _ = try CardWalletCommand.parseAsRoot(arguments)
            Issue.record("\(arguments) parsed")
        } catch {
            #expect(CardWalletCommand.exitCode(for: error) == ExitCode(CLIExitCode.usage), "\(arguments)")
            #expect(!CardWalletCommand.message(for: error).isEmpty)
        }
    }

    @Test func helpExplainsEveryCommandWithExamplesAndExitStatuses() {
        for (name, type) in Self.commands {
            let help = CardWalletCommand.helpMessage(for: type, columns: 100)
            #expect(help.contains("OVERVIEW: \(type.configuration.abstract)"), "\(name)")
            #expect(help.contains("Examples:"), "\(name)")
            #expect(help.contains("cardwallet \(name)"), "\(name)")
            #expect(help.contains("Exit status:"), "\(name)")
            for option in ["--server <url>", "--config <file>", "-v, --verbose", "--log-level <level>"] {
                #expect(help.contains(option), "\(name) lacks \(option)")
            }
            // No token-shaped text, whatever the environment holds (help reads no file).
            #expect(!help.contains("cwa_") && !help.contains("cwr_") && !help.lowercased().contains("bearer"))
        }
        let add = CardWalletCommand.helpMessage(for: AddCommand.self, columns: 200)
        for field in CardField.allCases where field != .defaultImage && field != .tags {
            #expect(add.contains("--\(field.key) <"), "add lacks --\(field.key)")
        }
        #expect(
            add.contains("--tag, --tags <tag>") && add.contains("--avatar, --default-image <n>")
                && add.contains("--image <file>"))
    }

    @Test func exitStatusesAreDistinct() {
        let statuses: [Int32] = [
            CLIExitCode.failure, CLIExitCode.loginRequired, CLIExitCode.notFound, CLIExitCode.conflict,
            CLIExitCode.networkFailure, CLIExitCode.usage, CLIExitCode.cancelled,
        ]
        #expect(Set(statuses).count == statuses.count)
        #expect(CLIExitCode.usage == 64)
    }
}
