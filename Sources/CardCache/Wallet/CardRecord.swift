import CardModels
import Foundation

/// How the cache stores a whole card (the `detail` column): its own encoding, not any server's
/// wire format nor the scripting commands' JSON, so neither can change what a cache file holds.
///
/// The fields are nested under `fields`, dates are numbers (seconds since 2001, Foundation's own
/// representation, so a date comes back bit for bit) and the revision is always a string.
struct CardRecord: Codable {
    var id: String
    var fields: CardFields
    var hasImage: Bool
    var image: CardImageInfo?
    var createdAt: Double
    var updatedAt: Double
    var revision: String
    /// The card as its server stores it (a CardDAV server's vCard), when it keeps more than the fields.
    var source: String?

    init(_ card: Card) {
        id = card.id
        fields = card.fields
        hasImage = card.hasImage
        image = card.image
        createdAt = card.createdAt.timeIntervalSinceReferenceDate
        updatedAt = card.updatedAt.timeIntervalSinceReferenceDate
        revision = card.revision.rawValue
        source = card.source
    }

    var card: Card {
        Card(
            id: id, fields: fields, hasImage: hasImage, image: image,
            createdAt: Date(timeIntervalSinceReferenceDate: createdAt),
            updatedAt: Date(timeIntervalSinceReferenceDate: updatedAt), revision: CardRevision(rawValue: revision),
            source: source)
    }

    /// The `detail` text of `card`, its source inside (as the v2 migration wrote every card).
    static func text(_ card: Card) throws -> String {
        String(decoding: try encoder.encode(CardRecord(card)), as: UTF8.self)
    }

    /// The `detail` text of `card` and its source apart, for the `detailSource` column (v5): a
    /// CardDAV card's vCard, photo included, is most of its bytes, and JSON would escape it
    /// character by character on every write and scan it on every `json_extract`.
    static func stored(_ card: Card) throws -> (detail: String, source: String?) {
        var record = CardRecord(card)
        let source = record.source
        record.source = nil
        return (String(decoding: try encoder.encode(record), as: UTF8.self), source)
    }

    /// The card a `detail` text holds, with the `detailSource` column's source when there is
    /// one (a card stored before v5 has its source inside the text).
    static func card(_ text: String, source: String? = nil) throws -> Card {
        var record = try JSONDecoder().decode(CardRecord.self, from: Data(text.utf8))
        if let source { record.source = source }
        return record.card
    }

    private static var encoder: JSONEncoder {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return encoder
    }
}
