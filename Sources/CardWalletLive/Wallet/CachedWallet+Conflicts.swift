import CardBackend
import CardCache
import CardModels
public import CardWalletUI

/// Edits made offline that the server refused (docs/Cache.md, "Offline, and the outbox"): the
/// ones refused because the card changed there meanwhile go to the interface's conflict view.
extension CachedWallet {
    /// What the refused edits of the outbox turned out to be.
    public struct RefusedEdits: Sendable {
        /// The edits whose card changed on the server meanwhile: the person chooses.
        public var conflicts: [OfflineConflict] = []
        /// The entries looked at that need no choice (the server has the person's fields already,
        /// the card is gone, the edit was refused for another reason): not looked at again.
        public var settled: Set<Int64> = []
    }

    /// The edits of the outbox the server refused, other than `excluding`, each compared with
    /// the server's current card: a card that changed on the server is a conflict; a card that
    /// already holds the person's fields is counted as sent (the entry goes).
    ///
    /// Never sends anything; stops quietly when the server cannot be reached.
    public func refusedEdits(excluding: Set<Int64>) async -> RefusedEdits {
        var found = RefusedEdits()
        guard let cache, let refused = attempt({ try cache.outbox(states: [.failed]) }) else { return found }
        for entry in refused where !excluding.contains(entry.id) {
            guard case .edit(let id, let fields, let baseRevision) = entry.change else { continue }
            let server: Card
            do {
                server = try await backend.card(id: id)
            } catch  where BackendFailures.isNetworkFailure(error) {
                break
            } catch {
                // Gone, or unreadable: the entry stays refused (`cardwallet sync` reports it).
                found.settled.insert(entry.id)
                continue
            }
            if server.fields == fields {
                // The server has what the person typed (sent before an interruption, or made
                // the same elsewhere): nothing to choose.
                attempt { try cache.discard(entry.id) }
                found.settled.insert(entry.id)
                continue
            }
            guard server.revision != baseRevision else {
                // Refused for another reason (invalid fields): not a conflict.
                found.settled.insert(entry.id)
                continue
            }
            let kept = attempt { try cache.card(id: id) } ?? nil
            let original = kept.flatMap { $0.card.revision == baseRevision ? $0.card.fields : nil } ?? server.fields
            found.conflicts.append(
                OfflineConflict(
                    entry: entry.id, fields: fields, original: original, baseRevision: baseRevision, server: server))
        }
        return found
    }
}
