import ArgumentParser
import CardAPI
import CardModels
import CardWalletUI

/// `cardwallet list`: the wallet as a table or as JSON.
struct ListCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "list",
        abstract: "List the cards of the wallet, in wallet order.",
        discussion: """
            Fetches every page. By default prints a table (ID, NAME, TITLE, COMPANY, EMAIL) whose \
            columns line up also with wide characters; long cells are cut with …, ids never. \
            Card text is printed with control characters made visible (ESC as ^[). With --json, \
            prints the API's JSON array of card summaries instead (id, name, title, company, \
            email, defaultImage, hasImage, updatedAt, version).

            Examples:
              cardwallet list
              cardwallet list --query ada
              cardwallet list --json | jq -r '.[].id'

            Exit status: 0 listed (also when empty); 3 log in first; 6 server unreachable.
            """)

    @OptionGroup(title: "Server and logging options") var client: ClientOptions

    /// `--query`.
    @Option(
        help: ArgumentHelp(
            "Only cards whose name, company, title or email contain this text (ignoring case).", valueName: "text"))
    var query: String?

    /// `--json`.
    @Flag(help: "Print the API's JSON array of card summaries instead of a table.")
    var json = false

    func run() async throws {
        try await ClientCommandRunner.run(client) { context in
            let cards = try await context.client.allCards(query: query)
            if json {
                Console.out(try CardText.json(cards))
            } else if cards.isEmpty {
                Console.out(query.map { "No cards match “\(TerminalText.escaped($0))”.\n" } ?? "No cards.\n")
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

            Exit status: 0 shown; 3 log in first; 4 no such card; 6 server unreachable.
            """)

    @OptionGroup(title: "Server and logging options") var client: ClientOptions

    /// The card id.
    @Argument(help: ArgumentHelp("The card's id, as `list` shows it.", valueName: "id"))
    var id: String

    /// `--json`.
    @Flag(help: "Print the card as the API's JSON.")
    var json = false

    func run() async throws {
        try await ClientCommandRunner.run(client) { context in
            let card = try await context.client.card(id: id)
            Console.out(json ? try CardText.json(card) : CardText.detail(card))
        }
    }
}
