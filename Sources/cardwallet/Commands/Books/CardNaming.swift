import CardBackend
import CardModels
import CardWalletLive
import Foundation

/// `--book all`: every address book of every stored account at once.
enum AllBooks {
    /// Whether a `--book` value means every book.
    static func isAll(_ book: String) -> Bool { book.trimmingCharacters(in: .whitespaces).lowercased() == "all" }

    /// What a command that works on one book says to `--book all`.
    static let refusal =
        "--book all works with list, query, export and sync: this command works on one card or one book. "
        + "Name the card (its id, the start of it, or a search that finds only it), or give --book ID."
}

extension CommandContext {
    /// The wallet of the book the card `name` is in, and the card's own id there. A name is the
    /// card's whole id, the start of it (as `list` shows it), or a search that finds that card
    /// only (docs/CLI.md, "Naming cards"), in any book of any stored account; the book in use
    /// wins a whole id two books hold. A name no cache knows is looked up again after the book
    /// in use is synced (online), then taken as an id of that book, whose server says whether
    /// it exists.
    ///
    /// An account named for the command (`--account`, `CARDWALLET_ACCOUNT`) narrows the search to
    /// its books, and a server named (`--server`, `CARDWALLET_SERVER`, the config file) to the
    /// accounts at that server: `edit demo-02 --server URL` edits the card at URL, even when
    /// another server's cache knows a card of that id.
    ///
    /// - Throws: ``CommandFailure`` (exit 64) listing the candidates when the name fits several cards.
    func named(_ name: String) async throws -> (wallet: CachedWallet, id: String, book: WalletBook?) {
        let everyBook = await shelf.books()
        let current = await shelf.currentBook(among: everyBook)
        let books = booksInScope(everyBook, current: current)
        if let found = try await lookUp(name, among: books, current: current) {
            return (try await shelf.wallet(for: found.book), found.id, found.book)
        }
        if !offline, let current {
            let wallet = try await shelf.wallet(for: current)
            if (try? await wallet.list(.online)) != nil,
                let found = try await lookUp(name, among: books, current: current)
            {
                return (try await shelf.wallet(for: found.book), found.id, found.book)
            }
        }
        return (await self.wallet(), name, current)
    }

    /// The books a name is looked up in: every book, or those of the account or server the
    /// command was given.
    private func booksInScope(_ books: [WalletBook], current: WalletBook?) -> [WalletBook] {
        let settings = resolved.settings
        if let book = settings.book, !AllBooks.isAll(book) {
            // `--book ID`: that book of the account in use, and no other.
            return books.filter { $0 == current }
        }
        if settings.account != nil {
            return books.filter { $0.account == current?.account }
        }
        if !settings.serverIsDefault {
            return books.filter { $0.server == current?.server }
        }
        return books
    }

    private func lookUp(_ name: String, among books: [WalletBook], current: WalletBook?) async throws -> NamedCard? {
        do {
            return try await shelf.card(named: name, among: books, current: current)
        } catch {
            throw CommandFailure.usage(error.description)
        }
    }
}
