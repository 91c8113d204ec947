import CardAPI
import CardCache
import CardModels
import Foundation

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
    /// Exactly once: an entry is marked `sending` before it goes and `sent` when answered. An
    /// entry found `sending` (a process ended while sending it) is first looked up on the
    /// server — an addition whose card exists, an edit whose fields are there, a delete whose card
    /// is gone counts as sent. Edits and deletes carry `If-Match` with the version they were
    /// made on, so a card changed on the server meanwhile comes back as a conflict (E07) and is
    /// refused, never silently overwritten. An addition's local id is replaced by the server's
    /// in the entries after it.
    public func replayOutbox() async -> OutboxReplayReport {
        var report = OutboxReplayReport()
        guard let cache, let entries = attempt({ try cache.pendingChanges() }) else { return report }
        var newIDs: [String: String] = [:]
        for (index, entry) in entries.enumerated() {
            do {
                if entry.state == OutboxState.sending, try await alreadyApplied(entry.change, newIDs: &newIDs) {
                    attempt { try cache.markSent(entry.id) }
                    report.sent += 1
                    continue
                }
                attempt { try cache.markSending(entry.id) }
                try await send(entry.change, cache, newIDs: &newIDs)
                attempt { try cache.markSent(entry.id) }
                report.sent += 1
            } catch let error as CardAPIError where error.isNetworkFailure {
                attempt { try cache.markFailed(entry.id, reason: error.description, retry: true) }
                report.stoppedOffline = true
                report.pending = entries.count - index
                break
            } catch {
                let reason = (error as? CardAPIError)?.description ?? String(describing: error)
                attempt { try cache.markFailed(entry.id, reason: reason, retry: false) }
                report.refused.append(reason)
            }
        }
        attempt { try cache.removeSentChanges() }
        return report
    }

    private func send(_ change: OutboxChange, _ cache: CardCache, newIDs: inout [String: String]) async throws {
        let now = Date()
        switch change {
        case .add(let localID, let fields, let image):
            let card = try await create(fields, image: image)
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

    private func create(_ fields: CardFields, image: OutboxImage?) async throws -> Card {
        guard let image else { return try await client.createCard(fields) }
        let file = FileManager.default.temporaryDirectory.appending(path: "cardwallet-outbox-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: file) }
        do {
            try image.data.write(to: file, options: .atomic)
        } catch {
            throw CardAPIError.invalidImage(path: file.path, problem: .unreadable)
        }
        return try await client.createCard(fields, imageAt: file)
    }
}
