import CardModels
import Foundation
import Testing

@testable import cardwallet_bench

/// Our cards in abook's addressbook format, and the abookrc that lists them like the TUI.
@Suite struct AbookExportTests {
    @Test func theAddressBookHasAHeaderAndOneNumberedSectionPerCard() throws {
        let cards = [
            CardFields(name: "Ada Lovelace", title: "Lead", company: "Analytical", email: "ada@example.com"),
            CardFields(name: "Grace Hopper", phone: "+1 555 0100"),
        ]
        let lines = AbookExport.addressBook(cards).split(separator: "\n", omittingEmptySubsequences: false).map(
            String.init)
        #expect(
            Array(lines.prefix(5)) == ["# abook addressbook file", "", "[format]", "program=abook", "version=0.6.1"])
        let first = try #require(lines.firstIndex(of: "[0]"))
        let second = try #require(lines.firstIndex(of: "[1]"))
        #expect(first < second)
        #expect(lines[first + 1] == "name=Ada Lovelace")
        #expect(lines.contains("name=Ada Lovelace"))
        #expect(lines.contains("email=ada@example.com"))
        #expect(lines.contains("company=Analytical"))
        #expect(lines.contains("title=Lead"))
        #expect(lines.contains("phone=+1 555 0100"))
        #expect(lines.last == "")
    }

    @Test func everyCardFieldAbookCanHoldIsExported() {
        let card = CardFields(
            name: "Kim", title: "CTO", company: "Acme", department: "R&D", email: "k@example.com", phone: "+82 10",
            website: "https://example.com", address: "1 Street", bio: "Hello", birthday: "1990-04-01",
            tags: ["demo", "sample"])
        let fields = Dictionary(uniqueKeysWithValues: AbookExport.fields(of: card).map { ($0.key, $0.value) })
        #expect(
            fields == [
                "name": "Kim", "email": "k@example.com", "address": "1 Street", "phone": "+82 10",
                "url": "https://example.com", "notes": "Hello", "anniversary": "1990-04-01", "groups": "demo,sample",
                "company": "Acme", "title": "CTO", "department": "R&D",
            ])
    }

    @Test func controlCharactersCannotBreakTheLineFormat() {
        #expect(AbookExport.value("two\nlines\r\n[1]") == "two lines  [1]")
        #expect(AbookExport.value("\u{1B}[31mred\u{7}") == "[31mred")
        #expect(AbookExport.value("  padded\u{2028}") == "padded")
        let card = CardFields(name: "x\nname=evil", bio: "\n\n")
        #expect(AbookExport.fields(of: card).map(\.key) == ["name"])
        #expect(!AbookExport.addressBook([card]).contains("\nname=evil"))
    }

    @Test func theIndexFormatUsesTheTUIColumnWidths() {
        #expect(AbookExport.columnWidths(screen: 80) == [20, 17, 14])
        #expect(AbookExport.columnWidths(screen: 200) == [53, 46, 38])
        let configuration = AbookExport.configuration(columns: 80)
        #expect(configuration.contains("field company = Company"))
        #expect(configuration.contains("set index_format=\" {name:20}  {company:17}  {title:14}  {email}\""))
    }

    @Test func theFirstFrameMarkerIsInTheExportedSecondContact() throws {
        let cards = TerminalFixture.cards(count: 1_000)
        #expect(cards.count == 1_000)
        #expect(TerminalFixture.marker == cards[1].name)
        #expect(TerminalFixture.marker.allSatisfy { $0.isASCII })
        let book = AbookExport.addressBook(cards)
        let section = try #require(book.range(of: "\n[1]\n"))
        #expect(book[section.upperBound...].hasPrefix("name=\(TerminalFixture.marker)\n"))
    }
}
