public import CardModels
public import Foundation

/// The wallet as the server last listed it.
public struct CachedList: Sendable, Equatable {
    /// The cards' summaries, in wallet order.
    public var cards: [CardSummary]
    /// When the server last gave the whole list (`GET /cards`, every page).
    public var confirmedAt: Date

    /// A cached list.
    public init(cards: [CardSummary], confirmedAt: Date) {
        self.cards = cards
        self.confirmedAt = confirmedAt
    }
}

/// A whole card as the server last returned it.
public struct CachedCard: Sendable, Equatable {
    /// The card, with its kept vCard properties.
    public var card: Card
    /// When the server returned it.
    public var confirmedAt: Date
    /// Whether the wallet's list, as last confirmed, names this very version. `false` when a
    /// later list showed a newer version that has not been read in full yet.
    public var isCurrent: Bool

    /// A cached card.
    public init(card: Card, confirmedAt: Date, isCurrent: Bool) {
        self.card = card
        self.confirmedAt = confirmedAt
        self.isCurrent = isCurrent
    }
}

/// A card's picture as the server last returned it.
public struct CachedImage: Sendable, Equatable {
    /// The bytes (PNG or JPEG).
    public var data: Data
    /// `image/png` or `image/jpeg`.
    public var contentType: String
    /// The card version the picture belongs to (its `ETag`).
    public var revision: CardRevision
    /// When the server returned it.
    public var confirmedAt: Date

    /// A cached picture.
    public init(data: Data, contentType: String, revision: CardRevision, confirmedAt: Date) {
        self.data = data
        self.contentType = contentType
        self.revision = revision
        self.confirmedAt = confirmedAt
    }
}

/// What a cache holds, in numbers.
public struct CacheState: Sendable, Equatable {
    /// When the whole list was last confirmed; `nil` when it never was.
    public var listConfirmedAt: Date?
    /// Cards known (listed or read).
    public var cards: Int
    /// Cards whose whole card is kept.
    public var fullCards: Int
    /// Pictures kept.
    public var images: Int
    /// Outbox entries not sent yet (pending, being sent or failed).
    public var unsentChanges: Int

    /// A state.
    public init(listConfirmedAt: Date?, cards: Int, fullCards: Int, images: Int, unsentChanges: Int) {
        self.listConfirmedAt = listConfirmedAt
        self.cards = cards
        self.fullCards = fullCards
        self.images = images
        self.unsentChanges = unsentChanges
    }
}
