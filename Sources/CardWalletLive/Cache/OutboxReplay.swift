import CardAPI
import CardCache
import CardModels
import Foundation
import Logging

/// What sending the outbox did.
public struct OutboxReplayReport: Sendable, Equatable {
    /// Entries the server accepted (or had already applied before an interruption).
    public var sent: Int = 0
    /// Entries the server refused (a conflict, a card gone, invalid fields), with why. They stay
    /// in the outbox as `failed` for the person to look at; never sent again by themselves.
    public var refused: [String] = []
    /// Whether the server could not be reached: the rest stays `pending` for the next attempt.
    public var stoppedOffline = false
    /// Entries still waiting.
    public var pending = 0
}

extension CachedWallet {
    /// Sends the changes made offline, in the order they were made, one at a time, recording
    /// each answer in the cache.
    ///
    /// Exactly once, whatever runs at the same time: each entry is claimed in the cache before it
    /// goes (``CardCache/OutboxClaims``: a compare-and-set with a lease, renewed while the
    /// request is on the wire) and marked `sent` when answered, so two replays — this process's
    /// and a `cardwallet sync`, say — take turns and send each entry once. An entry whose earlier
    /// claimant stopped while sending it is first looked up on the server — an addition whose
    /// card exists, an edit whose fields are there, a delete whose card is gone counts as sent.
    /// Additions carry the `Idempotency-Key` made when they were queued, so one sent again makes
    /// no second card. Edits and deletes carry `If-Match` with the version they were made on, so
    /// a card changed on the server meanwhile comes back as a conflict (E07) and is refused,
    /// never silently overwritten. An addition's local id is replaced by the server's in the
    /// entries after it.
    public func replayOutbox() async -> OutboxReplayReport {
        var report = OutboxReplayReport()
        guard let cache else { return report }
        let claims = OutboxClaims(cache: cache)
        let me = claims.claimant
        var newIDs: [String: String] = [:]
        while true {
            let next: (entry: OutboxEntry, interrupted: Bool)?
            do {
                next = try await claims.next()
            } catch {
                logger.notice("The card cache: \(Self.text(error))")
                break
            }
            guard let (entry, interrupted) = next else { break }
            do {
                if interrupted, try await alreadyApplied(entry.change, newIDs: &newIDs) {
                    if attempt({ try cache.markSent(entry.id, by: me, newCardID: newID(entry, newIDs)) }) != false {
                        report.sent += 1
                    }
                    continue
                }
                try await claims.renewing(entry.id) {
                    try await send(entry.change, key: entry.idempotencyKey, cache, newIDs: &newIDs)
                }
                if attempt({ try cache.markSent(entry.id, by: me, newCardID: newID(entry, newIDs)) }) != false {
                    report.sent += 1
                }
            } catch let error as CardAPIError where error.isNetworkFailure {
                attempt { try cache.markFailed(entry.id, by: me, reason: error.description, retry: true) }
                report.stoppedOffline = true
                report.pending = attempt { try cache.pendingChanges().count } ?? 0
                break
            } catch  where Task.isCancelled || error as? CardAPIError == .cancelled {
                // Not a refusal: the next replay checks the server for it and goes on.
                attempt { try cache.releaseClaim(entry.id, by: me) }
                break
            } catch {
                let reason = (error as? CardAPIError)?.description ?? String(describing: error)
                if attempt({ try cache.markFailed(entry.id, by: me, reason: reason, retry: false) }) != false {
                    report.refused.append(reason)
                }
            }
        }
        attempt { try cache.removeSentChanges() }
        return report
    }

    /// The server's id of the card an addition made, once known.
    private func newID(_ entry: OutboxEntry, _ newIDs: [String: String]) -> String? {
        guard case .add(let localID, _, _) = entry.change else { return nil }
        return newIDs[localID]
    }

    private func send(
        _ change: OutboxChange, key: IdempotencyKey?, _ cache: CardCache, newIDs: inout [String: String]
    ) async throws {
        let now = Date()
        switch change {
        case .add(let localID, let fields, let image):
            let card = try await create(fields, image: image, key: key ?? IdempotencyKey())
            newIDs[localID] = card.id
            attempt { try cache.storeCard(card, confirmedAt: now) }
        case .edit(let id, let fields, let version):
            let card = try await client.updateCard(id: newIDs[id] ?? id, fields: fields, version: version)
            attempt { try cache.storeCard(card, confirmedAt: now) }
        case .delete(let id, let version):
            do {
                try await client.deleteCard(id: newIDs[id] ?? id, version: version)
            } catch {
                // Gone already is what the change asked for.
                if !error.isNotFound { throw error }
            }
            attempt { try cache.removeCard(id: newIDs[id] ?? id) }
        case .reorder(let order):
            // `PUT /cards` names every card once; the wallet may have changed on the server
            // meanwhile, so the order made offline is laid over the server's current one: the
            // cards it names that still exist first, in its order, then the others as they are.
            let current = try await client.allCards().map(\.id)
            let existing = Set(current)
            var named = Set<String>()
            let first = order.map { newIDs[$0] ?? $0 }.filter { existing.contains($0) && named.insert($0).inserted }
            let stored = try await client.reorderCards(first + current.filter { !named.contains($0) })
            attempt { try cache.storeOrder(stored) }
        }
    }

    /// Whether the server already has what an interrupted entry asked for.
    private func alreadyApplied(_ change: OutboxChange, newIDs: inout [String: String]) async throws -> Bool {
        switch change {
        case .add(let localID, let fields, _):
            let known = Set(cachedList()?.cards.map(\.id) ?? [])
            let listed = try await client.allCards()
            for summary in listed where !known.contains(summary.id) && summary.name == fields.name {
                let card = try await client.card(id: summary.id)
                if card.fields == fields {
                    newIDs[localID] = card.id
                    return true
                }
            }
            return false
        case .edit(let id, let fields, _):
            return try await client.card(id: newIDs[id] ?? id).fields == fields
        case .delete(let id, _):
            do {
                _ = try await client.card(id: newIDs[id] ?? id)
            } catch {
                if error.isNotFound { return true }
                throw error
            }
            return false
        case .reorder:
            return false
        }
    }

    private func create(_ fields: CardFields, image: OutboxImage?, key: IdempotencyKey) async throws -> Card {
        guard let image else { return try await client.createCard(fields, idempotencyKey: key) }
        let file = FileManager.default.temporaryDirectory.appending(path: "cardwallet-outbox-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: file) }
        do {
            try image.data.write(to: file, options: .atomic)
        } catch {
            throw CardAPIError.invalidImage(path: file.path, problem: .unreadable)
        }
        return try await client.createCard(fields, imageAt: file, idempotencyKey: key)
    }
}
