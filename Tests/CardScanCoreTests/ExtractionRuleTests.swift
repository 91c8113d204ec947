import CardModels
import Testing

@testable import CardScanCore

/// The extraction rules, as a table: OCR-like lines in, the card's fields out.
@Suite("Field extraction rules")
struct ExtractionRuleTests {
    static let cases: [ExtractionCase] = [
        ExtractionCase(
            name: "left-aligned Latin card with a London address",
            rows: [
                Row("Ada Lovelace", 60), Row("Lead Programmer", 28), Row("Analytical Engines Ltd", 30),
                Row("T +44 20 7946 0321"), Row("ada.lovelace@analytical.co.uk"), Row("www.analytical.co.uk"),
                Row("12 St James's Square"), Row("London SW1Y 4LB"),
            ],
            expected: Expected(fields: [
                .name: "Ada Lovelace", .title: "Lead Programmer", .company: "Analytical Engines Ltd",
                .phone: "+44 20 7946 0321", .email: "ada.lovelace@analytical.co.uk",
                .website: "https://www.analytical.co.uk", .address: "12 St James's Square, London SW1Y 4LB",
            ])),
        ExtractionCase(
            name: "company printed larger than the name; mobile and fax",
            rows: [
                Row("ACME ROBOTICS INC.", 70), Row("Grace Hopper", 50), Row("Director of Engineering"),
                Row("grace@acme-robotics.com"), Row("M +1 (415) 555-0142"), Row("F +1 (415) 555-0199"),
            ],
            expected: Expected(
                fields: [
                    .name: "Grace Hopper", .company: "ACME ROBOTICS INC.", .title: "Director of Engineering",
                    .email: "grace@acme-robotics.com", .phone: "+1 (415) 555-0142",
                ],
                vcard: ["TEL;TYPE=FAX:+1 (415) 555-0199"])),
        ExtractionCase(
            name: "Korean card with syllables read apart, an extension and a mobile",
            rows: [
                Row("김 민 준", 70), Row("팀 장", 30), Row("주식회사 서 울 데 이 터 랩", 30), Row("개발팀", 26),
                Row("전화 02-555-0123 (내선 204)"), Row("휴대폰 010-1234-5678"), Row("minjun.kim@seouldatalab.co.kr"),
                Row("서 울 특별시 강남구 테헤란로 152"), Row("12 층"),
            ],
            expected: Expected(
                fields: [
                    .name: "김민준", .title: "팀장", .company: "주식회사 서울데이터랩", .department: "개발팀",
                    .phone: "02-555-0123", .email: "minjun.kim@seouldatalab.co.kr",
                    .address: "서울특별시 강남구 테헤란로 152, 12층",
                ],
                vcard: ["TEL;TYPE=CELL:010-1234-5678"], notes: ["extension 204"])),
        ExtractionCase(
            name: "the ㈜ mark read as 주, and a two-word Korean title",
            rows: [Row("주 한 빛 소프트", 32), Row("이서연", 64), Row("수석 엔지니어", 30), Row("T. 02-006-1285")],
            expected: Expected(fields: [.name: "이서연", .company: "㈜한빛소프트", .title: "수석 엔지니어", .phone: "02-006-1285"])),
        ExtractionCase(
            name: "labels glued, symbols and extensions",
            rows: [
                Row("Henrik Andersson", 56), Row("Nordic Timber AB", 28), Row("Tel.:+46 8 123 456 78 ext. 42"),
                Row("☎ +1 212 555 0100 x204"), Row("E:henrik@nordictimber.se"),
            ],
            expected: Expected(
                fields: [
                    .name: "Henrik Andersson", .company: "Nordic Timber AB", .phone: "+46 8 123 456 78",
                    .email: "henrik@nordictimber.se",
                ],
                vcard: ["TEL;TYPE=WORK:+1 212 555 0100 ext. 204"], notes: ["extension 42"])),
        ExtractionCase(
            name: "OCR's slips in contacts repaired",
            rows: [
                Row("Seojun Jang", 60), Row("E seojun.jang@pureu nsoop.co.kr"), Row("www,seouldatalab,kr"),
                Row("O2-555-Ol23"),
            ],
            expected: Expected(fields: [
                .name: "Seojun Jang", .email: "seojun.jang@pureunsoop.co.kr", .website: "https://www.seouldatalab.kr",
                .phone: "02-555-0123",
            ])),
        ExtractionCase(
            name: "a lost dot before the top-level domain; a scheme broken off",
            rows: [
                Row("Margaret Rossi", 60), Row("margaret.rossi@acme-robotics fr"), Row("W https:// acme-robotics.fr"),
            ],
            expected: Expected(fields: [
                .name: "Margaret Rossi", .email: "margaret.rossi@acme-robotics.fr",
                .website: "https://acme-robotics.fr",
            ])),
        ExtractionCase(
            name: "spaces OCR lost after country and area codes put back",
            rows: [Row("Camille Moreau", 60), Row("T +33 123 45 67 89"), Row("M +822-837-7180")],
            expected: Expected(
                fields: [.name: "Camille Moreau", .phone: "+33 1 23 45 67 89"], vcard: ["TEL;TYPE=CELL:+82 2-837-7180"])
        ),
        ExtractionCase(
            name: "an icon read as a digit before the country code",
            rows: [Row("Javier Castillo", 60), Row("7: +34 93 992 50 91"), Row("『+1 329 555 0171")],
            expected: Expected(
                fields: [.name: "Javier Castillo", .phone: "+34 93 992 50 91"], vcard: ["TEL;TYPE=WORK:+1 329 555 0171"]
            )),
        ExtractionCase(
            name: "no name on the card: made from the email, with a note",
            rows: [Row("Helix Biolabs Inc.", 40), Row("ada.lovelace@helix.io")],
            expected: Expected(
                fields: [.name: "Ada Lovelace", .company: "Helix Biolabs Inc.", .email: "ada.lovelace@helix.io"],
                notes: ["made from the email"])),
        ExtractionCase(
            name: "the email's local part picks the name among two",
            rows: [
                Row("United States Navy", 30), Row("Alan Turing", 44), Row("Grace Hopper", 40),
                Row("grace.hopper@navy.mil"),
            ],
            expected: Expected(
                fields: [.name: "Grace Hopper", .company: "United States Navy", .email: "grace.hopper@navy.mil"],
                notes: ["not used: “Alan Turing”"])),
        ExtractionCase(
            name: "an unsure email put right by a sure name, with a note",
            rows: [Row("Ken McCarthy", 60, confidence: 96), Row("E: k.mccarthty@ironwood.es", confidence: 62)],
            expected: Expected(
                fields: [.name: "Ken McCarthy", .email: "k.mccarthy@ironwood.es"],
                notes: ["one letter changed to match the name"])),
        ExtractionCase(
            name: "a clearly read email that differs from the name is left alone",
            rows: [Row("John Smith", 60, confidence: 96), Row("jon.smith@acme.com", confidence: 95)],
            expected: Expected(fields: [.name: "John Smith", .email: "jon.smith@acme.com"])),
        ExtractionCase(
            name: "a company without legal form found by the email's domain",
            rows: [Row("Northwind Traders", 40), Row("Ada Lovelace", 38), Row("alovelace@northwind.com")],
            expected: Expected(fields: [
                .name: "Ada Lovelace", .company: "Northwind Traders", .email: "alovelace@northwind.com",
            ])),
        ExtractionCase(
            name: "titles, departments and functions told apart",
            rows: [Row("Linus Torvalds", 60), Row("VP of Operations"), Row("Platform Team"), Row("Sales & Marketing")],
            expected: Expected(
                fields: [.name: "Linus Torvalds", .title: "VP of Operations", .department: "Platform Team"],
                notes: ["Sales & Marketing"])),
        ExtractionCase(
            name: "German address with ß misread, postcode and town",
            rows: [
                Row("Emma Fischer", 60), Row("Copperfield Design GmbH & Co. KG", 30), Row("LindenstraBe 184"),
                Row("20095 Hamburg"),
            ],
            expected: Expected(fields: [
                .name: "Emma Fischer", .company: "Copperfield Design GmbH & Co. KG",
                .address: "Lindenstraße 184, 20095 Hamburg",
            ])),
        ExtractionCase(
            name: "US address with state and ZIP is no website",
            rows: [Row("Clara Whitfield", 60), Row("391 Elm Blvd"), Row("Seattle, WA 98176")],
            expected: Expected(fields: [.name: "Clara Whitfield", .address: "391 Elm Blvd, Seattle, WA 98176"])),
        ExtractionCase(
            name: "a name longer than a card allows is left out with a note",
            rows: [Row("Maximiliana Wolfeschlegelstein Bergerdorffsmithson Grünewaldhausen", 60)],
            expected: Expected(fields: [:], notes: ["must be at most 64 characters"])),
        ExtractionCase(
            name: "a fax alone is not the phone",
            rows: [Row("Nora Brennan", 60), Row("Fax +44 161 496 0076")],
            expected: Expected(
                fields: [.name: "Nora Brennan"], vcard: ["TEL;TYPE=FAX:+44 161 496 0076"], notes: ["only a fax"])),
        ExtractionCase(
            name: "a free mail domain says nothing of the company; a mailbox nothing of the name",
            rows: [Row("Tim Berners", 60), Row("info@gmail.com")],
            expected: Expected(fields: [.name: "Tim Berners", .email: "info@gmail.com"])),
        ExtractionCase(
            name: "two items on one row are split at the gap",
            rows: [Row("Ada Lovelace \t ada@lovelace.dev", 40)],
            expected: Expected(fields: [.name: "Ada Lovelace", .email: "ada@lovelace.dev"])),
        ExtractionCase(
            name: "specks only: nothing found",
            rows: [Row("~ |", 20, confidence: 12), Row("_ -", 20, confidence: 8)],
            expected: Expected(fields: [:], notes: ["not found"])),
    ]

    @Test(arguments: cases)
    func extracts(_ example: ExtractionCase) throws {
        let card = CardFieldExtractor().extract(from: page(example.rows))
        for field in [CardField.name, .title, .company, .department, .email, .phone, .website, .address] {
            #expect(card.fields[field] == example.expected.fields[field] ?? "", "\(field.key)")
        }
        #expect(card.fields.vcardProperties == example.expected.vcard)
        for text in example.expected.notes {
            #expect(card.notes.contains { $0.description.contains(text) }, "a note with “\(text)” in \(card.notes)")
        }
        #expect(card.fields.validate().isEmpty || card.fields.name.isEmpty)
    }

    @Test("notes come in the card's field order, card-wide ones last")
    func noteOrder() {
        let card = CardFieldExtractor().extract(
            from: page([
                Row("Grace Hopper", 50), Row("Helix Labs", 30), Row("Fax +1 212 555 0100"), Row("alan.turing@helix.io"),
                Row("Something Else Entirely", 20),
            ]))
        let fields = card.notes.map { $0.field ?? "~" }
        let order = CardField.allCases.map(\.key) + ["~"]
        #expect(fields == fields.sorted { order.firstIndex(of: $0)! < order.firstIndex(of: $1)! })
        #expect(!card.notes.isEmpty)
    }
}
