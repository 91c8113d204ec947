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

            A card matches a wallet card by its UID, else by name and email (ignoring case and \
            width): a match is updated when the file says something new (its photo included) and \
            left alone when not, so importing the same file again changes nothing. The same card \
            twice in the input (or in two files of a folder) makes one card: what the second adds \
            is merged into the first. What a card does not model (a second phone, a fax, a \
            birthday without a year, X- properties, the UID) is kept with it and written back by \
            `cardwallet export`. Fun facts and the avatar, which vCard cannot hold, are kept when \
            a file from elsewhere updates a card.

            No card is refused for a limit of the wallet: a value longer than its field (a long \
            note) is clipped there and kept whole for export; a card without a name is named \
            after its organisation, email or phone number. Each such change is reported on \
            standard error as FILE:LINE: warning: what was done, and so is text outside the \
            cards. A damaged property costs that property, not the card: a line that is not a \
            property, or a photo that is not valid base64, is left out; a photo that is not PNG \
            or JPEG is kept as its line for export; each with a FILE:LINE: warning. A card with nothing readable \
            left is reported as FILE:LINE: what is wrong and skipped; the others are imported. A file with \
            no BEGIN:VCARD at all (binary, empty, text) is refused in one line and nothing of it is \
            imported. --dry-run prints what would happen, card by card, and sends nothing. Prints \
            the counts of created, updated, unchanged (merged) and skipped cards; a progress line \
            on standard error when it is a terminal. --json always prints one JSON object.

            Examples:
              cardwallet import contacts.vcf
              cardwallet import ~/.local/share/contacts/default --dry-run
              curl -s https://example.com/team.vcf | cardwallet import -
              cardwallet import contacts.vcf --json | jq .created

            Exit status: 0 every card imported (clipped, named or merged included) or nothing to \
            do; 65 some cards were skipped or an input is not vCard; 3 log in first; 6 server \
            unreachable; 64 no such file.
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
            do {
                try await importCards(context)
            } catch let failure as ImportRefused {
                throw failure.failure
            } catch {
                // --json promises one object, a run that failed included.
                if json {
                    Console.out(
                        (try? ImportOutcome().json(
                            counts: .init(), dryRun: dryRun, refused: [], error: Self.message(for: error))) ?? "")
                }
                throw error
            }
        }
    }

    /// A failure after the JSON object was printed.
    private struct ImportRefused: Error {
        var failure: CommandFailure
    }

    private func importCards(_ context: CommandContext) async throws {
        let executor = ImportExecutor(wallet: await context.wallet())
        let reading = Progress("reading cards")
        let inputs = try ImportInputs.read(input, importer: executor.importer, progress: reading)
        reading.finish()
        for refusal in inputs.refusals { Console.error(refusal) }
        let refusedAll = inputs.reads.allSatisfy { $0.document.refusal != nil }
        if refusedAll {
            if json { Console.out(try ImportOutcome().json(counts: .init(), dryRun: dryRun, refused: inputs.refusals)) }
            throw ImportRefused(failure: CommandFailure("nothing imported.", status: CLIExitCode.dataError))
        }

        let fetching = Progress("reading the wallet")
        let plan = try await executor.plan(inputs.cards, problems: inputs.problems, warnings: inputs.warnings) {
            fetching.update($0, of: $1)
        }
        fetching.finish()

        var outcome: ImportOutcome
        if dryRun {
            outcome = ImportOutcome(dryRunOf: plan)
        } else {
            outcome = try await ImportOutcome.carryingOut(plan, with: executor)
        }
        outcome.complete(with: plan, inputs: inputs.names)
        for line in outcome.reportLines(fileWarnings: plan.warnings, inputs: inputs.names) { Console.err(line + "\n") }
        if inputs.unlistedProblems > 0 {
            Console.error(
                "… and \(inputs.unlistedProblems) more cards skipped (only the first problems of a file are listed).")
        }
        if inputs.unlistedWarnings > 0 {
            Console.error(
                "… and \(inputs.unlistedWarnings) more warnings (only the first of a file are listed).")
        }
        var counts = outcome.counts
        counts.skipped += inputs.unlistedProblems
        if json {
            Console.out(
                try outcome.json(
                    counts: counts, dryRun: dryRun, refused: inputs.refusals, unlistedCards: inputs.unlistedProblems,
                    fileWarnings: plan.warnings, unlistedWarnings: inputs.unlistedWarnings))
        } else {
            if dryRun { Console.out(outcome.planText) }
            Console.out((dryRun ? "Dry run, nothing sent: would have " : "") + counts.summary + ".\n")
        }
        if counts.skipped > 0 || !inputs.refusals.isEmpty {
            throw ImportRefused(
                failure: CommandFailure(
                    counts.skipped > 0
                        ? "\(counts.skipped) card\(counts.skipped == 1 ? "" : "s") skipped." : "an input was refused.",
                    status: CLIExitCode.dataError))
        }
    }

    /// The one-line reason of a failure, as standard error gets it.
    private static func message(for error: any Error) -> String {
        switch error {
        case let error as any BackendFailure: ClientCommandRunner.message(for: error)
        case let error as CommandFailure: error.message
        case let error as OfflineReadError: error.description
        default: TerminalText.escaped(String(describing: error))
        }
    }
}
