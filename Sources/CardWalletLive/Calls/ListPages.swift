import CardBackend
import CardCache
import CardModels
import CardWalletUI
import Foundation
import Synchronization

/// The interface's list, a page at a time: from the backend's pages when it pages its listings
/// (gathered until the whole wallet has come, then stored as the cached wallet: a partial list
/// is never stored, it would lose the other cards' order), else from one whole listing — synced
/// into the cache by token where the backend can — and sliced here.
final class ListPages: Sendable {
    private let gathered = Mutex<[CardSummary]>([])

    /// The page of `limit` cards from `offset` (only the cards matching `query`, when given).
    func load(offset: Int, limit: Int, query: String?, wallet: CachedWallet, accounts: WalletAccounts) async throws
        -> CallResult
    {
        let backend = wallet.backend
        if let query {
            let cards = try await backend.search(query)
            let slice = Array(cards.dropFirst(offset).prefix(limit))
            return .cards(CardPage(cards: slice, total: cards.count, offset: offset, limit: limit))
        }
        guard backend.capabilities.pagesListings else {
            // One whole listing (the changes since the cache's token) at the first page; the
            // later pages from what it recorded. Offline, the caller answers from the cache.
            let cards = offset == 0 ? try await wallet.serverList() : try wallet.offlineList().value
            if offset == 0 { accounts.filler.fill(cards, in: wallet) }
            let slice = Array(cards.dropFirst(offset).prefix(limit))
            return .cards(CardPage(cards: slice, total: cards.count, offset: offset, limit: limit))
        }
        guard case .page(let page) = try await backend.listing(.page(offset: offset, limit: limit)) else {
            throw CannotQueue(description: "the server did not answer with a page")
        }
        record(page, in: wallet, accounts: accounts)
        return .cards(page)
    }

    /// Gathers `page`; once the whole wallet has come, stores it and starts filling whole cards.
    private func record(_ page: CardPage, in wallet: CachedWallet, accounts: WalletAccounts) {
        guard let cache = wallet.cache else { return }
        let whole: [CardSummary]? = gathered.withLock { cards in
            if page.offset == 0 { cards = [] }
            guard page.offset == cards.count else { return nil }
            cards += page.cards
            return cards.count >= page.total ? cards : nil
        }
        guard let whole else { return }
        wallet.attempt { try cache.storeList(whole, confirmedAt: Date()) }
        // Whole cards for offline export, QR and search, behind the person's own calls.
        accounts.filler.fill(whole, in: wallet)
    }
}
