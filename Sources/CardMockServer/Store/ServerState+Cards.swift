import CardModels
import Foundation

extension ServerState {
    /// One page of the user's wallet.
    func page(userID: String, offset: Int, limit: Int, query: String) -> APICardPage {
        snapshot.cards.page(ownerID: userID, offset: offset, limit: limit, query: query)
    }

    /// The user's card (E05 when missing or someone else's).
    func card(userID: String, id: String) throws(APIError) -> StoredCard {
        guard CardIdentifier.isWellFormed(id), let stored = snapshot.cards.card(id, ownerID: userID) else {
            throw .cardNotFound
        }
        return stored
    }

    /// Creates a card at the end of the user's wallet; with an `Idempotency-Key`, once: the
    /// same request again within 24 hours gets the card first made (`replayed`), another
    /// request with the key is refused (422 E01). The key is looked up and recorded in this one
    /// actor call, so two requests with the same key at once make one card too.
    func create(userID: String, fields: CardFields, image: SeedImage?, idempotencyKey: IdempotencyKey? = nil)
        throws(APIError) -> (card: APICard, replayed: Bool)
    {
        let now = clock.now
        let fingerprint = idempotencyKey.map { _ in IdempotencyBook.fingerprint(fields, image: image) }
        if let idempotencyKey, let fingerprint {
            switch idempotency.lookup(userID: userID, key: idempotencyKey, fingerprint: fingerprint, now: now) {
            case .new: break
            case .replay(let card): return (card, true)
            case .mismatch: throw .idempotencyKeyReused
            }
        }
        let info = image.map { CardImageInfo(contentType: $0.contentType, size: $0.data.count) }
        let card = APICard(
            id: CardIdentifier.make(prefix: "card"), fields: fields, hasImage: info != nil, image: info,
            createdAt: now, updatedAt: now, version: 1)
        try mutate { (data) throws(APIError) in data.cards.insert(StoredCard(ownerID: userID, card: card, image: image))
        }
        if let idempotencyKey, let fingerprint {
            idempotency.record(userID: userID, key: idempotencyKey, fingerprint: fingerprint, card: card, now: now)
        }
        return (card, false)
    }

    /// Replaces a card's fields (E05, E07).
    func update(userID: String, id: String, fields: CardFields, precondition: VersionPrecondition) throws(APIError)
        -> APICard
    {
        guard CardIdentifier.isWellFormed(id) else { throw .cardNotFound }
        let now = clock.now
        let result = try mutate { (data) throws(APIError) in
            data.cards.update(id, ownerID: userID, fields: fields, precondition: precondition, now: now)
        }
        return try Self.unwrap(result)
    }

    /// Replaces a card's image, or removes it when `image` is `nil` (E05, E07). The same bytes
    /// again, or removing an image the card does not have, change nothing.
    func setImage(userID: String, id: String, image: SeedImage?, precondition: VersionPrecondition) throws(APIError)
        -> APICard
    {
        guard CardIdentifier.isWellFormed(id) else { throw .cardNotFound }
        let now = clock.now
        let result = try mutate { (data) throws(APIError) in
            data.cards.setImage(id, ownerID: userID, image: image, precondition: precondition, now: now)
        }
        return try Self.unwrap(result)
    }

    /// Deletes a card (E05, E07).
    func delete(userID: String, id: String, precondition: VersionPrecondition) throws(APIError) {
        guard CardIdentifier.isWellFormed(id) else { throw .cardNotFound }
        let result = try mutate { (data) throws(APIError) in
            data.cards.delete(id, ownerID: userID, precondition: precondition)
        }
        _ = try Self.unwrap(result)
    }

    /// Sets the wallet order (E01 unless it lists every card exactly once).
    func reorder(userID: String, order: [String]) throws(APIError) -> [String] {
        let result = try mutate { (data) throws(APIError) in data.cards.reorder(ownerID: userID, to: order) }
        return try Self.unwrap(result)
    }

    private static func unwrap<T>(_ result: Result<T, CardBook.Failure>) throws(APIError) -> T {
        switch result {
        case .success(let value): return value
        case .failure(.notFound): throw .cardNotFound
        case .failure(.versionConflict(let current)): throw .versionConflict(current: current)
        case .failure(.badOrder(let problem)):
            throw .badRequest(
                "The new order must list every card of your wallet exactly once.", fields: ["order": problem])
        }
    }
}
