import CardBackend
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
    /// Whether the session is over (log in first): the rest stays `pending` for the next login.
    public var stoppedForLogin = false
    /// Entries still waiting.
    public var pending = 0
}

extension CachedWallet {
    /// Sends the changes made offline, in the order they were made, one at a time, through the
    /// one write path (so each answer is recorded in the cache).
    ///
    /// Exactly once, whatever runs at the same time: each entry is claimed in the cache before it
    /// goes (``CardCache/OutboxClaims``: a compare-and-set with a lease, renewed while the
    /// request is on the wire) and marked `sent` when answered, so two replays — this process's
    /// and a `cardwallet sync`, say — take turns and send each entry once. An entry whose earlier
    /// claimant stopped while sending it is first looked up on the server — an addition whose
    /// card exists, an edit whose fields are there, a delete whose card is gone counts as sent.
    /// Additions carry the idempotency key made when they were queued, so one sent again makes
    /// no second card. Edits and deletes carry the revision they were made on, so a card changed
    /// on the server meanwhile comes back as a conflict and is refused, never silently
    /// overwritten. An addition's local id is replaced by the server's in the entries after it.
    /// A failure no other entry could do better with (the server unreachable, the session over)
    /// stops it, and the rest waits, nothing refused.
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
                if case .transfer(let order) = entry.change {
                    // A move, a copy or a merge: every step can be repeated, so it carries on
                    // from where its order stands, interrupted or not.
                    try await claims.renewing(entry.id) {
                        try await carryOut(order, entryID: entry.id, claims: claims)
                    }
                    if attempt({ try cache.markSent(entry.id, by: me) }) != false { report.sent += 1 }
                    continue
                }
                if interrupted, try await alreadyApplied(entry.change, newIDs: &newIDs) {
                    if attempt({ try cache.markSent(entry.id, by: me, newCardID: newID(entry, newIDs)) }) != false {
                        report.sent += 1
                    }
                    continue
                }
                try await claims.renewing(entry.id) {
                    try await send(entry.change, key: entry.idempotencyKey, newIDs: &newIDs)
                }
                if attempt({ try cache.markSent(entry.id, by: me, newCardID: newID(entry, newIDs)) }) != false {
                    report.sent += 1
                }
            } catch let error as any BackendFailure where error.stopsBatch && error.failureKind != .cancelled {
                // The server cannot be reached, or the session is over: nothing is refused, the
                // rest waits for the next try (after the next login).
                attempt { try cache.markFailed(entry.id, by: me, reason: String(describing: error), retry: true) }
                report.stoppedOffline = error.isNetworkFailure
                report.stoppedForLogin = error.requiresLogin
                report.pending = attempt { try cache.pendingChanges().count } ?? 0
                break
            } catch is TransferPeersMissing {
                // Another book is out of this replay's reach: the transfer waits, and so does
                // what comes after it.
                attempt { try cache.releaseClaim(entry.id, by: me) }
                report.pending = attempt { try cache.pendingChanges().count } ?? 0
                break
            } catch is ClaimLost {
                // Another replay took it over after this one stalled: it settles it.
                continue
            } catch  where Task.isCancelled || BackendFailures.kind(of: error) == .cancelled {
                // Not a refusal: the next replay checks the server for it and goes on.
                attempt { try cache.releaseClaim(entry.id, by: me) }
                break
            } catch {
                let reason = String(describing: error)
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

    private func send(_ change: OutboxChange, key: IdempotencyKey?, newIDs: inout [String: String]) async throws {
        switch change {
        case .add(let localID, let fields, let image):
            let upload = try image.map(Self.upload)
            defer { if let upload { try? FileManager.default.removeItem(at: upload.url) } }
            let card = try await create(fields, image: upload, key: key ?? IdempotencyKey())
            newIDs[localID] = card.value.id
        case .edit(let id, let fields, let revision):
            _ = try await update(id: newIDs[id] ?? id, fields: fields, revision: revision)
        case .delete(let id, let revision):
            do {
                _ = try await delete(id: newIDs[id] ?? id, revision: revision)
            } catch  where BackendFailures.isNotFound(error) {
                // Gone already is what the change asked for.
            }
        case .transfer:
            // Carried out by `carryOut`, never sent as one request.
            break
        case .reorder(let order):
            // The wallet may have changed on the server meanwhile, so the order made offline is
            // laid over the server's current one: the cards it names that still exist first, in
            // its order, then the others as they are.
            let current = try await listWhole().map(\.id)
            let existing = Set(current)
            var named = Set<String>()
            let first = order.map { newIDs[$0] ?? $0 }.filter { existing.contains($0) && named.insert($0).inserted }
            _ = try await reorder(first + current.filter { !named.contains($0) })
        }
    }

    /// Whether the server already has what an interrupted entry asked for.
    private func alreadyApplied(_ change: OutboxChange, newIDs: inout [String: String]) async throws -> Bool {
        switch change {
        case .add(let localID, let fields, _):
            let known = Set(cachedList()?.cards.map(\.id) ?? [])
            let listed = try await backend.listing(.whole(since: nil))
            guard case .whole(let summaries, _, _) = listed else { return false }
            for summary in summaries where !known.contains(summary.id) && summary.name == fields.name {
                let card = try await backend.card(id: summary.id)
                if card.fields == fields {
                    newIDs[localID] = card.id
                    return true
                }
            }
            return false
        case .edit(let id, let fields, _):
            return try await backend.card(id: newIDs[id] ?? id).fields == fields
        case .delete(let id, _):
            do {
                _ = try await backend.card(id: newIDs[id] ?? id)
            } catch  where BackendFailures.isNotFound(error) {
                return true
            }
            return false
        case .reorder, .transfer:
            return false
        }
    }

    /// An outbox picture as an upload: written to a private temporary file (uploads stream from
    /// disk), checked as any picture is.
    private static func upload(_ image: OutboxImage) throws -> ImageUpload {
        let file = FileManager.default.temporaryDirectory.appending(path: "cardwallet-outbox-\(UUID().uuidString)")
        do {
            try image.data.write(to: file, options: .atomic)
        } catch {
            throw ImageUploadError(path: file.path, problem: .unreadable)
        }
        return try ImageUpload(validating: file)
    }
}
