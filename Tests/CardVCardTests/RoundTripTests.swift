import CardModels
import CardVCard
import Foundation
import Testing

/// Import, export, import again: the same card, in both versions, whatever the source.
@Suite struct RoundTripTests {
    static let corpus =
        [
            "android-21-korean.vcf", "outlook-21-cp1252.vcf", "ios-30-grouped.vcf", "google-30-multi.vcf",
            "v40-data-photo-lf.vcf", "one-broken.vcf",
        ] + ExporterCorpusTests.files

    @Test(arguments: corpus)
    func exportThenImportGivesTheSameCards(name: String) throws {
        let original = try Fixture.document(name).cards
        for version in [VCardVersion.v30, .v40] {
            var file: [UInt8] = []
            let writer = VCardWriter(version: version)
            for (index, card) in original.enumerated() {
                writer.append(.stored(card.fields, id: "card_\(index)"), photo: card.photo, to: &file)
            }
            let back = VCardDocument.read(bytes: file)
            #expect(back.problems == [] && back.refusal == nil)
            #expect(back.cards.map(\.fields) == original.map(\.fields), "\(name) as \(version.rawValue)")
            for card in original { #expect(card.fields.validate() == [:], "\(name): \(card.fields.name)") }
            #expect(back.cards.map(\.photo) == original.map(\.photo))
            // And the export of the re-import is the same file, byte for byte.
            var again: [UInt8] = []
            for (index, card) in back.cards.enumerated() {
                writer.append(.stored(card.fields, id: "card_\(index)"), photo: card.photo, to: &again)
            }
            #expect(again == file)
        }
    }

    @Test func cardsTypedInTheWalletComeBackWhole() throws {
        let cards = [
            WriterTests.ada,
            CardFields(name: "김민지", company: "카드월렛", tags: ["디자인", "서울"]),
            CardFields(
                name: "Zoë \"Z\" O'Brien, Jr.", bio: "semi;colon, comma \\ backslash\nnew line",
                funFacts: ["a; b", "c, d"]),
            CardFields(name: "Single"),
        ]
        for version in [VCardVersion.v30, .v40] {
            for fields in cards {
                let bytes = VCardWriter(version: version).write(.stored(fields))
                let back = try #require(VCardDocument.read(bytes: bytes).cards.first)
                #expect(back.fields == fields, "\(fields.name) as \(version.rawValue)")
                #expect(back.uid == "cardwallet-card_test")
            }
        }
    }
}
