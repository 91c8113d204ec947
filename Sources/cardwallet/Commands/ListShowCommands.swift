import ArgumentParser
import CardBackend
import CardModels
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
            columns line up also with wide characters; long cells are cut with …, ids never. \
            Card text is printed with control characters made visible (ESC as ^[). With --json, \
            prints the API's JSON array of card summaries instead (id, name, title, company, \
            email, defaultImage, hasImage, updatedAt, version).

            Examples:
              cardwallet list
              cardwallet list --query ada
              cardwallet list --json | jq -r '.[].id'

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
        try await ClientCommandRunner.run(client, reads: true) { context in
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
            } else if matched.contains(where: { !CardText.listedFields.contains($0) }) {
                Console.out(CardText.table(cards, matched: matched))
            } else {
                Console.out(CardText.table(cards))
            }
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
    @Argument(help: ArgumentHelp("The card's id, as `list` shows it.", valueName: "id"))
    var id: String

    /// `--json`.
    @Flag(help: "Print the card as the API's JSON.")
    var json = false

    func run() async throws {
        try await ClientCommandRunner.run(client, reads: true) { context in
            let answer = try await context.wallet().card(id: id, context.mode)
            CommandContext.sayOffline(answer.offlineAsOf)
            let card = answer.value
            Console.out(json ? try CardText.json(card) : CardText.detail(card))
        }
    }
}
