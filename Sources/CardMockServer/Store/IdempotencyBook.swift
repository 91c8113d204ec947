import CardModels
import Crypto
import Foundation

/// The first answers to `POST /card` by `Idempotency-Key` (docs/API.md, the IETF httpapi
/// draft's semantics): per account, for ``IdempotencyKey/lifetime`` (24 h) by the server's
/// clock, in memory only (a restart forgets them, as it forgets tokens without `--data`).
///
/// A request is told by a fingerprint of what it asks for — the normalised fields and the
/// image's type and bytes — not of its bytes on the wire: a multipart body sent again has
/// another boundary, and the same card is the same request.
struct IdempotencyBook: Sendable {
    /// What a key says about a request.
    enum Lookup: Equatable {
        /// Unknown (or expired): make the card.
        case new
        /// The same request within the lifetime: answer with the card first made.
        case replay(APICard)
        /// Another request with the same key within the lifetime: refuse (422).
        case mismatch
    }

    private struct Slot: Hashable {
        var userID: String
        var key: IdempotencyKey
    }

    private struct Answer {
        var fingerprint: Data
        var card: APICard
        var expiresAt: Date
    }

    private var answers: [Slot: Answer] = [:]
    /// Slots in the order they were recorded, so expired ones are dropped from the front.
    private var order: [Slot] = []
    private var head = 0

    /// The fingerprint of a create: SHA-256 over the canonical JSON of `fields`, then the
    /// image's type and bytes.
    static func fingerprint(_ fields: CardFields, image: SeedImage?) -> Data {
        var hash = SHA256()
        hash.update(data: (try? CardWalletJSON.encoder().encode(fields)) ?? Data())
        if let image {
            hash.update(data: Data("\u{0}\(image.contentType)\u{0}".utf8))
            hash.update(data: image.data)
        }
        return Data(hash.finalize())
    }

    /// What `key` of `userID` says about a request with `fingerprint` at `now`.
    mutating func lookup(userID: String, key: IdempotencyKey, fingerprint: Data, now: Date) -> Lookup {
        dropExpired(now: now)
        guard let answer = answers[Slot(userID: userID, key: key)], answer.expiresAt > now else { return .new }
        return answer.fingerprint == fingerprint ? .replay(answer.card) : .mismatch
    }

    /// Keeps `card` as the answer to `key` of `userID` for the lifetime from `now`.
    mutating func record(userID: String, key: IdempotencyKey, fingerprint: Data, card: APICard, now: Date) {
        let slot = Slot(userID: userID, key: key)
        answers[slot] = Answer(
            fingerprint: fingerprint, card: card, expiresAt: now.addingTimeInterval(IdempotencyKey.lifetime))
        order.append(slot)
    }

    /// Drops the answers at the front whose time is over, so the book does not grow for ever.
    private mutating func dropExpired(now: Date) {
        while head < order.count, let answer = answers[order[head]], answer.expiresAt <= now {
            answers[order[head]] = nil
            head += 1
        }
        // A slot already dropped (recorded again later) is skipped.
        while head < order.count, answers[order[head]] == nil { head += 1 }
        if head > 64, head * 2 > order.count {
            order.removeFirst(head)
            head = 0
        }
    }
}
