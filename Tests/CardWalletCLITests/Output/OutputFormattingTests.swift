import CardModels
import CardWalletLive
import CardWalletUI
import Foundation
import Testing

@testable import cardwallet

/// Tables, detail views and JSON: escaped, aligned by display width, and the API's JSON.
@Suite struct OutputFormattingTests {
    static let date = Date(timeIntervalSince1970: 1_800_000_000)

    static func summary(_ id: String, _ name: String, company: String? = nil) -> CardSummary {
        CardSummary(id: id, name: name, company: company, updatedAt: date)
    }

    @Test func controlCharactersInCardTextAreShownNotObeyed() {
        let table = CardText.table([Self.summary("c1", "\u{1B}[2J", company: "Evil\u{9B}31m\u{202E}Co")])
        #expect(table.contains("^[[2J"))
        #expect(table.contains("Evil\\u{9B}31m\\u{202E}Co"))
        #expect(!table.unicodeScalars.contains { $0.value < 0x20 && $0 != "\n" })
        #expect(!table.unicodeScalars.contains { (0x7F...0x9F).contains($0.value) || $0.value == 0x202E })

        let card = Card(
            id: "c1",
            fields: CardFields(name: "\u{1B}]52;c;aGk=\u{07}", bio: "line 1\nline\u{1B}[31m 2", tags: ["\u{7F}"]),
            createdAt: Self.date, updatedAt: Self.date)
        let detail = CardText.detail(card)
        #expect(detail.contains("Name:       ^[]52;c;aGk=^G"))
        #expect(detail.contains("Bio:        line 1\n            line^[[31m 2"))
        #expect(detail.contains("Tags:       ^?"))
        #expect(!detail.unicodeScalars.contains { $0.value < 0x20 && $0 != "\n" })
    }

    @Test func columnsLineUpWithWideCharactersAndEmoji() {
        let lines = TextTable(
            columns: [.init("ID"), .init("NAME"), .init("COMPANY")],
            rows: [["a1", "김민지", "Acme"], ["b22", "Ada", "佐藤テック"], ["c3", "Chris 🚀", "x"]]
        ).lines()
        #expect(
            lines == [
                "ID   NAME      COMPANY",
                "a1   김민지    Acme",
                "b22  Ada       佐藤テック",
                "c3   Chris 🚀  x",
            ])
        // COMPANY starts at display column 15 on every line, whatever the byte or character counts.
        for (line, company) in zip(lines, ["COMPANY", "Acme", "佐藤テック", "x"]) {
            let start = line.range(of: company, options: .backwards)?.lowerBound
            #expect(start.map { DisplayWidth.of(line[..<$0]) } == 15, "\(line)")
        }
    }

    @Test func longCellsAreClippedByDisplayWidthButIDsNever() throws {
        let id = String(repeating: "i", count: 60)
        let name = String(repeating: "가", count: 40)
        let table = CardText.table([Self.summary(id, name)])
        let row = String(try #require(table.split(separator: "\n").last))
        #expect(row.hasPrefix(id + "  "))
        let nameCell = String(row.dropFirst(id.count + 2))
        #expect(nameCell.hasSuffix("…"))
        #expect(DisplayWidth.of(nameCell) <= 32)
    }

    @Test func trailingSpacesAreTrimmedAndEmptyCellsKeepTheirColumn() {
        let lines = TextTable(columns: [.init("A"), .init("B"), .init("C")], rows: [["1", "", "3"], ["1", "2", ""]])
            .lines()
        #expect(lines == ["A  B  C", "1     3", "1  2"])
    }

    @Test func jsonIsTheAPIsShapeWithInvisibleCharactersEscaped() throws {
        let summaries = [Self.summary("c1", "Ada\u{9B}\u{202E}", company: "Acme")]
        let text = try CardText.json(summaries)
        #expect(text.contains(#""name" : "Ada\u009B\u202E""#) || text.contains(#""name":"Ada\u009B\u202E""#))
        #expect(!text.unicodeScalars.contains { (0x7F...0x9F).contains($0.value) || $0.value == 0x202E })
        let decoded = try CardWalletJSON.decoder().decode([CardSummary].self, from: Data(text.utf8))
        #expect(decoded == summaries)
        // The keys and date format the API uses.
        let object = try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [[String: Any]])
        #expect(object.first?["updatedAt"] as? String == "2027-01-15T08:00:00.000Z")
        #expect(
            Set(object.first?.keys.map { $0 } ?? []) == [
                "id", "name", "company", "defaultImage", "hasImage", "updatedAt", "version",
            ])
    }

    @Test func aCardShowsEveryFieldAndItsImageAsTypeAndSize() {
        let fields = CardFields(
            name: "Ada", title: "Countess", company: "Engines", department: "R&D", email: "ada@example.com",
            phone: "+44 1", website: "https://ada.example", address: "London", bio: "Poet", birthday: "1815-12-10",
            funFacts: ["One", "Two"], tags: ["math", "ai"], defaultImage: 5)
        let card = Card(
            id: "c9", fields: fields, hasImage: true, image: CardImageInfo(contentType: "image/jpeg", size: 20513),
            createdAt: Self.date, updatedAt: Self.date, revision: CardRevision(4))
        #expect(
            CardText.detail(card) == """
                ID:         c9
                Name:       Ada
                Title:      Countess
                Company:    Engines
                Department: R&D
                Email:      ada@example.com
                Phone:      +44 1
                Website:    https://ada.example
                Address:    London
                Bio:        Poet
                Birthday:   1815-12-10
                TMI:        One
                            Two
                Tags:       math, ai
                Avatar:     5
                Image:      image/jpeg, 20513 bytes
                Created:    2027-01-15T08:00:00.000Z
                Updated:    2027-01-15T08:00:00.000Z
                Version:    4

                """)
    }

    @Test func aCardOfACardDAVBookShowsItsGroupsEscapedAndTheJSONListsThem() throws {
        let card = Card(
            id: "ada.vcf", fields: CardFields(name: "Ada"), createdAt: Self.date, updatedAt: Self.date,
            revision: CardRevision(rawValue: "\"e1\""), groups: ["Analysts", "Poets\u{1B}[2J"])
        let text = CardText.detail(card)
        #expect(text.contains("Groups:     Analysts, Poets^[[2J\n"))
        #expect(!text.contains("\u{1B}"))
        let json = try CardText.json(card)
        #expect(json.contains("\"groups\""))
        // A card without groups (every card of the card API) has no such line or key.
        let plain = Card(id: "c1", fields: CardFields(name: "Bo"), createdAt: Self.date, updatedAt: Self.date)
        #expect(!CardText.detail(plain).contains("Groups"))
        #expect(!(try CardText.json(plain)).contains("groups"))
    }

    @Test func aPictureLinkedElsewhereIsNamedNotLoaded() {
        let vcard =
            "BEGIN:VCARD\r\nVERSION:3.0\r\nFN:Bob\r\nPHOTO;VALUE=uri:https://tracker.example.net/b.png\r\nEND:VCARD\r\n"
        let card = Card(
            id: "bob.vcf", fields: CardFields(name: "Bob"), createdAt: Self.date, updatedAt: Self.date,
            revision: CardRevision(rawValue: "e"), source: vcard)
        #expect(card.pictureLinkNotLoaded == "https://tracker.example.net/b.png")
        #expect(
            CardText.detail(card).contains(
                "Image:      none: a link to another address, not loaded (https://tracker.example.net/b.png)\n"))
        var shown = card
        shown.hasImage = true  // a link on the server's own origin: the card's picture
        #expect(shown.pictureLinkNotLoaded == nil)
    }
}
