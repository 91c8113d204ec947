public import CardModels
public import Foundation

/// A change made while the server could not be reached, to be sent when it can.
public enum OutboxChange: Sendable, Equatable {
    /// A new card (`POST /card`). `localID` is the id the interface shows it under until the
    /// server gives it one (``CardCache/localIDPrefix`` + a number).
    case add(localID: String, fields: CardFields, image: OutboxImage?)
    /// New fields for a card, made on `baseRevision` (sent with `If-Match`, so a card changed
    /// on the server meanwhile comes back as a conflict, never overwritten).
    case edit(cardID: String, fields: CardFields, baseRevision: CardRevision)
    /// The card deleted, as it was at `baseRevision`.
    case delete(cardID: String, baseRevision: CardRevision)
    /// A new wallet order (`PUT /cards`): the cards named come first, in this order; when sent, the others follow in the server's order.
    case reorder([String])
    /// The card moved, copied or merged into another book (``TransferOrder``): one entry for
    /// every step, in the outbox of the book the card leaves.
    case transfer(TransferOrder)

    /// `add`, `edit`, `delete` or `reorder`, as stored.
    public var kind: String {
        switch self {
        case .add: "add"
        case .edit: "edit"
        case .delete: "delete"
        case .reorder: "reorder"
        case .transfer: "transfer"
        }
    }

    /// The card the change is about (the local id for an addition); `nil` for a reorder.
    public var cardID: String? {
        switch self {
        case .add(let localID, _, _): localID
        case .edit(let cardID, _, _), .delete(let cardID, _): cardID
        case .reorder: nil
        case .transfer(let order): order.sourceID
        }
    }
}

/// A picture that goes with an offline addition.
public struct OutboxImage: Sendable, Equatable {
    /// The bytes (PNG or JPEG).
    public var data: Data
    /// `image/png` or `image/jpeg`.
    public var contentType: String

    /// A picture.
    public init(data: Data, contentType: String) {
        self.data = data
        self.contentType = contentType
    }
}

/// Where an outbox entry stands.
public enum OutboxState: String, Sendable, Equatable, CaseIterable {
    /// Waiting to be sent.
    case pending
    /// Claimed by a replay (``CardCache/claimNext(by:lease:)``) and handed to the network, not
    /// answered yet. Found with its lease run out, it means a process ended (or stalled) while
    /// sending: the server may or may not have it (see ``CardCache/interruptedChanges()``).
    case sending
    /// The server accepted it.
    case sent
    /// The server refused it (a conflict, a card gone, invalid fields): it will not be sent
    /// again unless the person decides so (``CardCache/retry(_:)``).
    case failed
}

/// One change in the outbox.
public struct OutboxEntry: Sendable, Equatable, Identifiable {
    /// Its place in the outbox: entries are sent in increasing order.
    public var id: Int64
    /// The change.
    public var change: OutboxChange
    /// Where it stands.
    public var state: OutboxState
    /// How many times it was handed to the network.
    public var attempts: Int
    /// Why the last attempt failed, when it did (for people; no token, no card text).
    public var lastError: String?
    /// When it was made.
    public var createdAt: Date
    /// When its state last changed.
    public var updatedAt: Date
    /// The `Idempotency-Key` an addition is sent with (docs/API.md), made when it was queued, so
    /// that sending it again — after a lost answer, from another process — makes one card;
    /// `nil` for the other changes (edits and deletes carry `If-Match` instead).
    public var idempotencyKey: IdempotencyKey?
    /// The replay that claimed it last (``CardCache/claimNext(by:lease:)``), while `sending`.
    public var claimant: OutboxClaimant?
    /// Until when the claim holds unless renewed; after it, another replay may claim the entry
    /// (and checks the server first).
    public var leaseExpiresAt: Date?

    /// An entry.
    public init(
        id: Int64, change: OutboxChange, state: OutboxState, attempts: Int, lastError: String?, createdAt: Date,
        updatedAt: Date, idempotencyKey: IdempotencyKey? = nil, claimant: OutboxClaimant? = nil,
        leaseExpiresAt: Date? = nil
    ) {
        self.id = id
        self.change = change
        self.state = state
        self.attempts = attempts
        self.lastError = lastError
        self.createdAt = createdAt
        self.updatedAt = updatedAt
        self.idempotencyKey = idempotencyKey
        self.claimant = claimant
        self.leaseExpiresAt = leaseExpiresAt
    }
}
