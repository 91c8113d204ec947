import CardModels
import Testing

@testable import CardScanCore

/// Emails and websites on a line and on a card: used whatever they end in when read surely,
/// repaired or left out (with a note) when doubtful.
@Suite("Addresses and their endings")
struct AddressReadingTests {
    static let missing = DomainEndings.load(path: "/nonexistent/public_suffix_list.dat")

    static func email(_ found: ContactFinder.Found) -> ContactHit? { found.hits.first { $0.kind == .email } }
    static func website(_ found: ContactFinder.Found) -> ContactHit? { found.hits.first { $0.kind == .website } }

    @Test("a doubtful reading whose ending is unknown is put right by one usual OCR slip, with a note")
    func repaired() throws {
        let found = ContactRuleTests.found("E: ada@acme.corn", confidence: 62)
        let hit = try #require(Self.email(found))
        #expect(hit.value == "ada@acme.com")
        #expect(hit.note?.contains("read as “ada@acme.corn” (62 % sure)") == true, "\(hit.note ?? "")")
        let site = try #require(Self.website(ContactRuleTests.found("www.acme.corn", confidence: 55)))
        #expect(site.value == "https://www.acme.com")
    }

    @Test("a sure reading is used as read whatever it ends in, with a note when the list does not know it")
    func sure() throws {
        let hit = try #require(Self.email(ContactRuleTests.found("ada@acme.corn", confidence: 93)))
        #expect(hit.value == "ada@acme.corn")
        #expect(hit.note == "“ada@acme.corn” ends in “.corn”, not an ending the Public Suffix List knows: check it")
        let known = try #require(Self.email(ContactRuleTests.found("ada@firm.law", confidence: 93)))
        #expect(known.note == nil)
        let site = try #require(Self.website(ContactRuleTests.found("https://acme.zzz", confidence: 93)))
        #expect(site.value == "https://acme.zzz")
    }

    @Test("a doubtful reading that nothing puts right is left out, with a note, and its words with it")
    func dropped() throws {
        let found = ContactRuleTests.found("E: ada@acme.qqqq", confidence: 60)
        #expect(found.hits.isEmpty)
        #expect(found.rest == nil, "the address's words and label are not left as a line")
        let note = try #require(found.dropped.first)
        #expect(note.hasPrefix("not used: “ada@acme.qqqq” reads like an address, but “.qqqq”"), "\(note)")
        #expect(note.contains("60 % confidence"), "\(note)")
        #expect(ContactRuleTests.found("ada@co.kr").dropped.first?.contains("no name before its ending") == true)
    }

    @Test("a bare host is a website only when its ending is known, or a label or www says so")
    func bareHosts() throws {
        #expect(Self.website(ContactRuleTests.found("studio.photography")) != nil)
        #expect(Self.website(ContactRuleTests.found("studio.zzz")) == nil)
        #expect(ContactRuleTests.found("studio.zzz").rest == "studio.zzz")
        let labelled = try #require(Self.website(ContactRuleTests.found("W: studio.zzz")))
        #expect(labelled.value == "https://studio.zzz")
    }

    @Test("without the file: the built-in list, sure readings still used, the note says why")
    func builtInList() throws {
        let sure = try #require(
            Self.website(ContactRuleTests.found("www.studio.bike", confidence: 94, endings: Self.missing)))
        #expect(sure.value == "https://www.studio.bike")
        #expect(sure.note?.contains("built-in list") == true)
        #expect(Self.website(ContactRuleTests.found("studio.bike", endings: Self.missing)) == nil)
        let doubtful = ContactRuleTests.found("jo@studio.bike", confidence: 50, endings: Self.missing)
        #expect(doubtful.hits.isEmpty)
        #expect(doubtful.dropped.count == 1)
        // The endings it knows still work: `co kr`, two letters, the common generic ones.
        let email = Self.email(ContactRuleTests.found("doyun@seouldatalab.co kr", endings: Self.missing))
        #expect(email?.value == "doyun@seouldatalab.co.kr")
        #expect(Self.email(ContactRuleTests.found("ada@firm.law", endings: Self.missing))?.note == nil)
    }

    @Test("on a card: the fields, the notes, and the company found by the domain under a longer ending")
    func card() throws {
        let rows = [
            Row("Kenji Nakamura", 58), Row("Senior Consultant", 28), Row("Helix Biolabs", 30),
            Row("k.nakamura@mail.helix-biolabs.co.jp"), Row("helix-biolabs.photography"),
            Row("ada@acme.qqqq", confidence: 55), Row("T +81 3-1234-5678"),
        ]
        let card = CardFieldExtractor().extract(from: page(rows))
        #expect(card.fields.email == "k.nakamura@mail.helix-biolabs.co.jp")
        #expect(card.fields.website == "https://helix-biolabs.photography")
        #expect(card.fields.company == "Helix Biolabs")
        #expect(!card.notes.contains { $0.field == "company" }, "found by the domain, not guessed: \(card.notes)")
        let dropped = card.notes.filter { $0.text.contains("ada@acme.qqqq") }
        #expect(dropped.count == 1, "one note, not a second “not used” line: \(card.notes)")
        #expect(dropped.first?.field == nil)
    }

    @Test("the website chooses whether a space OCR read inside the email's domain was a lost dot")
    func agreement() {
        let email = Row("E: jiwoo.yoon@mail hanbitsoft.co.kr")
        let site = Row("W www.hanbitsoft.co.kr")
        let name = Row("Jiwoo Yoon", 58)
        let withSite = CardFieldExtractor().extract(from: page([name, email, site]))
        #expect(withSite.fields.email == "jiwoo.yoon@mail.hanbitsoft.co.kr")
        #expect(withSite.notes.contains { $0.field == "email" && $0.text.contains("as the website’s") })
        let alone = CardFieldExtractor().extract(from: page([name, email]))
        #expect(alone.fields.email == "jiwoo.yoon@mailhanbitsoft.co.kr")
        let spaceInName = CardFieldExtractor().extract(
            from: page([name, Row("seojun@pureu nsoop.co.kr"), Row("www.pureunsoop.co.kr")]))
        #expect(spaceInName.fields.email == "seojun@pureunsoop.co.kr")
    }

    @Test("an address Tesseract broke across two lines of a tilted card is one again")
    func brokenAcrossLines() {
        func word(_ text: String, x: Int, y: Int) -> OCRWord {
            OCRWord(text: text, box: OCRBox(x: x, y: y, width: text.count * 13, height: 24), confidence: 90)
        }
        let page = OCRPage(
            width: 1500, height: 850,
            lines: [
                OCRLine(words: [word("Yejun", x: 60, y: 60), word("Jung", x: 150, y: 60)]),
                OCRLine(words: [
                    word("E", x: 600, y: 300), word("yejun.jung@corp.", x: 630, y: 300),
                    word("miraeenergy-", x: 850, y: 298),
                ]),
                OCRLine(words: [word("padova.it", x: 1012, y: 290)]),
                OCRLine(words: [word("Seattle", x: 1012, y: 500)]),
            ])
        let card = CardFieldExtractor().extract(from: page)
        #expect(card.fields.email == "yejun.jung@corp.miraeenergy.padova.it")
        #expect(!card.notes.contains { $0.text.contains("padova") }, "\(card.notes)")
    }

    @Test("on a card without the file: a sure address is kept, with the note on its field")
    func cardWithBuiltInList() {
        let rows = [Row("Ada Lovelace", 58), Row("ada@lovelace.bike"), Row("www.lovelace.bike")]
        let card = CardFieldExtractor(endings: Self.missing).extract(from: page(rows))
        #expect(card.fields.email == "ada@lovelace.bike")
        #expect(card.fields.website == "https://www.lovelace.bike")
        #expect(card.notes.contains { $0.field == "email" && $0.text.contains("built-in list") })
        #expect(card.notes.contains { $0.field == "website" && $0.text.contains("built-in list") })
    }
}
