import ArgumentParser
import CardBackend
import CardModels
import CardVCard
import CardWalletLive
import Foundation

/// `cardwallet import FILE|DIR|-`: vCards into the wallet, without duplicates.
struct ImportCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "import",
        abstract: "Import vCards (2.1, 3.0, 4.0) into the wallet, without making duplicates.",
        discussion: """
            Reads a .vcf file of one or many cards, every .vcf of a folder (a vdir, as khard and \
            vdirsyncer keep), or standard input (-), as phones and programs write them: CRLF or LF, \
            folded lines, quoted-printable in any CHARSET (UTF-8, Windows-1252, ISO-8859-x, EUC-KR…), \
            grouped properties, photos in base64 or data: URIs.

            A card matches a wallet card by its UID, else by name and email (ignoring case): a \
            match is updated when the file says something new (its photo included) and left alone \
            when not, so importing the same file again changes nothing. What a card does not model \
            (a second phone, a fax, a birthday without a year, X- properties, the UID) is kept with \
            it and written back by `cardwallet export`. Fun facts and the avatar, which vCard cannot \
            hold, are kept when a file from elsewhere updates a card.

            A card that cannot be imported (no name, a photo that is not PNG or JPEG, a value over \
            a limit) is reported on standard error as FILE:LINE: what is wrong and skipped; the \
            others are imported. A file that is not vCard at all (binary, empty, only broken cards) \
            is refused in one line and nothing of it is imported. --dry-run prints what would \
            happen, card by card, and sends nothing. Prints the counts of created, updated, \
            unchanged and skipped cards; a progress line on standard error when it is a terminal.

            Examples:
              cardwallet import contacts.vcf
              cardwallet import ~/.local/share/contacts/default --dry-run
              curl -s https://example.com/team.vcf | cardwallet import -
              cardwallet import contacts.vcf --json | jq .created

            Exit status: 0 imported (or nothing to do); 65 some cards were skipped or an input is \
            not vCard; 3 log in first; 6 server unreachable; 64 no such file.
            """)

    @OptionGroup(title: "Server and logging options") var client: ClientOptions

    /// The input.
    @Argument(
        help: ArgumentHelp("A .vcf file, a folder of .vcf files, or - for standard input.", valueName: "file|dir|-"))
    var input: String

    /// `--dry-run`.
    @Flag(name: .customLong("dry-run"), help: "Print what would be created, updated and skipped; send nothing.")
    var dryRun = false

    /// `--json`.
    @Flag(help: "Print the outcome as JSON: the counts, and each card with its action and id.")
    var json = false

    func run() async throws {
        try await ClientCommandRunner.run(client) { context in
            let executor = ImportExecutor(wallet: await context.wallet())
            let reading = Progress("reading cards")
            let inputs = try ImportInputs.read(input, importer: executor.importer, progress: reading)
            reading.finish()
            for refusal in inputs.refusals { Console.error(refusal) }
            let refusedAll = inputs.reads.allSatisfy { $0.document.refusal != nil }
            if refusedAll {
                throw CommandFailure("nothing imported.", status: CLIExitCode.dataError)
            }

            let fetching = Progress("reading the wallet")
            let plan = try await executor.plan(inputs.cards, problems: inputs.problems) { fetching.update($0, of: $1) }
            fetching.finish()

            let outcome: ImportOutcome
            if dryRun {
                outcome = ImportOutcome(dryRunOf: plan)
            } else {
                outcome = try await ImportOutcome.carryingOut(plan, with: executor)
            }
            for line in outcome.problemLines { Console.err(line + "\n") }
            if inputs.unlistedProblems > 0 {
                Console.error(
                    "… and \(inputs.unlistedProblems) more cards skipped (only the first problems of a file are listed)."
                )
            }
            var counts = outcome.counts
            counts.skipped += inputs.unlistedProblems
            if json {
                Console.out(try outcome.json(counts: counts, dryRun: dryRun, refused: inputs.refusals))
            } else {
                if dryRun { Console.out(outcome.planText) }
                Console.out((dryRun ? "Dry run, nothing sent: would have " : "") + counts.summary + ".\n")
            }
            if counts.skipped > 0 || !inputs.refusals.isEmpty {
                throw CommandFailure(
                    counts.skipped > 0
                        ? "\(counts.skipped) card\(counts.skipped == 1 ? "" : "s") skipped." : "an input was refused.",
                    status: CLIExitCode.dataError)
            }
        }
    }
}
