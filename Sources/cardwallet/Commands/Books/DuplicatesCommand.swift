import ArgumentParser
import CardBackend
import CardModels
import CardVCard
import CardWalletLive
import Foundation

/// `cardwallet duplicates`: likely duplicates across every book.
struct DuplicatesCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "duplicates",
        abstract: "List cards that are likely the same, across every address book.",
        discussion: """
            Looks at every card of every book of every stored account (each book synced first, \
            its cards read in full) with the import's rule — the same UID, else the same name and \
            email (ignoring case and width) — and the same phone number (by its digits, 6 or \
            more). Two cards of one name and no email that give a field two values are two \
            people, not one. Each group lists its cards with their books, and the command that \
            merges them.

            Examples:
              cardwallet duplicates
              cardwallet duplicates --json | jq '.[].cards[].id'

            --json prints an array of groups: `reasons` (same UID, same name and email, same phone \
            number) and `cards` (id, book, account, name, email, phone).

            Exit status: 0 listed (also none); 3 log in first; 6 no book could be read.
            """)

    @OptionGroup(title: "Server and logging options") var client: ClientOptions

    /// `--json`.
    @Flag(help: "Print the groups as JSON.")
    var json = false

    struct Entry: Encodable {
        var id: String
        var book: String
        var account: String
        var name: String
        var email: String?
        var phone: String?
    }

    struct Group: Encodable {
        var reasons: [String]
        var cards: [Entry]
    }

    func run() async throws {
        try await ClientCommandRunner.run(client, reads: true) { context in
            let books = await context.shelf.books()
            let listings = await context.shelf.listings(context.mode, books: books)
            try AllBooksOutput.report(listings, offline: context.offline)
            var cards: [(card: Card, book: WalletBook)] = []
            for listing in listings {
                let wallet = try await context.shelf.wallet(for: listing.book)
                // Whole cards: the UID and the phone number are not in a list entry.
                if !context.offline, listing.problem == nil { try? await wallet.fillWholeCards(listing.cards) }
                let whole = wallet.cachedCards(ids: listing.cards.map(\.id))
                for (summary, card) in zip(listing.cards, whole) {
                    cards.append((card ?? QueryCommand.card(from: summary), listing.book))
                }
            }
            let groups = DuplicateRule.groups(cards.map(\.card))
            let prefixes = await context.prefixes(for: cards.map(\.card.id))
            let found = groups.map { group in
                Group(
                    reasons: group.reasons.map(\.rawValue),
                    cards: group.members.map { index in
                        let (card, book) = cards[index]
                        return Entry(
                            id: card.id, book: book.label, account: book.account, name: card.fields.name,
                            email: card.fields.email, phone: card.fields.phone)
                    })
            }
            if json {
                Console.out(try CardText.json(found))
                return
            }
            guard !found.isEmpty else {
                Console.out("No likely duplicates among \(cards.count) card\(cards.count == 1 ? "" : "s").\n")
                return
            }
            var text = "\(found.count) group\(found.count == 1 ? "" : "s") of likely duplicates:\n"
            for group in found {
                text +=
                    "\n"
                    + TextTable(
                        columns: [
                            TextTable.Column("ID"), TextTable.Column("BOOK", maximumWidth: 24),
                            TextTable.Column("NAME", maximumWidth: 32), TextTable.Column("EMAIL", maximumWidth: 36),
                            TextTable.Column("PHONE", maximumWidth: 24),
                        ],
                        rows: group.cards.map {
                            [prefixes.prefix(of: $0.id), $0.book, $0.name, $0.email ?? "", $0.phone ?? ""]
                        }
                    ).render()
                let ids = group.cards.prefix(2).map { prefixes.prefix(of: $0.id) }
                text += "(\(group.reasons.joined(separator: ", ")); `cardwallet merge \(ids.joined(separator: " "))`)\n"
            }
            Console.out(text)
        }
    }
}
