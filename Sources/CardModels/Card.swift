public import Foundation

/// What the server says about a card's image.
public struct CardImageInfo: Codable, Sendable, Equatable, Hashable {
    /// `image/png` or `image/jpeg`.
    public var contentType: String
    /// Size in bytes.
    public var size: Int

    /// Creates image information.
    public init(contentType: String, size: Int) {
        self.contentType = contentType
        self.size = size
    }
}

/// A business card: its fields and what its server says about it.
///
/// Its JSON (the scripting commands' `--json`, `export --format json`) has the editable fields
/// at the top level beside `id`, `hasImage`, `image`, `createdAt`, `updatedAt` and `version`
/// (the revision: a number for the card API's versions, a string for an `ETag`).
public struct Card: Codable, Sendable, Equatable, Hashable, Identifiable {
    /// Unique within its wallet; for the card API, server-made and URL-safe.
    public var id: String
    /// The editable fields, flattened into the card's JSON.
    public var fields: CardFields
    /// Whether the card has a picture.
    public var hasImage: Bool
    /// Present when `hasImage` is true and the server said what the picture is.
    public var image: CardImageInfo?
    /// When the card was created.
    public var createdAt: Date
    /// When the card last changed.
    public var updatedAt: Date
    /// The revision the server gave this state of the card; a change is sent with it, so that a
    /// card changed meanwhile is refused as a conflict rather than overwritten.
    public var revision: CardRevision
    /// The card as its server stores it, when the server keeps more than the fields (a CardDAV
    /// server's vCard, every property of it): kept so that an edit rewrites only what changed.
    /// `nil` for the card API. Not part of the card's JSON; the cache keeps it.
    public var source: String?
    /// The names of the groups the card belongs to, sorted (a CardDAV book's group vCards, which
    /// are not cards themselves); empty for the card API. Filled from the cache when the card is
    /// read; in the card's JSON only when there are some.
    public var groups: [String]

    /// Creates a card.
    public init(
        id: String, fields: CardFields, hasImage: Bool = false, image: CardImageInfo? = nil,
        createdAt: Date, updatedAt: Date, revision: CardRevision = CardRevision(1), source: String? = nil,
        groups: [String] = []
    ) {
        self.id = id
        self.fields = fields
        self.hasImage = hasImage
        self.image = image
        self.createdAt = createdAt
        self.updatedAt = updatedAt
        self.revision = revision
        self.source = source
        self.groups = groups
    }

    /// A summary of the card, as a listing gives it.
    public var summary: CardSummary {
        CardSummary(
            id: id, name: fields.name, title: fields.title, company: fields.company,
            email: fields.email, defaultImage: fields.defaultImage, hasImage: hasImage,
            updatedAt: updatedAt, revision: revision)
    }

    enum MetaKeys: String, CodingKey {
        case id, hasImage, image, createdAt, updatedAt, version, groups
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
        revision = try c.decode(CardRevision.self, forKey: .version)
        groups = try c.decodeIfPresent([String].self, forKey: .groups) ?? []
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
        try c.encode(revision, forKey: .version)
        if !groups.isEmpty { try c.encode(groups, forKey: .groups) }
    }
}

/// One card of a listing: what the wallet's list shows.
public struct CardSummary: Codable, Sendable, Equatable, Hashable, Identifiable {
    /// The card id.
    public var id: String
    /// The name.
    public var name: String
    /// Job title.
    public var title: String?
    /// Company.
    public var company: String?
    /// Email address.
    public var email: String?
    /// The avatar (0–7) shown when there is no image.
    public var defaultImage: Int
    /// Whether the card has an image.
    public var hasImage: Bool
    /// When the card last changed.
    public var updatedAt: Date
    /// The card's revision.
    public var revision: CardRevision

    /// Creates a summary.
    public init(
        id: String, name: String, title: String? = nil, company: String? = nil, email: String? = nil,
        defaultImage: Int = 0, hasImage: Bool = false, updatedAt: Date, revision: CardRevision = CardRevision(1)
    ) {
        self.id = id
        self.name = name
        self.title = title
        self.company = company
        self.email = email
        self.defaultImage = defaultImage
        self.hasImage = hasImage
        self.updatedAt = updatedAt
        self.revision = revision
    }

    enum CodingKeys: String, CodingKey {
        case id, name, title, company, email, defaultImage, hasImage, updatedAt
        case revision = "version"
    }
}

/// One page of the wallet, in the wallet's order.
public struct CardPage: Sendable, Equatable {
    /// The cards of this page, in wallet order.
    public var cards: [CardSummary]
    /// How many cards there are in all (not just on this page).
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
}

/// A group of cards as a CardDAV address book keeps it: a group vCard (`KIND:group`,
/// `X-ADDRESSBOOKSERVER-KIND:group`) naming its members by `UID`. Not a card: kept and shown as
/// the groups a card belongs to.
public struct CardGroup: Sendable, Equatable, Hashable {
    /// Its id in the book (the resource's name, as a card's).
    public var id: String
    /// Its name.
    public var name: String
    /// Its revision (the resource's `ETag`).
    public var revision: CardRevision
    /// Its members' `UID`s, without `urn:uuid:`.
    public var memberUIDs: [String]

    /// A group.
    public init(id: String, name: String, revision: CardRevision, memberUIDs: [String]) {
        self.id = id
        self.name = name
        self.revision = revision
        self.memberUIDs = memberUIDs
    }
}
