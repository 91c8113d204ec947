import ArgumentParser
import CardBackend
import CardModels
import CardWalletLive
import CardWalletUI

/// `cardwallet books`: the address books of the account on a CardDAV server.
struct BooksCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "books",
        abstract: "List the address books of the account on a CardDAV server.",
        discussion: """
            A CardDAV account may hold several address books; the wallet shows one. The one in \
            use is marked with *: the one --book, CARDWALLET_BOOK or "book" in the config file \
            names, else the one `login` chose (the first the server lists). Each book has a \
            cache of its own, so switching books is instant once each was read.

            Columns: ID (what --book takes: the last part of the book's path), NAME (the \
            server's display name), PATH, CARDS (how many it held when last synced into this \
            computer's cache; empty for a book never used here: counting would make the server \
            go through every card of every book), and SYNC: "token" when the server sends only \
            what changed (RFC 6578), "etags" when each sync compares every card's ETag.

            With --json, prints one array of objects: id, path, url, name, description, inUse, \
            syncsByToken, and cards when known.

            Examples:
              cardwallet books
              cardwallet --book work list
              CARDWALLET_BOOK=family cardwallet export --format vcard > family.vcf
              cardwallet books --json | jq -r '.[] | select(.inUse) | .id'

            Exit status: 0 listed; 3 log in first; 6 server unreachable; 64 the server is the \
            card API (one wallet per account, no books).
            """)

    @OptionGroup(title: "Server and logging options") var client: ClientOptions

    /// `--json`.
    @Flag(help: "Print the books as one JSON array.")
    var json = false

    func run() async throws {
        try await ClientCommandRunner.run(client, reads: true) { context in
            guard let books = try await context.accounts.addressBooks() else {
                throw CommandFailure.usage(
                    "\(TerminalText.escaped(context.accounts.shownServer)) is a card API server: it keeps one wallet per "
                        + "account, with no address books to choose from. `books` is for CardDAV servers.")
            }
            if json {
                Console.out(try CardText.json(books))
                return
            }
            guard !books.isEmpty else {
                Console.out("No address books.\n")
                return
            }
            let table = TextTable(
                columns: [
                    .init(""), .init("ID"), .init("NAME", maximumWidth: 30), .init("PATH"), .init("CARDS"),
                    .init("SYNC"),
                ],
                rows: books.map {
                    [
                        $0.inUse ? "*" : "", $0.id, $0.name ?? "", $0.path, $0.cards.map(String.init) ?? "",
                        $0.syncsByToken ? "token" : "etags",
                    ]
                })
            Console.out(table.render())
        }
    }
}
