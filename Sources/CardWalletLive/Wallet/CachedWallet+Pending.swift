import CardCache
import CardModels
import CardWalletUI
import Logging

extension CachedWallet {
    /// The cached wallet with the changes still waiting in the outbox applied, as the interface
    /// shows it offline: a list read from the cache while changes wait (the offline retries
    /// reload it, and so does the next start) must not make an addition vanish, an edit revert
    /// or a deleted card come back until the server has them. Edits the server refused stay out
    /// (they wait in the conflict view, on the server's version).
    func cachedListWithPendingChanges() -> CachedList? {
        cache.flatMap { Self.listWithPendingChanges(in: $0, logger: logger) }
    }

    /// ``cachedListWithPendingChanges()`` of `cache`, failures logged to `logger`: for the
    /// interface's early read, made before there is a client and so a wallet.
    static func listWithPendingChanges(in cache: CardCache, logger: Logger) -> CachedList? {
        guard var list = attempt(logger, { try cache.list() }) ?? nil else { return nil }
        guard let pending = attempt(logger, { try cache.pendingChanges() }), !pending.isEmpty else { return list }
        list.cards = applying(pending, to: list.cards)
        return list
    }

    /// The interface's first frame from `list`: the cached wallet as one page.
    static func firstFrame(_ list: CachedList) -> AppAction {
        let page = CardPage(cards: list.cards, total: list.cards.count, offset: 0, limit: max(1, list.cards.count))
        return .cachedWallet(page, asOf: list.confirmedAt)
    }

    /// `cards` after `entries`, in their order.
    static func applying(_ entries: [OutboxEntry], to cards: [CardSummary]) -> [CardSummary] {
        var cards = cards
        for entry in entries {
            switch entry.change {
            case .add(let localID, let fields, _):
                guard !cards.contains(where: { $0.id == localID }) else { continue }
                cards.append(
                    CardSummary(
                        id: localID, name: fields.name, title: fields.title, company: fields.company,
                        email: fields.email, defaultImage: fields.defaultImage, updatedAt: entry.createdAt,
                        revision: .unsent))
            case .edit(let id, let fields, _):
                guard let index = cards.firstIndex(where: { $0.id == id }) else { continue }
                cards[index].name = fields.name
                cards[index].title = fields.title
                cards[index].company = fields.company
                cards[index].email = fields.email
                cards[index].updatedAt = entry.createdAt
            case .delete(let id, _):
                cards.removeAll { $0.id == id }
            case .transfer:
                // The card stays where it is until its new book has it (and, for a move, until
                // it is deleted here, which the list then says).
                continue
            case .reorder(let order):
                // The cards named first, in that order; the others after them, as they were.
                var byID: [String: CardSummary] = [:]
                for card in cards { byID[card.id] = card }
                let named = order.compactMap { byID.removeValue(forKey: $0) }
                cards = named + cards.filter { byID[$0.id] != nil }
            }
        }
        return cards
    }
}
