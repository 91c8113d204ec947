public import CardModels
public import Foundation

/// A card the server starts with, as `Config/demo-cards.json` lists it: the card fields at the
/// top level beside `id`, `owner` (a seed user's email) and an optional `image`.
public struct SeedCard: Codable, Sendable, Equatable {
    /// The card id (URL-safe: letters, digits, `-` and `_`).
    public var id: String
    /// The email of the seed user who owns the card.
    public var owner: String
    /// The card's editable fields.
    public var fields: CardFields
    /// The card's image, if any.
    public var image: SeedImage?

    /// Creates a seed card.
    public init(id: String, owner: String, fields: CardFields, image: SeedImage? = nil) {
        self.id = id
        self.owner = owner
        self.fields = fields
        self.image = image
    }

    enum MetaKeys: String, CodingKey {
        case id, owner, image
    }

    /// Decodes a seed card: card fields at the top level beside `id`, `owner` and `image`.
    public init(from decoder: any Decoder) throws {
        fields = try CardFields(from: decoder)
        let c = try decoder.container(keyedBy: MetaKeys.self)
        id = try c.decode(String.self, forKey: .id)
        owner = try c.decode(String.self, forKey: .owner)
        image = try c.decodeIfPresent(SeedImage.self, forKey: .image)
    }

    /// Encodes the card in the same flat form.
    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: MetaKeys.self)
        try c.encode(id, forKey: .id)
        try c.encode(owner, forKey: .owner)
        try fields.encode(to: encoder)
        try c.encodeIfPresent(image, forKey: .image)
    }
}

/// An image in a configuration or data file: its content type and its bytes, base64 in JSON.
public struct SeedImage: Codable, Sendable, Equatable, Hashable {
    /// `image/png` or `image/jpeg`.
    public var contentType: String
    /// The image bytes.
    public var data: Data

    /// Creates an image.
    public init(contentType: String, data: Data) {
        self.contentType = contentType
        self.data = data
    }

    enum CodingKeys: String, CodingKey {
        case contentType, base64
    }

    /// Decodes `{"contentType": "image/png", "base64": "iVBORw0…"}`.
    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        contentType = try c.decode(String.self, forKey: .contentType)
        let text = try c.decode(String.self, forKey: .base64)
        guard let data = Data(base64Encoded: text) else {
            throw DecodingError.dataCorruptedError(forKey: .base64, in: c, debugDescription: "Not valid base64")
        }
        self.data = data
    }

    /// Encodes the image as its content type and base64 text.
    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(contentType, forKey: .contentType)
        try c.encode(data.base64EncodedString(), forKey: .base64)
    }
}
