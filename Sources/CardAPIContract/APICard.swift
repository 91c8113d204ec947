public import CardModels
public import Foundation

/// A card as the card API's `GET /card/{cardId}` returns it (docs/API.md): the editable fields
/// at the top level beside `id`, `hasImage`, `image`, `createdAt`, `updatedAt` and `version`, an
/// integer that goes up by one with every change and travels as `ETag: "<version>"`.
///
/// The contract's own type, shared by the client (`CardAPI`) and the mock server; the wallet
/// above the backend seam holds ``CardModels/Card``, whose revision is opaque.
public struct APICard: Codable, Sendable, Equatable, Hashable, Identifiable {
    /// Server-made, URL-safe.
    public var id: String
    /// The editable fields, flattened into the card on the wire.
    public var fields: CardFields
    /// Whether `GET /card/{cardId}/image` has an image.
    public var hasImage: Bool
    /// Present when `hasImage` is true.
    public var image: CardImageInfo?
    /// When the card was created.
    public var createdAt: Date
    /// When the card last changed.
    public var updatedAt: Date
    /// Increases on every change; sent back as `If-Match: "<version>"` when editing.
    public var version: Int

    /// Creates a card.
    public init(
        id: String, fields: CardFields, hasImage: Bool = false, image: CardImageInfo? = nil,
        createdAt: Date, updatedAt: Date, version: Int = 1
    ) {
        self.id = id
        self.fields = fields
        self.hasImage = hasImage
        self.image = image
        self.createdAt = createdAt
        self.updatedAt = updatedAt
        self.version = version
    }

    /// The wire form of `card`, whose revision must be a card API version (else version 0,
    /// which no card has: a server refuses a change based on it as a conflict).
    public init(_ card: Card) {
        self.init(
            id: card.id, fields: card.fields, hasImage: card.hasImage, image: card.image, createdAt: card.createdAt,
            updatedAt: card.updatedAt, version: card.revision.number ?? 0)
    }

    /// The card as the wallet holds it: the version becomes its revision.
    public var card: Card {
        Card(
            id: id, fields: fields, hasImage: hasImage, image: image, createdAt: createdAt, updatedAt: updatedAt,
            revision: CardRevision(version))
    }

    /// The `ETag` / `If-Match` value for this version, quotes included.
    public var entityTag: String { EntityTag.make(version: version) }

    /// A summary of the card, as the list endpoint returns it (its revision the version).
    public var summary: CardSummary { card.summary }

    enum MetaKeys: String, CodingKey {
        case id, hasImage, image, createdAt, updatedAt, version
    }

    /// Decodes a card whose fields sit at the top level beside its metadata.
    public init(from decoder: any Decoder) throws {
        fields = try CardFields(from: decoder)
        let c = try decoder.container(keyedBy: MetaKeys.self)
        id = try c.decode(String.self, forKey: .id)
        hasImage = try c.decodeIfPresent(Bool.self, forKey: .hasImage) ?? false
        image = try c.decodeIfPresent(CardImageInfo.self, forKey: .image)
        createdAt = try c.decode(Date.self, forKey: .createdAt)
        updatedAt = try c.decode(Date.self, forKey: .updatedAt)
        version = try c.decode(Int.self, forKey: .version)
    }

    /// Encodes the card with its fields at the top level.
    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: MetaKeys.self)
        try c.encode(id, forKey: .id)
        try fields.encode(to: encoder)
        try c.encode(hasImage, forKey: .hasImage)
        try c.encodeIfPresent(image, forKey: .image)
        try c.encode(createdAt, forKey: .createdAt)
        try c.encode(updatedAt, forKey: .updatedAt)
        try c.encode(version, forKey: .version)
    }
}

/// The `data` of `GET /cards`: one page of the wallet, in the user's order.
///
/// Its rows are the wallet's own ``CardModels/CardSummary``: the same JSON (`id`, `name`,
/// `title`, `company`, `email`, `defaultImage`, `hasImage`, `updatedAt`, `version`), the version
/// the card API's integer (``CardModels/CardRevision`` writes a number as a number; the client
/// refuses a page with any other: `PageCheck`).
public struct APICardPage: Codable, Sendable, Equatable {
    /// The cards of this page, in wallet order.
    public var cards: [CardSummary]
    /// How many cards match in all (not just on this page).
    public var total: Int
    /// The index of the first card of this page.
    public var offset: Int
    /// The most cards a page holds.
    public var limit: Int

    /// Creates a page.
    public init(cards: [CardSummary], total: Int, offset: Int, limit: Int) {
        self.cards = cards
        self.total = total
        self.offset = offset
        self.limit = limit
    }

    /// The page as the wallet holds it.
    public var page: CardPage {
        CardPage(cards: cards, total: total, offset: offset, limit: limit)
    }
}

/// `PUT /cards` body: the whole wallet in its new order.
public struct ReorderRequest: Codable, Sendable, Equatable {
    /// Every card id of the wallet, each exactly once, in the new order.
    public var order: [String]

    /// Creates a reorder request.
    public init(order: [String]) { self.order = order }
}

/// Paging limits of `GET /cards`.
public enum CardPaging {
    /// The page size when `limit` is not given.
    public static let defaultLimit = 50
    /// The largest `limit` accepted.
    public static let maxLimit = 200
}

/// Strong entity tags carrying a card version: `"7"`.
public enum EntityTag {
    /// The entity tag of a version: `"7"`.
    public static func make(version: Int) -> String { "\"\(version)\"" }

    /// The version inside an `ETag` or `If-Match` value (`"7"`, `W/"7"` or `7`), or `nil`.
    public static func version(from header: String) -> Int? {
        var text = Substring(header.trimmedForCard)
        if text.hasPrefix("W/") { text = text.dropFirst(2) }
        if text.count >= 2, text.first == "\"", text.last == "\"" { text = text.dropFirst().dropLast() }
        return Int(text)
    }
}

/// The `data` of `GET /cards/whole?ids=…`: whole cards by id, at most
/// ``APIWholeCards/maximumIDs`` per request, in the order asked; the ids the caller has no card
/// for (deleted, never made, someone else's) are listed apart.
public struct APIWholeCards: Codable, Sendable, Equatable {
    /// The most ids one request may ask for.
    public static let maximumIDs = 100

    /// The cards found, in the order asked.
    public var cards: [APICard]
    /// The ids asked for that name no card of the caller.
    public var missing: [String]

    /// An answer.
    public init(cards: [APICard], missing: [String]) {
        self.cards = cards
        self.missing = missing
    }
}
