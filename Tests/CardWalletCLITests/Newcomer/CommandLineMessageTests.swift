import ArgumentParser
import CardModels
import Testing

@testable import cardwallet

/// What the command line says when it is wrong, and what `--help` promises (issue "A newcomer's
/// first hour", items 9, 15 and 17).
@Suite struct CommandLineMessageTests {
    /// The message and status the program prints for `arguments` (what `main()` does).
    static func failure(_ arguments: [String]) -> (message: String, status: ExitCode)? {
        do {
            _ = try CardWalletCommand.parseCommandLine(arguments)
            return nil
        } catch {
            return (CardWalletCommand.fullMessage(for: error, columns: 100), CardWalletCommand.exitCode(for: error))
        }
    }

    /// An unknown option is reported as one, even where the command's own checks would
    /// complain first (ArgumentParser validates before it looks for unknown options).
    @Test(arguments: [
        (["edit", "card_1", "--bogus"], "Unknown option '--bogus'"),
        (["edit", "card_1", "--title", "x", "--bogus"], "Unknown option '--bogus'"),
        (["add", "--nmae", "Ada"], "Unknown option '--nmae'"),
        (["reorder", "--first", "card_1"], "Unknown option '--first'"),
        (["login", "--password-stdin", "--emial", "a@b.c"], "Unknown option '--emial'"),
        (["list", "--server", "not a url", "--bogus"], "Unknown option '--bogus'"),
        (["edit", "card_1", "extra"], "Unexpected argument 'extra'"),
    ])
    func unknownOptionsAreUsageErrorsBeforeAnyOtherCheck(arguments: [String], expected: String) throws {
        let (message, status) = try #require(Self.failure(arguments), "\(arguments) parsed")
        #expect(message.hasPrefix("cardwallet: \(expected)"), "\(arguments): \(message)")
        #expect(!message.contains("Nothing to change") && !message.contains("is required"), "\(message)")
        #expect(status == ExitCode(CLIExitCode.usage))
    }

    /// The commands' own checks still run when nothing else is wrong, with the same prefix.
    @Test(arguments: [
        (["edit", "card_1"], "cardwallet: Nothing to change"),
        (["edit", "card_1", "--image", "a.png", "--remove-image"], "cardwallet: Give --image or --remove-image"),
        (["add", "--title", "x"], "cardwallet: --name is required"),
        (["reorder", "a", "a"], "cardwallet: The id a is given twice"),
        (["list", "--server", "ftp://example.com"], "cardwallet: "),
        (["--bogus"], "cardwallet: Unknown option '--bogus'"),
    ])
    func everyParsingErrorStartsWithTheProgramsName(arguments: [String], expected: String) throws {
        let (message, status) = try #require(Self.failure(arguments), "\(arguments) parsed")
        #expect(message.hasPrefix(expected), "\(arguments): \(message)")
        #expect(!message.contains("Error:"), "\(message)")
        #expect(status == ExitCode(CLIExitCode.usage))
    }

    @Test func editExplainsHowImagesChange() throws {
        let edit = try #require(
            try CardWalletCommand.parseCommandLine(["edit", "c1", "--image", "p.png"]) as? EditCommand)
        #expect(edit.image == "p.png" && !edit.removeImage)
        let removal = try #require(
            try CardWalletCommand.parseCommandLine(["edit", "c1", "--remove-image"]) as? EditCommand)
        #expect(removal.removeImage && removal.fields.isEmpty)

        let help = CardWalletCommand.helpMessage(for: EditCommand.self, columns: 200)
        #expect(help.contains("--image <file>") && help.contains("--remove-image"))
        #expect(help.contains("--image FILE replaces the card's picture"))
        #expect(!help.contains("cannot be changed"))
        let add = CardWalletCommand.helpMessage(for: AddCommand.self, columns: 200)
        #expect(add.contains("change it later with `edit --image`"))
    }

    @Test func thePhoneRuleEndsItsSentenceOnce() throws {
        let problems = try #require(CardFieldOptions.problems(in: CardFields(name: "x", phone: "call me")))
        #expect(
            problems.contains("--phone may hold only digits, spaces and + - ( ) . Nothing was sent."), "\(problems)")
        #expect(!problems.contains(".."))
        let email = try #require(CardFieldOptions.problems(in: CardFields(name: "x", email: "nope")))
        #expect(email.hasSuffix("is not an email address. Nothing was sent."), "\(email)")
        let help = CardWalletCommand.helpMessage(for: AddCommand.self, columns: 200)
        #expect(!help.contains(".,") && !help.contains(".."), "\(help)")
    }

    /// Without a subcommand the interface opens: the usage must not make one look required.
    @Test func theUsageShowsTheSubcommandIsOptional() throws {
        let help = CardWalletCommand.helpMessage(columns: 100)
        let lines = help.split(separator: "\n")
        let usage = try #require(lines.firstIndex { $0.hasPrefix("USAGE:") }, "\(help)")
        #expect(lines[usage] == "USAGE: cardwallet [<options>]                 (opens the wallet)")
        #expect(lines[usage + 1].hasPrefix("       cardwallet <subcommand> [<options>]"), "\(help)")
        #expect(CardWalletCommand.configuration.abstract.hasSuffix("Without a subcommand, it opens the wallet."))
        #expect(!help.contains("level>] <subcommand>"))
    }

    /// `demo --help` at 80 columns keeps each curl command whole on a line of its own.
    @Test func demoHelpKeepsItsCurlCommandsWhole() {
        let help = CardWalletCommand.helpMessage(for: DemoCommand.self, columns: 80)
        let lines = help.split(separator: "\n")
        let commands = lines.filter { $0.contains("curl") }
        #expect(commands.count == 2, "\(help)")
        for line in commands {
            #expect(line.count <= 80, "\(line)")
            let command = line.drop { $0 == " " }
            #expect(command.hasPrefix("curl -X POST '") && command.hasSuffix("email=demo@cardwallet.dev'"), "\(line)")
        }
    }
}
