import ArgumentParser
import CardBackend
import CardCache
import CardModels
import CardWalletLive
import CardWalletUI
import Foundation

/// `cardwallet merge CARD CARD`: two cards into one.
struct MergeCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "merge",
        abstract: "Merge two cards into one (of one book or of two).",
        discussion: """
            Shows the two cards side by side, field by field, and which value the merged card \
            takes: by default the fuller one (the longer text, the longer list), the first card's \
            on a tie; --take FIELD=1|2 chooses another. Both cards' emails and phone numbers are \
            kept (the one not taken as a second email or number), and so is every property of \
            either card that the wallet does not model (a fax, an X- property, a birthday without \
            a year…). The merged card is written over the first card, in its book (--keep 2: \
            over the second), and the other card is deleted — one entry of the outbox, as a move \
            is: interrupted, `cardwallet sync` carries it on, and the two cards end as one.

            Asks at the terminal before merging, unless --yes is given; without a terminal it \
            refuses unless --yes is given. --dry-run shows the merge and changes nothing.

            Examples:
              cardwallet duplicates
              cardwallet merge b9ca 7f3e
              cardwallet merge b9ca 7f3e --take title=2 --keep 2 --yes

            Exit status: 0 merged (or shown, with --dry-run); 1 not confirmed, or refused (a card \
            changed since it was read: nothing lost, run it again); 3 log in first; 4 no such card; \
            6 a server cannot be reached (the merge waits in the outbox); 64 a name that fits \
            several cards, bad options, no terminal and no --yes.
            """)

    @OptionGroup(title: "Server and logging options") var client: ClientOptions

    /// The cards.
    @Argument(
        help: ArgumentHelp(
            "The two cards: ids, starts of ids (as `list` shows them), or searches that find one card each.",
            valueName: "card"))
    var cards: [String]

    /// `--take`.
    @Option(
        name: .long,
        help: ArgumentHelp(
            "Take this field from card 1 or 2 (FIELD=1 or FIELD=2; fields as `add` names them: name, title, company, "
                + "department, email, phone, website, address, bio, birthday, fun-facts, tags, avatar). Repeatable.",
            valueName: "field=side"))
    var take: [String] = []

    /// `--keep`.
    @Option(
        name: .long,
        help: ArgumentHelp("Which card is kept, in its book, as the merged card: 1 or 2.", valueName: "side"))
    var keep: Int = 1

    /// `--yes`.
    @Flag(name: [.short, .long], help: "Merge without asking (needed when there is no terminal).")
    var yes = false

    /// `--dry-run`.
    @Flag(name: .customLong("dry-run"), help: "Show the merge; change nothing.")
    var dryRun = false

    func validate() throws {
        guard ArgumentChecks.apply else { return }
        guard cards.count == 2 else { throw ValidationError("Give two cards to merge.") }
        guard keep == 1 || keep == 2 else { throw ValidationError("--keep takes 1 or 2.") }
        for choice in take { _ = try Self.choice(choice) }
    }

    /// A `--take` value: the field and the side.
    static func choice(_ text: String) throws -> (CardField, CardMergePlan.Side) {
        let parts = text.split(separator: "=", maxSplits: 1).map { $0.trimmingCharacters(in: .whitespaces) }
        guard parts.count == 2, let side = ["1": CardMergePlan.Side.left, "2": .right][parts[1]] else {
            throw ValidationError("--take takes FIELD=1 or FIELD=2, e.g. --take title=2.")
        }
        let wanted = parts[0].lowercased()
        guard
            let field = CardField.allCases.first(where: {
                $0.key.lowercased() == wanted || $0.label.lowercased() == wanted
                    || $0.label.lowercased().replacingOccurrences(of: " ", with: "-") == wanted
            })
        else {
            throw ValidationError(
                "--take: there is no field “\(parts[0])”; the fields: "
                    + CardField.allCases.map { $0.label.lowercased().replacingOccurrences(of: " ", with: "-") }
                    .joined(separator: ", ") + ".")
        }
        return (field, side)
    }

    func run() async throws {
        try await ClientCommandRunner.run(client) { context in
            let first = try await context.named(cards[0])
            let second = try await context.named(cards[1])
            guard let firstBook = first.book, let secondBook = second.book else {
                throw CommandFailure.usage("No account is logged in: `cardwallet login` adds one.")
            }
            let left = try await first.wallet.card(id: first.id, .online)
            let right = try await second.wallet.card(id: second.id, .online)
            guard left.offlineAsOf == nil, right.offlineAsOf == nil else {
                throw CommandFailure(
                    "offline: the cards are read from their servers before they merge; nothing was changed.",
                    status: CLIExitCode.networkFailure)
            }
            if firstBook == secondBook, first.id == second.id {
                throw CommandFailure.usage("Both names are the card “\(TerminalText.escaped(left.value.fields.name))”.")
            }
            var plan = CardMergePlan(left: left.value, right: right.value)
            plan.keep = keep == 1 ? .left : .right
            for choice in take {
                let (field, side) = try Self.choice(choice)
                plan.choices[field] = side
            }
            let books = (left: firstBook, right: secondBook)
            let prefixes = await context.prefixes(for: [plan.left.id, plan.right.id])
            Console.out(MergeText.table(plan, books: (books.left.label, books.right.label), prefixes: prefixes))
            if dryRun { return }
            if !yes {
                guard TerminalPrompt.standardInputIsTerminal, let terminal = TerminalPrompt.openControllingTerminal()
                else {
                    throw CommandFailure.usage(
                        "Refusing to merge without confirmation: there is no terminal to ask on. Pass --yes to merge.")
                }
                defer { terminal.close() }
                guard try terminal.confirm("Merge the two cards as shown?") else {
                    throw CommandFailure("Nothing was merged.")
                }
            }
            let keptSide = plan.keep
            let kept = keptSide == .left ? (first, books.left) : (second, books.right)
            let dropped = keptSide == .left ? (second, books.right) : (first, books.left)
            var picture: (data: Data, type: String)?
            let droppedCard = plan.card(keptSide.other)
            if !plan.card(keptSide).hasImage, droppedCard.hasImage, droppedCard.source == nil {
                let image = try await dropped.0.wallet.image(of: droppedCard, offline: false).value
                picture = (image.data, image.contentType)
            }
            let merged: TransferCard
            do {
                merged = try CardMerger.merged(plan, droppedPicture: picture)
            } catch {
                throw CommandFailure("The cards cannot be merged: \(TerminalText.escaped(String(describing: error))).")
            }
            let outcome = try await context.shelf.merge(
                keep: NamedCard(book: kept.1, summary: plan.card(keptSide).summary), at: plan.card(keptSide).revision,
                drop: NamedCard(book: dropped.1, summary: droppedCard.summary), merged: merged)
            let name = "“\(TerminalText.escaped(plan.fields.name))”"
            switch outcome.state {
            case .done:
                Console.out(
                    "Merged into \(name) in \(TerminalText.escaped(kept.1.label)) (\(TerminalText.escaped(plan.card(keptSide).id))); "
                        + "the card in \(TerminalText.escaped(dropped.1.label)) is deleted.\n")
            case .waiting(let why):
                throw CommandFailure(
                    "The merge waits in the outbox of \(TerminalText.escaped(dropped.1.label)): \(TerminalText.escaped(why)). "
                        + "Both cards stay until it is done; `cardwallet sync` carries it on.",
                    status: CLIExitCode.networkFailure)
            case .refused(let why):
                throw CommandFailure(
                    "The merge was refused: \(TerminalText.escaped(why)). Nothing is lost; look at the cards and merge again."
                )
            }
        }
    }
}

/// How `merge` shows the two cards side by side.
enum MergeText {
    static func table(_ plan: CardMergePlan, books: (String, String), prefixes: UniquePrefixes) -> String {
        var rows: [[String]] = [
            [
                "card", "1: \(prefixes.prefix(of: plan.left.id)) in \(books.0)",
                "2: \(prefixes.prefix(of: plan.right.id)) in \(books.1)", "",
            ]
        ]
        for field in plan.rows {
            let side = plan.choices[field] ?? .left
            let same = plan.left.fields[value: field] == plan.right.fields[value: field]
            rows.append([
                field.label.lowercased(), plan.left.fields[field], plan.right.fields[field],
                same ? "=" : (side == .left ? "← 1" : "2 →"),
            ])
        }
        var text = TextTable(
            columns: [
                TextTable.Column("FIELD"), TextTable.Column("CARD 1", maximumWidth: 36),
                TextTable.Column("CARD 2", maximumWidth: 36), TextTable.Column("TAKES"),
            ], rows: rows
        ).render()
        let keptBook = plan.keep == .left ? books.0 : books.1
        let goneBook = plan.keep == .left ? books.1 : books.0
        text +=
            "\nThe merged card is written over card \(plan.keep == .left ? 1 : 2) in \(TerminalText.escaped(keptBook)); "
        text += "card \(plan.keep == .left ? 2 : 1) in \(TerminalText.escaped(goneBook)) is deleted.\n"
        if let email = plan.otherEmail { text += "Kept as a second email: \(TerminalText.escaped(email))\n" }
        if let phone = plan.otherPhone { text += "Kept as a second phone number: \(TerminalText.escaped(phone))\n" }
        let lines = CardMerger.keptLineCount(plan)
        if lines > 0 {
            text +=
                "Kept from card \(plan.keep == .left ? 2 : 1): \(lines) propert\(lines == 1 ? "y" : "ies") the wallet does not model.\n"
        }
        return text
    }
}
