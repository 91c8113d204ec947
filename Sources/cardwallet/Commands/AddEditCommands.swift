import ArgumentParser
import CardBackend
import CardModels
import CardWalletLive
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
            file of at most 2 MiB (change it later with `edit --image`, remove it with `edit \
            --remove-image`). Prints the new card's id, or the card as JSON with --json.

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
        guard ArgumentChecks.apply else { return }
        guard fields.name != nil else { throw ValidationError("--name is required: every card has a name.") }
    }

    func run() async throws {
        try await ClientCommandRunner.run(client) { context in
            let cardFields = fields.applied(to: CardFields(name: ""))
            if let problems = CardFieldOptions.problems(in: cardFields) { throw CommandFailure.usage(problems) }
            let upload = try image.map { try context.checkedImage($0) }
            let card = try await context.wallet().create(cardFields, image: upload).value
            Console.out(json ? try CardText.json(card) : card.id + "\n")
        }
    }
}

/// `cardwallet edit <id>`: changes some fields of a card, its image, or both.
struct EditCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "edit",
        abstract: "Change fields or the image of a card; the rest stays as it is.",
        discussion: """
            Reads the card, applies the options given, and saves it only if nobody changed it in \
            between (If-Match with the version read). An empty value clears a field \
            (--title ""). --tmi and --tag replace the whole list (--tag "" empties it). Prints the \
            card as saved, or its JSON with --json.

            Images: --image FILE replaces the card's picture with a PNG or JPEG file of at most \
            2 MiB (checked before anything is sent); --remove-image removes it, and the card shows \
            its avatar (--avatar) again. With field options too, the fields are saved first and \
            the image changes on the version that made (the card goes up two versions).

            If the card changed meanwhile (another window, another script), nothing is saved \
            and the command exits 5: run it again to apply your change to the new version. With \
            --if-version V the change is saved only if the card is still at version V (as `show` \
            prints it: a number on the card server, an ETag on a CardDAV server), so a script can \
            guard a read-modify-write of its own.

            Examples:
              cardwallet edit card_3kVq --title CTO --phone "+1 555 0100"
              cardwallet edit card_3kVq --tag ai --tag math     # the tags become: ai, math
              cardwallet edit card_3kVq --bio "" --if-version 4
              cardwallet edit card_3kVq --image portrait.jpg
              cardwallet edit card_3kVq --remove-image

            Exit status: 0 saved (or nothing to change); 3 log in first; 4 no such card; 5 the card \
            changed meanwhile (re-run); 6 server unreachable; 64 unknown options, nothing to change \
            given, invalid fields or image.
            """)

    @OptionGroup(title: "Server and logging options") var client: ClientOptions

    /// The card id.
    @Argument(
        help: ArgumentHelp(
            "The card: its id, the start of it (as `list` shows it), or a search that finds only it.",
            valueName: "card"))
    var id: String

    @OptionGroup(title: "Card fields") var fields: CardFieldOptions

    /// `--image`.
    @Option(
        help: ArgumentHelp(
            "Replace the card's picture with this PNG or JPEG file (at most 2 MiB).", valueName: "file"))
    var image: String?

    /// `--remove-image`.
    @Flag(
        name: .customLong("remove-image"),
        help: "Remove the card's picture; it shows its avatar (--avatar) again.")
    var removeImage = false

    /// `--if-version`.
    @Option(
        name: .customLong("if-version"),
        help: ArgumentHelp(
            "Save only if the card is still at this version (as `show` prints it); else exit 5.",
            valueName: "version"))
    var ifVersion: String?

    /// `--json`.
    @Flag(help: "Print the saved card as the API's JSON.")
    var json = false

    func validate() throws {
        guard ArgumentChecks.apply else { return }
        if image != nil, removeImage {
            throw ValidationError("Give --image or --remove-image, not both.")
        }
        guard !fields.isEmpty || image != nil || removeImage else {
            throw ValidationError(
                "Nothing to change: give at least one field option (e.g. --title CTO), --image FILE or --remove-image.")
        }
    }

    func run() async throws {
        try await ClientCommandRunner.run(client) { context in
            // A bad image file is reported before anything is read or saved.
            let newImage = try image.map { try context.checkedImage($0) }
            let (wallet, id, _) = try await context.named(self.id)
            let current = try await wallet.card(id: id, .online).value
            let changed = fields.applied(to: current.fields)
            if let problems = CardFieldOptions.problems(in: changed) { throw CommandFailure.usage(problems) }
            let revision = ifVersion.map(CardRevision.init(rawValue:)) ?? current.revision
            let changesFields = changed != current.fields.normalized()
            let changesImage = newImage != nil || (removeImage && current.hasImage)
            guard changesFields || changesImage || revision != current.revision else {
                let what = removeImage ? "the card has no image" : "the card already has these values"
                Console.error("nothing to change: \(what).")
                Console.out(json ? try CardText.json(current) : CardText.detail(current))
                return
            }
            var saved = current
            var fieldsSaved = false
            if changesFields || !changesImage {
                saved = try await saving(afterFields: false) {
                    try await wallet.update(id: id, fields: changed, revision: revision).value
                }
                fieldsSaved = true
            }
            if changesImage {
                // After a field change, the image goes on the revision that change made.
                let base = fieldsSaved ? saved.revision : revision
                saved = try await saving(afterFields: fieldsSaved) {
                    try await wallet.setImage(of: id, revision: base, to: newImage)
                }
            }
            Console.out(json ? try CardText.json(saved) : CardText.detail(saved))
        }
    }

    /// Runs one save. A conflict becomes exit 5 with what to do; a failure of the image
    /// after the fields were saved says that they were.
    private func saving(afterFields fieldsSaved: Bool, _ save: () async throws -> Card) async throws -> Card {
        do {
            return try await save()
        } catch let error as any BackendFailure {
            let card = TerminalText.escaped(id)
            if fieldsSaved {
                let why = error.isConflict ? "the card changed meanwhile\(error.codeNote)." : error.description
                let option = removeImage ? "--remove-image" : "--image FILE"
                throw CommandFailure(
                    "The fields of card \(card) were saved, but its image was not: \(why) "
                        + "Run `cardwallet edit \(card) \(option)` to change the image.",
                    status: CLIExitCode.status(for: error))
            }
            guard error.isConflict else { throw error }
            throw CommandFailure(
                "Card \(card) changed since it was read\(error.codeNote), so nothing was saved. "
                    + "Run the command again to apply your change to the new version.",
                status: CLIExitCode.conflict)
        }
    }
}
