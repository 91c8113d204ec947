import CardBackend
import CardModels
import CardWalletLive
import CardWalletUI

/// A card of `--book all`'s JSON: the card's summary with its book and account.
struct BookedSummary: Encodable {
    var card: CardSummary
    var book: WalletBook

    enum Keys: String, CodingKey { case book, account }

    func encode(to encoder: any Encoder) throws {
        try card.encode(to: encoder)
        var container = encoder.container(keyedBy: Keys.self)
        try container.encode(book.label, forKey: .book)
        try container.encode(book.account, forKey: .account)
    }
}

/// What `--book all` says on standard error about the books it could not read from their servers.
enum AllBooksOutput {
    /// Names each book whose cards came from its cache (when, and why) or could not be read at
    /// all; throws when no book could be read.
    ///
    /// - Throws: ``CommandFailure`` (exit 6, or 3 when no account is logged in) when nothing
    ///   could be listed.
    static func report(_ listings: [BookListing], offline: Bool) throws {
        guard !listings.isEmpty else {
            throw CommandFailure(
                "No address books: no account is logged in (`cardwallet login` adds one).",
                status: CLIExitCode.loginRequired)
        }
        for listing in listings {
            let book =
                "the book “\(TerminalText.escaped(listing.book.label))” (\(TerminalText.escaped(listing.book.account)))"
            if let asOf = listing.offlineAsOf, !offline {
                Console.warning(
                    "\(book): \(listing.problem.map(TerminalText.escaped) ?? "offline"); cards as of \(OfflineTime.text(asOf))"
                )
            } else if listing.offlineAsOf == nil, let problem = listing.problem {
                Console.warning("\(book) is left out: \(TerminalText.escaped(problem))")
            }
        }
        if offline, let oldest = listings.compactMap(\.offlineAsOf).min() {
            CommandContext.sayOffline(oldest)
        }
        if listings.allSatisfy({ $0.offlineAsOf == nil && $0.problem != nil }) {
            throw CommandFailure(
                "No address book could be read (neither its server nor its cache).", status: CLIExitCode.networkFailure)
        }
    }
}

extension CommandContext {
    /// The shortest unique prefixes of `ids`, unique among every card the caches of every book
    /// know (so that a prefix `list` shows names one card wherever a command looks, however
    /// few cards a query or one book shows).
    func prefixes(for ids: [String]) async -> UniquePrefixes {
        let books = await shelf.books()
        return UniquePrefixes(ids, among: await shelf.knownIDs(among: books))
    }
}
