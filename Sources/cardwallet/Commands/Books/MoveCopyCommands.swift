import ArgumentParser
import CardBackend
import CardCache
import CardModels
import CardWalletLive

/// `cardwallet move CARD --to BOOK`: the card into another book, maybe of another account.
struct MoveCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "move",
        abstract: "Move a card to another address book (of this account or another one).",
        discussion: """
            Makes the card in the book BOOK, then deletes it where it was — across the books of \
            one account and across accounts: CardDAV to the card API and back. Between two CardDAV \
            books nothing is lost: the card's vCard goes over as it is, every property kept.

            The move is one entry in the outbox of the card's book (docs/Cache.md, "Moves, copies \
            and merges"): the create goes with a key made once, the delete only if the card is \
            still as it was read. Interrupted anywhere (the process killed, the network gone), the \
            card is in at least one of the two books; `cardwallet sync` (or this command again) \
            carries the move on from where it stopped, and the card ends in one book, never two. A \
            card changed in its book before the delete is moved again in its new version.

            CARD is the card's id, the start of it (as `list` shows it) or a search that finds \
            that card only, in any book. BOOK is a book's id, its name, ACCOUNT/BOOK, or an \
            account's name for an account with one wallet (`cardwallet list --book all` shows \
            the books in its BOOK column).

            Examples:
              cardwallet move b9ca --to work
              cardwallet move "Ada Lovelace" --to demo@cardwallet.dev

            Exit status: 0 moved; 1 a server refused it (it stays in the outbox, failed); 3 log \
            in first; 4 no such card; 6 a server cannot be reached (the move waits in the outbox; \
            the card is in at least one book); 64 a name that fits several cards or books.
            """)

    @OptionGroup(title: "Server and logging options") var client: ClientOptions

    @OptionGroup var transfer: TransferArguments

    func run() async throws {
        try await ClientCommandRunner.run(client) { context in
            try await BookTransfer.run(.move, card: transfer.card, to: transfer.to, context: context)
        }
    }
}

/// `cardwallet copy CARD --to BOOK`: a copy of the card in another book.
struct CopyCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "copy",
        abstract: "Copy a card to another address book (of this account or another one).",
        discussion: """
            Makes the card in the book BOOK as well; it stays where it is. Between two CardDAV \
            books the card's vCard goes over as it is (its UID too, so the copy is the same card \
            to a phone that syncs both). The copy is sent with a key made once and recorded in the \
            outbox first: interrupted, `cardwallet sync` (or this command again) finishes it, \
            making one copy, never two.

            CARD and BOOK are named as for `move`.

            Examples:
              cardwallet copy b9ca --to personal

            Exit status: 0 copied; 1 refused; 3 log in first; 4 no such card; 6 a server cannot \
            be reached (the copy waits in the outbox); 64 a name that fits several cards or books.
            """)

    @OptionGroup(title: "Server and logging options") var client: ClientOptions

    @OptionGroup var transfer: TransferArguments

    func run() async throws {
        try await ClientCommandRunner.run(client) { context in
            try await BookTransfer.run(.copy, card: transfer.card, to: transfer.to, context: context)
        }
    }
}

/// The card and the book `move` and `copy` take.
struct TransferArguments: ParsableArguments {
    /// The card.
    @Argument(
        help: ArgumentHelp(
            "The card: its id, the start of it (as `list` shows it), or a search that finds only it.",
            valueName: "card"))
    var card: String

    /// `--to`.
    @Option(
        name: .long,
        help: ArgumentHelp("The book it goes to: its id or name, ACCOUNT/BOOK, or an account.", valueName: "book"))
    var to: String
}

/// What `move` and `copy` share.
enum BookTransfer {
    static func run(_ mode: TransferOrder.Mode, card name: String, to bookName: String, context: CommandContext)
        async throws
    {
        let target = try await context.book(named: bookName)
        let (wallet, id, found) = try await context.named(name)
        guard let book = found else {
            throw CommandFailure.usage("No account is logged in: `cardwallet login` adds one.")
        }
        let card = NamedCard(book: book, summary: try await wallet.card(id: id, .online).value.summary)
        let outcome: TransferOutcome
        do {
            outcome = try await context.shelf.transfer(mode, card, to: target)
        } catch let refusal as TransferRefusal {
            throw CommandFailure.usage(refusal.description)
        }
        let verb = mode == .move ? "Moved" : "Copied"
        let what = "“\(TerminalText.escaped(card.summary.name))”"
        switch outcome.state {
        case .done:
            let id = outcome.written.map { " (its id there: \(TerminalText.escaped($0.id)))" } ?? ""
            Console.out(
                "\(verb) \(what) from \(TerminalText.escaped(book.label)) to \(TerminalText.escaped(target.label))\(id).\n"
            )
        case .waiting(let why):
            throw CommandFailure(
                "The \(mode.rawValue) of \(what) waits in the outbox of \(TerminalText.escaped(book.label)): "
                    + "\(TerminalText.escaped(why)). The card is in at least one of the two books; `cardwallet sync` "
                    + "(or this command again) carries it on.", status: CLIExitCode.networkFailure)
        case .refused(let why):
            throw CommandFailure(
                "The \(mode.rawValue) of \(what) was refused: \(TerminalText.escaped(why)). It stays in the outbox "
                    + "of \(TerminalText.escaped(book.label)) as failed; the card is where it was.")
        }
    }
}

extension CommandContext {
    /// The book `name` names among every stored account's books (asked again of the servers
    /// when none fits the books remembered).
    ///
    /// - Throws: ``CommandFailure`` (exit 64) naming the books there are, when none or several fit.
    func book(named name: String) async throws -> WalletBook {
        func matches(_ books: [WalletBook]) -> [WalletBook] {
            books.filter { book in
                book.isNamed(name, soleBookOfAccount: books.filter { $0.account == book.account }.count == 1)
            }
        }
        var books = await shelf.books()
        var found = matches(books)
        if found.isEmpty, !offline {
            books = await shelf.books(refresh: true)
            found = matches(books)
        }
        let list = books.map { "\(TerminalText.escaped($0.label)) (\(TerminalText.escaped($0.account)))" }
            .joined(separator: ", ")
        guard !found.isEmpty else {
            throw CommandFailure.usage(
                "There is no book “\(TerminalText.escaped(name))”. The books: \(list.isEmpty ? "none" : list).")
        }
        guard found.count == 1 else {
            throw CommandFailure.usage(
                "“\(TerminalText.escaped(name))” names \(found.count) books: "
                    + found.map { "\(TerminalText.escaped($0.label)) (\(TerminalText.escaped($0.account)))" }
                    .joined(separator: ", ") + ". Give ACCOUNT/BOOK.")
        }
        return found[0]
    }
}
