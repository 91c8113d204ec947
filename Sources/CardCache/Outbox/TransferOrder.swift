public import CardModels
public import Foundation
import GRDB

/// A card moved, copied or merged into another book — maybe another account's — kept in the
/// outbox of the book it leaves as **one** entry (docs/Cache.md, *Moves, copies and merges*).
///
/// The entry says everything needed to finish from any step: the target, the key the target's
/// create goes with, the card as read when the person asked, and how far it got (``written``).
/// Each step can be repeated without doing it twice — a create again with its key, a delete of a
/// card gone, a merge written over a card that holds it already — so whichever replay claims the
/// entry next (this process, a `cardwallet sync`, the interface) carries it on from where it
/// stands, and the card is in at least one place at every moment.
public struct TransferOrder: Sendable, Equatable, Codable {
    /// What is done.
    public enum Mode: String, Sendable, Equatable, Codable {
        /// Made in the target, then deleted here.
        case move
        /// Made in the target; this one stays.
        case copy
        /// Written over a card of the target (the merged card), then deleted here.
        case merge
    }

    /// What is done.
    public var mode: Mode
    /// The card in this book (the one the entry's outbox belongs to).
    public var sourceID: String
    /// Its revision when the person asked: the delete goes only if it is still at it.
    public var sourceRevision: CardRevision
    /// The book it goes to.
    public var target: TransferTarget
    /// The create in the target goes with this key (made once, when the person asked), so a
    /// create sent again makes one card.
    public var keyText: String
    /// What is written to the target: the card as it was read (a move, a copy), or the merged card.
    public var card: TransferCard
    /// A merge's card in the target, at the revision it was read: written over only if still at it.
    public var over: TransferWritten?
    /// The card in the target once written: its id and revision there. `nil` until then.
    public var written: TransferWritten?
    /// How many times the card was found changed here before its delete, and the move started
    /// again from its new version (bounded: a card changed that often is left for the person).
    public var restarts: Int

    /// An order.
    public init(
        mode: Mode, sourceID: String, sourceRevision: CardRevision, target: TransferTarget,
        key: IdempotencyKey = IdempotencyKey(), card: TransferCard, over: TransferWritten? = nil,
        written: TransferWritten? = nil, restarts: Int = 0
    ) {
        self.mode = mode
        self.sourceID = sourceID
        self.sourceRevision = sourceRevision
        self.target = target
        self.keyText = key.text
        self.card = card
        self.over = over
        self.written = written
        self.restarts = restarts
    }

    /// The key of the target's create.
    public var key: IdempotencyKey { IdempotencyKey(keyText) ?? IdempotencyKey() }

    /// Whether the card is deleted here once written to the target.
    public var deletesSource: Bool { mode != .copy }
}

/// The book a transfer goes to: which account, which cache.
public struct TransferTarget: Sendable, Hashable, Codable {
    /// The account's name.
    public var account: String
    /// The book's cache key (its backend's `server`).
    public var walletKey: String
    /// The user.
    public var user: String
    /// What people call the book.
    public var label: String

    /// A target.
    public init(account: String, walletKey: String, user: String, label: String) {
        self.account = account
        self.walletKey = walletKey
        self.user = user
        self.label = label
    }
}

/// The card a transfer writes.
public struct TransferCard: Sendable, Equatable, Codable {
    /// Its fields (with the vCard lines it keeps that the wallet does not model).
    public var fields: CardFields
    /// Its whole vCard, when it comes from (or goes to) a server that keeps vCards: written as
    /// it is, so nothing the wallet does not model is lost between two CardDAV books.
    public var vcard: String?
    /// Its picture, when it has one apart from its vCard (the card API's).
    public var image: Data?
    /// The picture's type (`image/png`, `image/jpeg`).
    public var imageType: String?

    /// A card.
    public init(fields: CardFields, vcard: String? = nil, image: Data? = nil, imageType: String? = nil) {
        self.fields = fields
        self.vcard = vcard
        self.image = image
        self.imageType = imageType
    }
}

/// A card as a transfer left it in its target.
public struct TransferWritten: Sendable, Hashable, Codable {
    /// Its id there.
    public var id: String
    /// Its revision there.
    public var revision: CardRevision

    /// A card.
    public init(id: String, revision: CardRevision) {
        self.id = id
        self.revision = revision
    }
}

extension CardCache {
    /// Records how far transfer entry `id` got (the card written to its target), if `claimant`
    /// still holds it: in its own transaction, before the next step is sent, so that a replay
    /// after a crash starts from there.
    ///
    /// - Returns: whether the claim was still `claimant`'s.
    @discardableResult
    public func updateTransfer(_ id: Int64, by claimant: OutboxClaimant, to order: TransferOrder) throws(CacheError)
        -> Bool
    {
        let payload: String
        do {
            payload = try Self.json(order)
        } catch {
            throw CacheError("a transfer cannot be recorded: \(error)")
        }
        return try write { db in
            try db.execute(
                sql: """
                    UPDATE outbox SET payload = ?, cardID = ?, baseRevision = ?
                    WHERE id = ? AND state = 'sending' AND claimant = ?
                    """,
                arguments: [payload, order.sourceID, order.sourceRevision.rawValue, id, claimant.description])
            return db.changesCount == 1
        }
    }

    /// The transfers waiting in this outbox (not sent, not refused) of card `id`.
    public func pendingTransfers(of id: String) throws(CacheError) -> [OutboxEntry] {
        try pendingChanges().filter { entry in
            if case .transfer(let order) = entry.change { return order.sourceID == id }
            return false
        }
    }
}
