import CardModels
import CardVCard
import Foundation
import Testing

/// What the writer puts on the wire.
@Suite struct WriterTests {
    static let ada = CardFields(
        name: "Ada Lovelace", title: "Programmer", company: "Analytical Engines", department: "Research",
        email: "ada@example.com", phone: "+44 20 7946 0000", website: "https://ada.example.com",
        address: "12 St James's Square, London", bio: "Wrote; the first\nprogram, really", birthday: "1815-12-10",
        funFacts: ["Poet's daughter"], tags: ["math", "history"], defaultImage: 3)

    static func text(
        _ fields: CardFields, version: VCardVersion = .v30, photo: VCardPhoto? = nil, id: String = "card_test"
    ) -> String {
        String(decoding: VCardWriter(version: version).write(.stored(fields, id: id), photo: photo), as: UTF8.self)
    }

    @Test func aWholeCardIn30() {
        #expect(
            Self.text(Self.ada)
                == [
                    "BEGIN:VCARD", "VERSION:3.0", "PRODID:-//CardWallet//CardWallet vCard//EN", "FN:Ada Lovelace",
                    "N:Lovelace;Ada;;;",
                    "ORG:Analytical Engines;Research", "TITLE:Programmer", "EMAIL:ada@example.com",
                    "TEL:+44 20 7946 0000",
                    "URL:https://ada.example.com", "ADR:;;12 St James's Square\\, London;;;;", "BDAY:1815-12-10",
                    "NOTE:Wrote\\; the first\\nprogram\\, really", "CATEGORIES:math,history",
                    "X-CARDWALLET-TMI:Poet's daughter",
                    "X-CARDWALLET-AVATAR:3", "UID:cardwallet-card_test", "REV:2024-05-01T10:20:30Z", "END:VCARD", "",
                ].joined(separator: "\r\n"))
    }

    @Test func version40DatesAndPhotos() throws {
        let png = try Fixture.bytes("photo-minji.png")
        let text = Self.text(
            CardFields(name: "A", birthday: "1992-03-15"), version: .v40, photo: VCardPhoto(bytes: png, format: .png))
        #expect(text.contains("\r\nVERSION:4.0\r\n"))
        #expect(text.contains("\r\nBDAY:19920315\r\n"))
        #expect(text.contains("\r\nREV:20240501T102030Z\r\n"))
        let unfolded = text.replacingOccurrences(of: "\r\n ", with: "")
        #expect(unfolded.contains("\r\nPHOTO:data:image/png;base64,\(TransferEncoding.base64Encode(png))\r\n"))
        let jpeg = try Fixture.bytes("photo-ada.jpg")
        let three = Self.text(CardFields(name: "A"), photo: VCardPhoto(bytes: jpeg, format: .jpeg))
            .replacingOccurrences(of: "\r\n ", with: "")
        #expect(three.contains("\r\nPHOTO;ENCODING=b;TYPE=JPEG:\(TransferEncoding.base64Encode(jpeg))\r\n"))
    }

    @Test func foldingKeeps75OctetsAndUTF8Whole() throws {
        let bio = String(repeating: "가나다라마바사아자차카타파하", count: 30)
        let bytes = VCardWriter().write(.stored(CardFields(name: "김민지", bio: bio)))
        var lines: [ArraySlice<UInt8>] = []
        var start = 0
        for index in 0..<bytes.count where bytes[index] == 10 {
            #expect(index > 0 && bytes[index - 1] == 13, "every line ends with CR LF")
            lines.append(bytes[start..<index - 1])
            start = index + 1
        }
        #expect(start == bytes.count)
        #expect(lines.count > 10)
        for line in lines {
            #expect(line.count <= 75)
            #expect(String(validating: line, as: UTF8.self) != nil, "a fold split a UTF-8 sequence")
        }
        let back = try #require(VCardDocument.read(bytes: bytes).cards.first)
        #expect(back.fields.bio == bio)
    }

    @Test func theKeptUIDWinsOverTheDerivedOne() {
        var fields = CardFields(name: "A")
        #expect(VCardWriter.uid(of: .stored(fields, id: "card_7")) == "cardwallet-card_7")
        fields.vcardProperties = ["X-A:1", "UID:urn:uuid:1234"]
        #expect(VCardWriter.uid(of: .stored(fields, id: "card_7")) == "urn:uuid:1234")
        let text = Self.text(fields)
        #expect(text.components(separatedBy: "UID:").count == 2)
        #expect(text.contains("\r\nX-A:1\r\nUID:urn:uuid:1234\r\nREV:"))
    }

    @Test func anEditedFieldReplacesItsOriginalLine() throws {
        var card = try Fixture.single("ios-30-grouped.vcf")
        card.fields.email = "ada@new.example"
        card.fields.name = "Ada King"
        let text = Self.text(card.fields)
        // The new address, first (so it reads back as the card's email); the old grouped line is
        // gone, its label stays.
        #expect(text.contains("\r\nTITLE:Programmer\r\nEMAIL:ada@new.example\r\n"))
        #expect(!text.contains("ada@example.com"))
        #expect(text.contains("\r\nEMAIL;TYPE=INTERNET,WORK:ada.work@example.com\r\n"))
        // Renamed: a new N, not the old one.
        #expect(text.contains("\r\nFN:Ada King\r\nN:King;Ada;;;\r\n"))
        #expect(!text.contains("Countess"))
        #expect(!text.contains("X-CARDWALLET-FIELD") && !text.contains("X-CARDWALLET-NAME"))
    }

    @Test func keptBinaryValuesBecomeDataURIsIn40() {
        let fields = CardFields(name: "A", vcardProperties: ["LOGO;ENCODING=b;TYPE=PNG:iVBORw0KGgo="])
        #expect(Self.text(fields).contains("\r\nLOGO;ENCODING=b;TYPE=PNG:iVBORw0KGgo=\r\n"))
        #expect(Self.text(fields, version: .v40).contains("\r\nLOGO:data:image/png;base64,iVBORw0KGgo=\r\n"))
    }

    @Test func theCompactFormFitsABudget() throws {
        var fields = Self.ada
        fields.vcardProperties = ["X-SOCIAL:https://example.com/ada", "TEL;TYPE=FAX:+44 20 7946 0001"]
        let jpeg = try Fixture.bytes("photo-ada.jpg")
        let writer = VCardWriter()
        let full = writer.write(.stored(fields), photo: VCardPhoto(bytes: jpeg, format: .jpeg))
        let roomy = try #require(writer.compact(.stored(fields), budget: 4_000))
        let roomyText = String(decoding: roomy, as: UTF8.self)
        #expect(roomy.count < full.count)
        #expect(!roomyText.contains("PHOTO") && !roomyText.contains("PRODID") && !roomyText.contains("REV:"))
        #expect(roomyText.contains("X-SOCIAL"))
        let tight = try #require(writer.compact(.stored(fields), budget: 300))
        let tightText = String(decoding: tight, as: UTF8.self)
        #expect(tight.count <= 300)
        for kept in ["FN:Ada Lovelace", "EMAIL:ada@example.com", "TEL:+44 20 7946 0000", "BEGIN:VCARD", "END:VCARD"] {
            #expect(tightText.contains(kept))
        }
        #expect(!tightText.contains("NOTE") && !tightText.contains("X-SOCIAL"))
        // The least telling go first: kept lines, then the bio, long before the company.
        let everything = roomy.count
        let withoutExtras = try #require(writer.compact(.stored(fields), budget: everything - 1))
        let extrasGone = String(decoding: withoutExtras, as: UTF8.self)
        #expect(extrasGone.contains("X-SOCIAL") && !extrasGone.contains("TYPE=FAX") && extrasGone.contains("NOTE:"))
        let noteGone = String(
            decoding: try #require(writer.compact(.stored(fields), budget: withoutExtras.count - 40)), as: UTF8.self)
        #expect(
            !noteGone.contains("X-SOCIAL") && !noteGone.contains("NOTE:") && noteGone.contains("ORG:")
                && noteGone.contains("BDAY:"))
        #expect(writer.compact(.stored(fields), budget: 60) == nil)
        let back = try #require(VCardDocument.read(bytes: tight).cards.first)
        #expect(back.fields.name == "Ada Lovelace" && back.fields.email == "ada@example.com")
    }

    @Test(arguments: [
        (0.0, "1970-01-01T00:00:00Z"), (951_782_400, "2000-02-29T00:00:00Z"), (1_714_558_830.9, "2024-05-01T10:20:30Z"),
        (-86_401, "1969-12-30T23:59:59Z"), (4_102_444_799, "2099-12-31T23:59:59Z"),
    ])
    func revisionTimestamps(seconds: Double, expected: String) {
        let card = Card.stored(CardFields(name: "A"), updatedAt: Date(timeIntervalSince1970: seconds))
        let line = String(decoding: VCardWriter().write(card), as: UTF8.self).components(separatedBy: "\r\n").first {
            $0.hasPrefix("REV:")
        }
        #expect(line == "REV:" + expected)
    }
}
