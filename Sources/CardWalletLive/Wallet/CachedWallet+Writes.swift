public import CardBackend
import CardCache
public import CardModels
import Foundation
import Logging

/// What a change does when the server cannot be reached.
public enum OfflineWrites: Sendable, Equatable {
    /// It fails: a script must know the server has not got it.
    case fail
    /// It is kept in the cache's outbox and sent when the server is back (the interface).
    case queue
}

/// A change's answer.
public enum WriteAnswer<Value: Sendable>: Sendable {
    /// The server has it; this is its answer, recorded in the cache.
    case done(Value)
    /// The server could not be reached: the change waits in the outbox, and this is what to
    /// show meanwhile.
    case queued(Value)

    /// The value, done or queued.
    public var value: Value {
        switch self {
        case .done(let value), .queued(let value): value
        }
    }
}

/// A change that cannot wait in the outbox: it needs the server now.
public struct CannotQueue: BackendFailure, Equatable {
    /// Why, in one sentence.
    public var description: String

    public var failureKind: BackendFailureKind { .other }
}

/// The one write path (docs/Architecture.md): every change — a scripting command's, the
/// interface's, the outbox's — goes to the backend through these methods, and the cache records
/// the server's answer at once, so that after any write the cache holds what the server holds.
/// Offline, a change may be queued in the outbox instead (``OfflineWrites/queue``).
extension CachedWallet {
    /// Makes a card at the end of the wallet.
    ///
    /// - Parameters:
    ///   - fields: its fields.
    ///   - image: a picture checked with ``CardBackend/ImageUpload/init(validating:maximumBytes:)``.
    ///   - key: made once when the person asked for the card, so a create repeated after a lost
    ///     answer makes one card.
    ///   - offline: what to do when the server cannot be reached (a card with a picture cannot wait).
    public func create(
        _ fields: CardFields, image: ImageUpload? = nil, key: IdempotencyKey = IdempotencyKey(),
        offline: OfflineWrites = .fail
    ) async throws -> WriteAnswer<Card> {
        do {
            let card = try await backend.create(fields, image: image, key: key)
            record { try $0.storeCard(card, confirmedAt: Date()) }
            return .done(card)
        } catch  where shouldQueue(error, offline) {
            guard image == nil else {
                throw CannotQueue(description: "offline: a card with a picture can be added once the server is back")
            }
            let now = Date()
            let id = CardCache.localIDPrefix + String(Int(now.timeIntervalSince1970 * 1_000_000))
            // Queued with the key it was just sent with: a create whose answer was lost, sent
            // again from the outbox, makes one card.
            try enqueue(.add(localID: id, fields: fields, image: nil), key: key, after: error)
            return .queued(Card(id: id, fields: fields, createdAt: now, updatedAt: now, revision: .unsent))
        }
    }

    /// Replaces a card's fields, only if it is still at `revision`.
    ///
    /// - Throws: a conflict when the card changed meanwhile (nothing is changed; read the
    ///   server's card with ``conflictingCard(id:)``), "not found" when it is gone.
    public func update(
        id: String, fields: CardFields, revision: CardRevision, offline: OfflineWrites = .fail
    ) async throws -> WriteAnswer<Card> {
        do {
            let card = try await backend.update(base(id: id, revision: revision), to: fields)
            record { try $0.storeCard(card, confirmedAt: Date()) }
            return .done(card)
        } catch  where shouldQueue(error, offline) {
            guard var shown = cache.flatMap({ cache in attempt { try cache.card(id: id) } ?? nil })?.card else {
                throw error
            }
            shown.fields = fields
            try enqueue(.edit(cardID: id, fields: fields, baseRevision: revision), after: error)
            return .queued(shown)
        }
    }

    /// Deletes a card, only if it is still at `revision` when one is given. A card already gone
    /// is forgotten here too, and the failure says so.
    public func delete(id: String, revision: CardRevision?, offline: OfflineWrites = .fail) async throws
        -> WriteAnswer<String>
    {
        do {
            try await backend.delete(id: id, revision: revision)
            record { try $0.removeCard(id: id) }
            return .done(id)
        } catch  where shouldQueue(error, offline) {
            guard let base = revision ?? cachedList()?.cards.first(where: { $0.id == id })?.revision else {
                throw error
            }
            try enqueue(.delete(cardID: id, baseRevision: base), after: error)
            return .queued(id)
        } catch  where BackendFailures.isNotFound(error) {
            record { try $0.removeCard(id: id) }
            throw error
        }
    }

    /// Replaces a card's picture (`nil` removes it), only if the card is still at `revision`.
    /// Never queued: the picture is read when it is sent.
    public func setImage(of id: String, revision: CardRevision, to image: ImageUpload?) async throws -> Card {
        let card = try await backend.setImage(of: base(id: id, revision: revision), to: image)
        record { try $0.storeCard(card, confirmedAt: Date()) }
        return card
    }

    /// Saves a new wallet order: every card once. Where the backend keeps no order (CardDAV),
    /// the order is kept here, in the cache.
    ///
    /// - Returns: the order as stored.
    public func reorder(_ order: [String], offline: OfflineWrites = .fail) async throws -> WriteAnswer<[String]> {
        guard backend.capabilities.keepsOrder else {
            record { try $0.storeOrder(order) }
            return .done(order)
        }
        do {
            let stored = try await backend.reorder(order)
            record { try $0.storeOrder(stored) }
            return .done(stored)
        } catch  where shouldQueue(error, offline) {
            try enqueue(.reorder(order), after: error)
            return .queued(order)
        }
    }

    /// The server's card after a change was refused as a conflict, recorded in the cache; `nil`
    /// when it cannot be read (gone, or the server unreachable). The one place a conflict
    /// learns what the server has now.
    public func conflictingCard(id: String) async -> Card? {
        guard let card = try? await backend.card(id: id) else { return nil }
        record { try $0.storeCard(card, confirmedAt: Date()) }
        return card
    }

    /// The card a change of `id` at `revision` is based on: the cache's whole card when it is at
    /// that revision (with what the server keeps of it, for a lossless edit), else just its id
    /// and revision (the backend reads the rest again when it needs it).
    private func base(id: String, revision: CardRevision) -> Card {
        if let cached = cache.flatMap({ cache in attempt { try cache.card(id: id) } ?? nil })?.card,
            cached.revision == revision
        {
            return cached
        }
        let distant = Date(timeIntervalSince1970: 0)
        return Card(id: id, fields: CardFields(name: ""), createdAt: distant, updatedAt: distant, revision: revision)
    }

    /// Whether `error` sends the change to the outbox.
    private func shouldQueue(_ error: any Error, _ offline: OfflineWrites) -> Bool {
        offline == .queue && cache != nil && BackendFailures.isNetworkFailure(error)
    }

    /// Puts `change` in the outbox; when it cannot be kept, the network failure stands.
    private func enqueue(_ change: OutboxChange, key: IdempotencyKey? = nil, after failure: any Error) throws {
        guard let cache else { throw failure }
        do {
            try cache.enqueue(change, idempotencyKey: key)
        } catch {
            logger.warning("The change could not be kept offline: \(Self.text(error))")
            throw failure
        }
    }

    /// Records the server's answer in the cache, if there is one (a failure is logged).
    private func record(_ body: (CardCache) throws -> Void) {
        guard let cache else { return }
        attempt { try body(cache) }
    }
}
