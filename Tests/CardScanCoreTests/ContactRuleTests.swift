import CardModels
import Testing

@testable import CardScanCore

/// The pieces of the rules, each as its own table: phones, emails, websites, Korean spacing,
/// line kinds.
@Suite("Contact and line rules")
struct ContactRuleTests {
    /// A line of `text` (one word per space, each read with `confidence`) and what the contact
    /// finder makes of it with `endings`.
    static func found(_ text: String, confidence: Double = 95, endings: DomainEndings = .system)
        -> ContactFinder.Found
    {
        let words = text.split(separator: " ").enumerated().map { index, word in
            OCRWord(
                text: String(word), box: OCRBox(x: index * 100, y: 0, width: 90, height: 20), confidence: confidence)
        }
        let finder = ContactFinder(hosts: HostNames(endings: endings), sureReading: 80)
        return finder.contacts(in: ScanLine(words: words, text: words.map(\.text).joined(separator: " "), index: 0))
    }

    /// The contacts found on a line of `text`, read with 95 % confidence.
    static func contacts(_ text: String) -> [ContactHit] { found(text).hits }

    @Test(
        arguments: [
            ("+1 (415) 555-0142", "+1 (415) 555-0142", nil),
            ("(415) 555-0142", "(415) 555-0142", nil),
            ("415.555.0142", "415.555.0142", nil),
            ("+44 (0)20 7946 0321", "+44 (0)20 7946 0321", nil),
            ("+49 30 123456-78", "+49 30 123456-78", nil),
            ("089/1234567", "089 1234567", nil),
            ("02-555-0123", "02-555-0123", nil),
            ("Tel: +81 3-1234-5678", "+81 3-1234-5678", nil),
            ("T +1 212 555 0100 ext. 204", "+1 212 555 0100", "204"),
            ("+1 212 555 0100 x31", "+1 212 555 0100", "31"),
            ("031-478-0554 (내선 111)", "031-478-0554", "111"),
            ("O2-555-Ol23", "02-555-0123", nil),
            ("031=019-9710", "031-019-9710", nil),
            ("+822-837-7180", "+82 2-837-7180", nil),
            ("+4420 7946 0321", "+44 20 7946 0321", nil),
            ("+3589 1234 5678", "+3589 1234 5678", nil),
            ("+33 123 45 67 89", "+33 1 23 45 67 89", nil),
            ("+82 29552 6817", "+82 2 9552 6817", nil),
        ] as [(String, String, String?)])
    func phone(_ line: String, number: String, ext: String?) throws {
        let hits = Self.contacts(line)
        let hit = try #require(hits.first, "no phone in “\(line)”")
        #expect(hit.value == number)
        #expect(hit.phoneExtension == ext)
        #expect(CardFormat.isPhone(hit.value))
    }

    @Test(arguments: ["Suite 1400", "10117 Berlin", "111 51 Stockholm", "Calle de Alcalá 154", "2024", "12층"])
    func notPhones(_ line: String) {
        #expect(!Self.contacts(line).contains { if case .phone = $0.kind { true } else { false } }, "\(line)")
    }

    @Test(arguments: [
        ("M +82 10-1234-5678", ScanRules.LabelKind.mobile), ("휴대폰 010-1234-5678", .mobile),
        ("HP 010-1234-5678", .mobile),
        ("F +44 161 496 0076", .fax), ("팩스 02-555-0199", .fax), ("☎ +1 212 555 0100", .phone),
        ("전화 02-555-0123", .phone),
        ("Tel.:+46 8 123 456 78", .phone),
    ])
    func labels(_ line: String, kind: ScanRules.LabelKind) throws {
        let hit = try #require(Self.contacts(line).first)
        #expect(hit.kind == .phone(kind))
    }

    @Test(arguments: [
        ("ada@example.com", "ada@example.com"), ("E: Ada.Lovelace@Example.COM", "ada.lovelace@example.com"),
        ("seojun.jang@pureu nsoop.co.kr", "seojun.jang@pureunsoop.co.kr"),
        ("margaret@acme-robotics fr", "margaret@acme-robotics.fr"),
        ("doyun@seouldatalab.co kr", "doyun@seouldatalab.co.kr"), ("jiwoo@hanbitsoft.co. kr", "jiwoo@hanbitsoft.co.kr"),
        ("e,fischer@copperfield.de", "e.fischer@copperfield.de"),
        ("seojun.ja ng@seouldatalab.kr", "seojun.ja" + "ng@seouldatalab.kr"),
        ("doyun.cho@miraeenergy-kr", "doyun.cho@miraeenergy.kr"), ("Email:ada@example.com", "ada@example.com"),
        ("name@mail.firm.co.jp", "name@mail.firm.co.jp"), ("E: k.tanaka@mail.firm.co jp", "k.tanaka@mail.firm.co.jp"),
        ("max@kanzlei.berlin", "max@kanzlei.berlin"), ("ada@acme.com au", "ada@acme.com.au"),
        ("hello@studio photography", "hello@studio.photography"), ("ADA@FIRM.LAW", "ada@firm.law"),
        ("yejun.jung@corp.miraeenergy- padova.it", "yejun.jung@corp.miraeenergy.padova.it"),
        ("ada@acme- robotics.com", "ada@acme-robotics.com"),
        ("E ¢.mccarthy@blueharbor.jnj", "c.mccarthy@blueharbor.jnj"),
    ])
    func email(_ line: String, expected: String) throws {
        let hit = try #require(Self.contacts(line).first { $0.kind == .email }, "no email in “\(line)”")
        #expect(hit.value == expected)
        #expect(CardFormat.isEmail(hit.value))
    }

    @Test(arguments: ["@ +44 20 7946 0538", "ada@", "@example.com", "ada@localhost", "a@b.c"])
    func notEmails(_ line: String) {
        #expect(!Self.contacts(line).contains { $0.kind == .email }, "\(line)")
    }

    @Test(arguments: [
        ("www.acme.com", "https://www.acme.com"), ("acme.co.uk", "https://acme.co.uk"),
        ("https://acme.io/team", "https://acme.io/team"),
        ("http://acme.io", "http://acme.io"), ("W: www,seouldatalab,kr", "https://www.seouldatalab.kr"),
        ("https:// miraeenergy.com", "https://miraeenergy.com"), ("www. hanbitsoft.kr", "https://www.hanbitsoft.kr"),
        ("www-silverline.com", "https://www.silverline.com"), ("https://blueharbor fr", "https://blueharbor.fr"),
        ("WWW.ACME.COM", "https://www.acme.com"), ("studio.photography", "https://studio.photography"),
        ("www.kanzlei.law", "https://www.kanzlei.law"), ("Web: acme.solutions", "https://acme.solutions"),
        ("acme.co kr", "https://acme.co.kr"), ("https://firm.bank/en", "https://firm.bank/en"),
        ("shop.acme.com.au", "https://shop.acme.com.au"),
    ])
    func website(_ line: String, expected: String) throws {
        let hit = try #require(Self.contacts(line).first { $0.kind == .website }, "no website in “\(line)”")
        #expect(hit.value == expected)
        #expect(CardFormat.isWebURL(hit.value))
    }

    @Test(arguments: [
        "Seattle, WA 98176", "Meridian Foods S.L.", "Copperfield Design GmbH & Co. KG", "e.V.", "Dr.No", "U.S.A.",
        "sales.corn", "team.robotics", "Ph.D.", "415.555.0142",
    ])
    func notWebsites(_ line: String) {
        #expect(!Self.contacts(line).contains { $0.kind == .website }, "\(line)")
    }

    @Test(arguments: [
        (["정", "예", "준"], "정예준"), (["책", "임", "연구원"], "책임연구원"), (["수석", "엔지니어"], "수석 엔지니어"),
        (["주식회사", "서", "울", "데", "이", "터", "랩"], "주식회사 서울데이터랩"), (["서", "울", "특별시", "중구"], "서울특별시 중구"),
        (["주", "부", "산", "해", "양", "물류"], "㈜부산해양물류"), (["(주)", "한빛소프트"], "㈜한빛소프트"), (["11", "층"], "11층"),
        (["Ada", "Lovelace"], "Ada Lovelace"),
    ])
    func hangulSpacing(_ words: [String], expected: String) {
        #expect(HangulSpacing.repaired(words) == expected)
    }

    @Test func lineKinds() {
        for title in [
            "Director of Engineering", "Co-Founder & CEO", "Senior Software Engineer", "팀장", "책임연구원", "수석 엔지니어",
            "VP of Operations",
        ] {
            #expect(LineKinds.isTitle(title), "\(title)")
        }
        for text in ["Engineering", "Analytical Engines Ltd", "Ada Lovelace", "서울데이터랩"] {
            #expect(!LineKinds.isTitle(text), "\(text)")
        }
        for department in ["Engineering", "Platform Team", "Finance Department", "개발팀", "영업본부", "기술연구소"] {
            #expect(LineKinds.isDepartment(department), "\(department)")
        }
        for text in ["Director of Engineering", "김영실", "Ada Lovelace"] {
            #expect(!LineKinds.isDepartment(text), "\(text)")
        }
        for company in [
            "Analytical Engines Ltd", "Acme Robotics Inc.", "Nordic Timber AB", "Soluciones S.A.", "주식회사 푸른숲", "㈜한빛소프트",
            "Helix GmbH",
        ] {
            #expect(LineKinds.hasLegalForm(company), "\(company)")
        }
        for text in ["Work as a team", "Ada Lovelace", "Polar Networks", "Studio Ab"] {
            #expect(!LineKinds.hasLegalForm(text), "\(text)")
        }
        for address in [
            "350 Fifth Avenue, Suite 4100", "Seattle, WA 98101", "10117 Berlin", "London EC1A 1BB",
            "Friedrichstraße 12",
            "Bahnhofstraf&e 479", "서울특별시 강남구 테헤란로 152", "서울 강남구 역삼동 12", "12층",
        ] {
            #expect(LineKinds.isAddress(address), "\(address)")
        }
        for text in ["부산해양물류", "Ada Lovelace", "Director of Engineering", "ada@example.com"] {
            #expect(!LineKinds.isAddress(text), "\(text)")
        }
        for name in ["Ada Lovelace", "GRACE HOPPER", "Jean-Luc O'Neil", "Dr. Radia Perlman", "김민준"] {
            #expect(LineKinds.isNameShaped(name), "\(name)")
        }
        for text in ["ada lovelace", "Ada", "Suite 400", "주식회사 서울데이터랩", "ada@example.com"] {
            #expect(!LineKinds.isNameShaped(text), "\(text)")
        }
    }

    @Test func emailAgreement() {
        #expect(LineKinds.agreement(name: "Ada Lovelace", emailLocal: "ada.lovelace") == 2)
        #expect(LineKinds.agreement(name: "Ada Lovelace", emailLocal: "alovelace") == 2)
        #expect(LineKinds.agreement(name: "Lucía García", emailLocal: "lucia.garcia") == 2)
        #expect(LineKinds.agreement(name: "Ada Lovelace", emailLocal: "ada") == 1)
        #expect(LineKinds.agreement(name: "Ada Lovelace", emailLocal: "info") == 0)
    }

    @Test func emailRepair() {
        #expect(EmailRepair.corrected("k.mccarthty", name: "Ken McCarthy") == "k.mccarthy")
        #expect(EmailRepair.corrected("ada.lovelacc", name: "Ada Lovelace") == "ada.lovelace")
        #expect(EmailRepair.corrected("ada.lovelace", name: "Ada Lovelace") == nil)
        #expect(EmailRepair.corrected("sales", name: "Ada Lovelace") == nil)
        #expect(EmailRepair.corrected("lucia.garcia", name: "Lucía García") == nil)
        #expect(EmailRepair.corrected("luciagarcia", name: "Lucía García") == nil)
        #expect(EmailRepair.corrected("x", name: "Ada") == nil)
        // Two edits in a long local part (`h` read as `lt`), one in a short one.
        #expect(EmailRepair.corrected("k.mccartlty", name: "Kenji McCarthy") == "k.mccarthy")
        #expect(EmailRepair.corrected("adx.lov", name: "Ada Love") == nil)
        #expect(EmailRepair.corrected("ada.lovelacc", name: "Ada Lovelace") == "ada.lovelace")
        #expect(EmailRepair.editDistance("kitten", "sitten", limit: 1) == 1)
        #expect(EmailRepair.editDistance("kitten", "sitting", limit: 1) == 2)
        #expect(EmailRepair.editDistance("", "a", limit: 1) == 1)
        #expect(EmailRepair.editDistance("abc", "abc", limit: 1) == 0)
    }

    @Test("the rule tables are written as they are looked up")
    func tablesUseRuleKeys() {
        for label in ScanRules.labels.keys { #expect(label == label.ruleKey, "\(label)") }
        for word in ScanRules.roleWords.union(ScanRules.legalSuffixes).union(ScanRules.streetWords) {
            #expect(word == word.lowercased(), "\(word)")
        }
        for suffix in ScanRules.capitalLegalSuffixes { #expect(suffix == suffix.uppercased()) }
        for ending in ScanRules.fallbackTopLevelDomains.union(ScanRules.fallbackSecondLevelDomains) {
            #expect(ending == ending.lowercased() && HostNames.isTopLevelShaped(ending), "\(ending)")
        }
    }
}
