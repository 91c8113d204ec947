public import CardModels

/// The state a backend hands out with a listing, to ask later for only what changed since
/// (RFC 6578's sync token for CardDAV). Opaque; kept in the cache.
public struct SyncToken: RawRepresentable, Hashable, Sendable, Codable {
    /// The token as the server gave it.
    public let rawValue: String

    /// A token from its text.
    public init(rawValue: String) { self.rawValue = rawValue }
}

/// What to list.
public enum ListingRequest: Sendable, Hashable {
    /// `limit` cards from `offset`, in wallet order (backends that page their listings).
    case page(offset: Int, limit: Int)
    /// Every card, or only what changed since `token` when there is one and the backend syncs
    /// by token (it may answer with the whole list all the same: a token it refuses). `known`
    /// is what the cache holds (card id → revision), so that a backend falling back to a full
    /// listing reads only the cards that differ and names the ones gone.
    case whole(since: SyncToken?, known: [String: CardRevision] = [:])
}

/// A listing's answer.
public enum CardListing: Sendable, Equatable {
    /// One page of the wallet.
    case page(CardPage)
    /// Every card, in wallet order; `cards` holds the whole cards too when the backend's listings
    /// carry them; `token` asks for only the changes next time.
    case whole([CardSummary], cards: [Card], token: SyncToken?)
    /// What changed since the token given: cards added or changed (whole), ids removed, and the
    /// token for next time.
    case changes(changed: [Card], removed: [String], token: SyncToken?)
}

/// What a listing hands over as it goes (``CardBackend/listing(_:receiving:)``): whole cards,
/// and the groups of cards the backend keeps beside them (a CardDAV book's group vCards).
public struct ListingBatch: Sendable, Equatable {
    /// Whole cards, added or changed.
    public var cards: [Card]
    /// Groups, added or changed.
    public var groups: [CardGroup]

    /// A batch.
    public init(cards: [Card], groups: [CardGroup] = []) {
        self.cards = cards
        self.groups = groups
    }
}
