import ArgumentParser
import CardBackend
import CardModels
import CardVCard
import CardWalletLive
import CardWalletUI

/// `cardwallet list`: the wallet as a table or as JSON.
struct ListCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "list",
        abstract: "List the cards of the wallet, in wallet order.",
        discussion: """
            Fetches every page and records it in the local card cache; when the server cannot \
            be reached (or with --offline) answers from the cache and says `offline — cards as of \
            <time>` on standard error. By default prints a table (ID, NAME, TITLE, COMPANY, EMAIL) whose \
            columns line up also with wide characters; long cells are cut with …. The ID column shows \
            the shortest start of each id that no other card's shares (at least 4 characters, as git \
            abbreviates commits): show, edit, rm, move, copy and merge take it back. \
            Card text is printed with control characters made visible (ESC as ^[). With --json, \
            prints the API's JSON array of card summaries instead (id, name, title, company, \
            email, defaultImage, hasImage, updatedAt, version).

            Examples:
              cardwallet list
              cardwallet list --query ada
              cardwallet list --book all
              cardwallet list --json | jq -r '.[].id'

            --book all lists every address book of every stored account (a BOOK column; `book` and \
            `account` keys in the JSON), each book synced at once; a book whose server cannot be \
            reached is listed from its cache and named on standard error.

            --query searches every field in the cache (name, company, department, title, email, \
            phone digits, website, address, bio, TMI, tags), ignoring case and accents (zoe finds \
            Zoë), anywhere in a field from the third character (데이터 finds 서울데이터랩); the \
            table then gains a MATCH column naming the field when it is not shown. Online, it \
            first reads the cards the cache does not hold in full (once; later only changed ones).

            Exit status: 0 listed (also when empty, also offline from the cache); 3 log in first; \
            6 server unreachable and nothing cached.
            """)

    @OptionGroup(title: "Server and logging options") var client: ClientOptions

    /// `--query`.
    @Option(
        help: ArgumentHelp(
            "Only cards with this text in any field (ignoring case and accents; phone numbers by their digits).",
            valueName: "text"))
    var query: String?

    /// `--json`.
    @Flag(help: "Print the API's JSON array of card summaries instead of a table.")
    var json = false

    func run() async throws {
        try await ClientCommandRunner.run(client, reads: true, allowsAllBooks: true) { context in
            if context.allBooks { return try await listAllBooks(context) }
            let wallet = await context.wallet()
            var cards: [CardSummary]
            var matched: [CardField] = []
            if let query {
                let answer = try await wallet.search(query, context.mode)
                CommandContext.sayOffline(answer.offlineAsOf)
                cards = answer.value.map(\.0)
                matched = answer.value.map(\.1)
            } else {
                let answer = try await wallet.list(context.mode)
                CommandContext.sayOffline(answer.offlineAsOf)
                cards = answer.value
            }
            if json {
                Console.out(try CardText.json(cards))
            } else if cards.isEmpty {
                Console.out(query.map { "No cards match “\(TerminalText.escaped($0))”.\n" } ?? "No cards.\n")
            } else {
                let prefixes = await context.prefixes(for: cards.map(\.id))
                let hidden = matched.contains { !CardText.listedFields.contains($0) }
                Console.out(CardText.table(cards, matched: hidden ? matched : nil, prefixes: prefixes))
            }
        }
    }

    /// `--book all`: every book of every stored account, a BOOK column (a `book` and an `account`
    /// key in the JSON); a book that cannot be read is named on standard error.
    private func listAllBooks(_ context: CommandContext) async throws {
        let books = await context.shelf.books()
        let listings = await context.shelf.listings(context.mode, books: books)
        var rows: [(card: CardSummary, book: WalletBook, field: CardField)] = []
        for listing in listings {
            guard let query else {
                rows += listing.cards.map { ($0, listing.book, CardField.name) }
                continue
            }
            let wallet = try await context.shelf.wallet(for: listing.book)
            // Online, every field: the cards the cache lacks in full are read first, as for one book.
            if listing.problem == nil, !context.offline { try? await wallet.fillWholeCards(listing.cards) }
            guard let found = try? await wallet.search(query, .offline) else { continue }
            rows += found.value.map { ($0.0, listing.book, $0.1) }
        }
        try AllBooksOutput.report(listings, offline: context.offline)
        if json {
            Console.out(try CardText.json(rows.map { BookedSummary(card: $0.card, book: $0.book) }))
        } else if rows.isEmpty {
            Console.out(query.map { "No cards match “\(TerminalText.escaped($0))”.\n" } ?? "No cards.\n")
        } else {
            let prefixes = await context.prefixes(for: rows.map(\.card.id))
            let hidden = rows.contains { !CardText.listedFields.contains($0.field) }
            Console.out(
                CardText.table(
                    rows.map(\.card), matched: hidden ? rows.map(\.field) : nil, books: rows.map(\.book.label),
                    prefixes: prefixes))
        }
    }
}

/// `cardwallet show <id>`: every field of one card.
struct ShowCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "show",
        abstract: "Show every field of one card.",
        discussion: """
            Prints one field per line (absent fields as -), the image as its type and size, and \
            the card's version (what `edit --if-version` and `rm --if-version` compare). With \
            --json, prints the card as the API's JSON.

            Examples:
              cardwallet show card_3kVq
              cardwallet show card_3kVq --json | jq .version

            Records the card in the local card cache; when the server cannot be reached (or with \
            --offline) shows the cached card and says `offline — cards as of <time>` on standard \
            error (a card never shown in full while online is not cached).

            Exit status: 0 shown (also offline from the cache); 3 log in first; 4 no such card; \
            6 server unreachable and the card not cached.
            """)

    @OptionGroup(title: "Server and logging options") var client: ClientOptions

    /// The card id.
    @Argument(
        help: ArgumentHelp(
            "The card: its id, the start of it (as `list` shows it), or a search that finds only it.",
            valueName: "card"))
    var id: String

    /// `--json`.
    @Flag(help: "Print the card as the API's JSON.")
    var json = false

    func run() async throws {
        try await ClientCommandRunner.run(client, reads: true) { context in
            let named = try await context.named(id)
            let answer = try await named.wallet.card(id: named.id, context.mode)
            CommandContext.sayOffline(answer.offlineAsOf)
            // A CardDAV card with the lines of its vCard no field reads, as the card API's keeps them.
            let card = answer.value.withSourceLines
            Console.out(json ? try CardText.json(card) : CardText.detail(card))
        }
    }
}
