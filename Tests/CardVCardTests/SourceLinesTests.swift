import CardModels
import CardVCard
import Foundation
import Testing

/// A CardDAV card as exports and `show` see it (`Card.withSourceLines`): the lines of its vCard
/// that no field reads, as an import of that vCard keeps them.
@Suite struct SourceLinesTests {
    static let source =
        "BEGIN:VCARD\r\nVERSION:3.0\r\nUID:my-phone-uid-42\r\nFN:Grace Hopper\r\nN:Hopper;Grace;;;\r\n"
        + "EMAIL;TYPE=work:grace@navy.example\r\nEMAIL;TYPE=home:grace@home.example\r\n"
        + "X-CUSTOM;X-PARAM=kept:value kept\r\nEND:VCARD\r\n"

    static func davCard(fields: CardFields? = nil) throws -> Card {
        let resource = try VCardResource(text: source)
        let date = Date(timeIntervalSince1970: 1_790_000_000)
        return Card(
            id: "my-phone-uid-42.vcf", fields: fields ?? resource.fields, createdAt: date, updatedAt: date,
            revision: CardRevision(rawValue: "\"e1\""), source: source)
    }

    @Test func aCardDAVCardIsWrittenWithItsOwnUIDAndEveryLineItsServerKeeps() throws {
        let card = try Self.davCard()
        #expect(card.fields.vcardProperties.isEmpty, "the resource keeps them, not the fields")
        let text = String(decoding: VCardWriter(version: .v30).write(card.withSourceLines, photo: nil), as: UTF8.self)
        #expect(text.contains("\r\nUID:my-phone-uid-42\r\n"))
        #expect(!text.contains(WalletProperty.uidPrefix))
        #expect(text.contains("\r\nEMAIL;TYPE=home:grace@home.example\r\n"))
        #expect(text.contains("\r\nX-CUSTOM;X-PARAM=kept:value kept\r\n"))
        #expect(VCardWriter.uid(of: card.withSourceLines) == "my-phone-uid-42")
    }

    @Test func aFieldChangedSinceKeepsItsNewValue() throws {
        var fields = try VCardResource(text: Self.source).fields
        fields.email = "grace@new.example"
        let text = String(
            decoding: VCardWriter(version: .v30).write(try Self.davCard(fields: fields).withSourceLines, photo: nil),
            as: UTF8.self)
        #expect(text.contains("grace@new.example"))
        #expect(!text.contains("grace@navy.example"), "the old value's original form is dropped")
        #expect(text.contains("grace@home.example"), "the second email stays")
    }

    @Test func aCardWithoutSourceOrWithItsOwnLinesIsLeftAsItIs() throws {
        let date = Date(timeIntervalSince1970: 1_790_000_000)
        var fields = CardFields(name: "Ada Lovelace")
        let plain = Card(id: "1", fields: fields, createdAt: date, updatedAt: date)
        #expect(plain.withSourceLines == plain)
        fields.vcardProperties = ["X-OWN:line"]
        var kept = try Self.davCard(fields: fields)
        #expect(kept.withSourceLines.fields.vcardProperties == ["X-OWN:line"])
        kept.source = "not a vCard"
        kept.fields.vcardProperties = []
        #expect(kept.withSourceLines == kept)
    }
}
