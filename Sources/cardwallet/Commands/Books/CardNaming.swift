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
    /// - Throws: ``CommandFailure`` (exit 64) listing the candidates when the name fits several cards.
    func named(_ name: String) async throws -> (wallet: CachedWallet, id: String, book: WalletBook?) {
        let books = await shelf.books()
        let current = await shelf.currentBook(among: books)
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

    private func lookUp(_ name: String, among books: [WalletBook], current: WalletBook?) async throws -> NamedCard? {
        do {
            return try await shelf.card(named: name, among: books, current: current)
        } catch {
            throw CommandFailure.usage(error.description)
        }
    }
}
