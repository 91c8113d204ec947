import CardBackend
import CardCache
import CardModels
import CardWalletUI
import Foundation

extension CallPerformer {
    /// Hits per keystroke that come with the field they matched: a tall terminal's list.
    static let searchHitsWithFields = 100

    /// The cached cards matching `query` in any field (the FTS5 indexes), without the network:
    /// every match's id in wallet order, and for the first ``searchHitsWithFields`` the field
    /// that matched with its excerpt (docs/Cache.md, *Search*).
    static func search(_ query: String, in wallet: CachedWallet) -> CallOutcome {
        guard let cache = wallet.cache else { return .failure(UIFailure(.other, message: "no card cache")) }
        do {
            let result = try cache.search(query, limit: searchHitsWithFields, allIDs: true, excerpts: true)
            var fields: [String: FieldMatch] = [:]
            // A name match is the list's first column: nothing to add.
            for hit in result.hits where hit.field != .name {
                fields[hit.cardID] = FieldMatch(field: hit.field, excerpt: hit.excerpt ?? "")
            }
            return .success(.cacheMatches(query: query, ids: result.allIDs, fields: fields))
        } catch {
            return .failure(
                UIFailure(.other, message: "the card cache cannot be searched: \(CachedWallet.text(error))"))
        }
    }

    /// The list's answer from the cache after `error`, when the server could not be reached and
    /// the cache has it; `nil` otherwise (the failure stands). Changes are queued by the write
    /// path itself and cards read by the wallet's own offline reads.
    func offlineAnswer(_ call: AppCall, after error: any Error, wallet: CachedWallet?) -> CallOutcome? {
        guard BackendFailures.isNetworkFailure(error), case .loadCards(let offset, let limit, nil) = call else {
            return nil
        }
        // No cache could be had for the account, or nothing is cached: say so, and let the
        // interface keep trying.
        guard let list = wallet?.cachedListWithPendingChanges() else {
            return offset == 0 ? .success(.offlineNothingCached) : nil
        }
        let slice = Array(list.cards.dropFirst(offset).prefix(offset == 0 ? list.cards.count : limit))
        let page = CardPage(cards: slice, total: list.cards.count, offset: offset, limit: max(1, slice.count))
        return .success(.cachedCards(page, asOf: list.confirmedAt))
    }
}
