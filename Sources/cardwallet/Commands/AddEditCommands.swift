import ArgumentParser
import CardAPI
import CardModels
import CardWalletUI
import Foundation

/// `cardwallet add`: creates a card.
struct AddCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "add",
        abstract: "Add a card at the end of the wallet.",
        discussion: """
            Every card field is an option; only --name is required. Lists: repeat --tmi for each \
            fun fact and --tag for each tag, or separate them in one value (facts with ;, tags \
            with ,). The fields are checked before anything is sent. --image uploads a PNG or JPEG \
            file of at most 2 MiB (it can only be set when adding). Prints the new card's id, or \
            the card as JSON with --json.

            Examples:
              cardwallet add --name "Ada Lovelace" --company "Analytical Engines" --email ada@example.com
              cardwallet add --name 김민지 --tag design --tag "seoul, coffee" --tmi "Collects stamps" --image photo.png
              id=$(cardwallet add --name "Grace Hopper" --title "Rear Admiral")

            Exit status: 0 added; 3 log in first; 6 server unreachable; 64 invalid fields or image.
            """)

    @OptionGroup(title: "Server and logging options") var client: ClientOptions
    @OptionGroup(title: "Card fields") var fields: CardFieldOptions

    /// `--image`.
    @Option(help: ArgumentHelp("A PNG or JPEG file for the card's picture (at most 2 MiB).", valueName: "file"))
    var image: String?

    /// `--json`.
    @Flag(help: "Print the new card as the API's JSON instead of its id.")
    var json = false

    func validate() throws {
        guard fields.name != nil else { throw ValidationError("--name is required: every card has a name.") }
    }

    func run() async throws {
        try await ClientCommandRunner.run(client) { context in
            let cardFields = fields.applied(to: CardFields(name: ""))
            if let problems = CardFieldOptions.problems(in: cardFields) { throw CommandFailure.usage(problems) }
            let card: Card
            if let image {
                card = try await context.client.createCard(cardFields, imageAt: URL(fileURLWithPath: image))
            } else {
                card = try await context.client.createCard(cardFields)
            }
            Console.out(json ? try CardText.json(card) : card.id + "\n")
        }
    }
}

/// `cardwallet edit <id>`: changes some fields of a card.
struct EditCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "edit",
        abstract: "Change fields of a card; the others stay as they are.",
        discussion: """
            Reads the card, applies the options given, and saves it only if nobody changed it in \
            between (If-Match with the version read). An empty value clears a field \
            (--title ""). --tmi and --tag replace the whole list (--tag "" empties it). The image \
            cannot be changed. Prints the card as saved, or its JSON with --json.

            If the card changed meanwhile (another window, another script: E07), nothing is saved \
            and the command exits 5: run it again to apply your change to the new version. With \
            --if-version N the change is saved only if the card is still at version N (from \
            `show`), so a script can guard a read-modify-write of its own.

            Examples:
              cardwallet edit card_3kVq --title CTO --phone "+1 555 0100"
              cardwallet edit card_3kVq --tag ai --tag math     # the tags become: ai, math
              cardwallet edit card_3kVq --bio "" --if-version 4

            Exit status: 0 saved (or nothing to change); 3 log in first; 4 no such card; 5 the card \
            changed meanwhile (re-run); 6 server unreachable; 64 invalid fields.
            """)

    @OptionGroup(title: "Server and logging options") var client: ClientOptions

    /// The card id.
    @Argument(help: ArgumentHelp("The card's id, as `list` shows it.", valueName: "id"))
    var id: String

    @OptionGroup(title: "Card fields") var fields: CardFieldOptions

    /// `--if-version`.
    @Option(
        name: .customLong("if-version"),
        help: ArgumentHelp(
            "Save only if the card is still at this version (from `show`); else exit 5.",
            valueName: "n"))
    var ifVersion: Int?

    /// `--json`.
    @Flag(help: "Print the saved card as the API's JSON.")
    var json = false

    func validate() throws {
        guard !fields.isEmpty else {
            throw ValidationError("Nothing to change: give at least one field option, e.g. --title CTO.")
        }
    }

    func run() async throws {
        try await ClientCommandRunner.run(client) { context in
            let current = try await context.client.card(id: id)
            let changed = fields.applied(to: current.fields)
            if let problems = CardFieldOptions.problems(in: changed) { throw CommandFailure.usage(problems) }
            let version = ifVersion ?? current.version
            let saved: Card
            if changed == current.fields.normalized(), version == current.version {
                saved = current
                Console.err("cardwallet: nothing to change: the card already has these values.\n")
            } else {
                do {
                    saved = try await context.client.updateCard(id: id, fields: changed, version: version)
                } catch let error as CardAPIError where error.isConflict {
                    throw CommandFailure(
                        "Card \(TerminalText.escaped(id)) changed since it was read (E07), so nothing was saved. "
                            + "Run the command again to apply your change to the new version.",
                        status: CLIExitCode.conflict)
                }
            }
            Console.out(json ? try CardText.json(saved) : CardText.detail(saved))
        }
    }
}
