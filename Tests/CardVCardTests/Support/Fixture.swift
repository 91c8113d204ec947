import CardModels
import CardVCard
import Foundation
import Testing

/// The corpus in `Tests/CardVCardTests/Fixtures`: vCards written in the shapes real exporters
/// produce (see each file), and the photos inside them.
enum Fixture {
    static let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Fixtures")

    static func url(_ name: String) -> URL { folder.appendingPathComponent(name) }

    static func bytes(_ name: String) throws -> [UInt8] { [UInt8](try Data(contentsOf: url(name))) }

    /// The fixture read and mapped.
    static func document(_ name: String) throws -> VCardDocument {
        VCardDocument.read(bytes: try bytes(name))
    }

    /// The only card of a fixture that must hold one readable card.
    static func single(_ name: String, sourceLocation: SourceLocation = #_sourceLocation) throws -> ImportedCard {
        let document = try document(name)
        #expect(document.refusal == nil, sourceLocation: sourceLocation)
        #expect(document.problems == [], sourceLocation: sourceLocation)
        return try #require(document.cards.first, sourceLocation: sourceLocation)
    }
}

extension VCardDocument {
    /// Reads `text` (LF line ends unless it has its own).
    static func read(_ text: String) -> VCardDocument { read(bytes: Array(text.utf8)) }
}

extension Card {
    /// A card as the server would return it, for the writer's tests.
    static func stored(
        _ fields: CardFields, id: String = "card_test", updatedAt: Date = Date(timeIntervalSince1970: 1_714_558_830)
    ) -> Card {
        Card(id: id, fields: fields, createdAt: updatedAt, updatedAt: updatedAt)
    }
}
