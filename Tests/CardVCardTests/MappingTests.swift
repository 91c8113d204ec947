import CardModels
import CardVCard
import Foundation
import Testing

/// The mapping's rules, one at a time.
@Suite struct MappingTests {
    static func card(_ body: String, version: String = "3.0") -> Result<ImportedCard, VCardProblem>? {
        var reader = VCardReader(bytes: Array("BEGIN:VCARD\nVERSION:\(version)\n\(body)\nEND:VCARD\n".utf8))
        while let item = reader.next() {
            switch item {
            case .card(let card): return VCardImporter().card(from: card)
            case .problem(let problem): return .failure(problem)
            case .warning: continue
            }
        }
        return nil
    }

    static func imported(_ body: String, version: String = "3.0", sourceLocation: SourceLocation = #_sourceLocation)
        throws
        -> ImportedCard
    {
        try #require(card(body, version: version), sourceLocation: sourceLocation).get()
    }

    static func fields(_ body: String, version: String = "3.0", sourceLocation: SourceLocation = #_sourceLocation)
        throws -> CardFields
    {
        try imported(body, version: version, sourceLocation: sourceLocation).fields
    }

    static func problem(_ body: String) -> VCardProblem? {
        guard case .failure(let problem)? = card(body) else { return nil }
        return problem
    }

    @Test func theNameComesFromFNElseFromN() throws {
        #expect(try Self.fields("FN:Ada Lovelace\nN:Lovelace;Ada;;;").name == "Ada Lovelace")
        #expect(try Self.fields("N:Lovelace;Ada;King;Lady;").name == "Lady Ada King Lovelace")
        #expect(try Self.fields("N:김;민지;;;").name == "김민지")
        #expect(try Self.fields("N:Kim;민지;;;").name == "민지 Kim")
        #expect(try Self.fields("FN:  \nN:;Madonna;;;").name == "Madonna")
    }

    @Test func contactsWithoutANameAreNamedAfterTheirOrganisationEmailOrPhone() throws {
        let company = try Self.imported("N:;;;;\nORG:Acme Corp;Sales\nEMAIL:a@example.com\nTEL:+1 555 0100")
        #expect(company.fields.name == "Acme Corp")
        #expect(company.fields.company == "Acme Corp" && company.fields.email == "a@example.com")
        // The empty N goes (the writer writes it again); the marker says the name is ours.
        #expect(company.fields.vcardProperties == ["X-CARDWALLET-DERIVED-NAME:Acme Corp"])
        #expect(
            company.warnings == [
                VCardProblem(
                    line: 1, "the card has no name (no FN, no N): it is named “Acme Corp” after its organisation")
            ])
        let email = try Self.imported("FN:\nEMAIL;TYPE=HOME:b@example.com\nTEL:+1 555 0100")
        #expect(email.fields.name == "b@example.com")
        #expect(
            email.warnings.map(\.message) == [
                "the card has no name (no FN, no N): it is named “b@example.com” after its email address"
            ])
        #expect(try Self.fields("TEL;CELL:+1 555 0100", version: "2.1").name == "+1 555 0100")
        #expect(try Self.fields("ORG:;Night Shift").name == "Night Shift")
        let long = String(repeating: "Ö", count: 80)
        #expect(try Self.fields("ORG:\(long)").name == String(repeating: "Ö", count: 63) + "…")
        // A marker in a file is not ours: it is dropped.
        #expect(try Self.fields("FN:Ada\nX-CARDWALLET-DERIVED-NAME:Ada").vcardProperties == [])
        #expect(
            Self.problem("NOTE:only a note")
                == VCardProblem(
                    line: 1,
                    "the card has no name (no FN, no N), nor an organisation, email or phone number to name it by"))
    }

    @Test func anNThatTheWriterWouldDeriveIsNotKept() throws {
        #expect(try Self.fields("FN:Ada Lovelace\nN:Lovelace;Ada;;;").vcardProperties == [])
        #expect(try Self.fields("FN:Ada Lovelace\nN:Lovelace;Ada;;;").vcardProperties == [])
        #expect(
            try Self.fields("FN:Ada Lovelace\nN:Lovelace;Ada;;Lady;").vcardProperties == [
                "N;X-CARDWALLET-NAME=Ada Lovelace:Lovelace;Ada;;Lady;"
            ])
    }

    @Test func thePreferredEmailAndPhoneWinElseTheFirst() throws {
        let fields = try Self.fields(
            "FN:A\nEMAIL:first@example.com\nEMAIL;TYPE=pref:second@example.com\nTEL:111\nTEL:222")
        #expect(fields.email == "second@example.com")
        #expect(fields.phone == "111")
        let four = try Self.fields(
            "FN:A\nEMAIL;PREF=3:a@example.com\nEMAIL;PREF=1:b@example.com\nEMAIL;PREF=1:c@example.com", version: "4.0")
        #expect(four.email == "b@example.com")
        #expect(
            four.vcardProperties == [
                "EMAIL;X-CARDWALLET-FIELD=email;PREF=1:b@example.com", "EMAIL;PREF=3:a@example.com",
                "EMAIL;PREF=1:c@example.com",
            ])
    }

    @Test func valuesTheCardCannotHoldAreKeptAndTheNextOneIsUsed() throws {
        let fields = try Self.fields(
            "FN:A\nEMAIL:not an address\nEMAIL:mailto:a@example.com\nTEL:call me\nTEL:tel:+1-555-0100;ext=2\nURL:ftp://x.example\nURL:example.com\nBDAY:--0315"
        )
        #expect(fields.email == "a@example.com")
        #expect(fields.phone == "+1-555-0100")
        #expect(fields.website == nil)
        #expect(fields.birthday == nil)
        #expect(
            fields.vcardProperties == [
                "EMAIL;X-CARDWALLET-FIELD=email:mailto:a@example.com",
                "TEL;X-CARDWALLET-FIELD=phone:tel:+1-555-0100;ext=2",
                "EMAIL:not an address", "TEL:call me", "URL:ftp://x.example", "URL:example.com", "BDAY:--0315",
            ])
    }

    @Test(
        arguments: [
            ("1990-03-15", "1990-03-15"), ("19900315", "1990-03-15"), ("1990-03-15T00:00:00Z", "1990-03-15"),
            ("19900315T120000+0900", "1990-03-15"), ("--0315", nil), ("--03-15", nil), ("1990-02-30", nil),
            ("1990", nil),
            ("1990-0315", nil), ("yesterday", nil),
        ] as [(String, String?)])
    func birthdays(value: String, expected: String?) throws {
        #expect(try Self.fields("FN:A\nBDAY:\(value)").birthday == expected)
    }

    @Test func organizationAddressAndCategories() throws {
        let fields = try Self.fields(
            "FN:A\nORG:Acme\\, Inc.;R&D;Lab 3\nADR;TYPE=WORK:PO Box 1;Suite 2;1 Main St\\nFloor 3;Springfield;IL;62701;USA\nCATEGORIES:work, friends ,,vip\nCATEGORIES:other"
        )
        #expect(fields.company == "Acme, Inc.")
        #expect(fields.department == "R&D")
        #expect(fields.address == "PO Box 1, Suite 2, 1 Main St, Floor 3, Springfield, IL 62701, USA")
        #expect(fields.tags == ["work", "friends", "vip"])
        #expect(
            fields.vcardProperties == [
                "ORG;X-CARDWALLET-FIELD=company:Acme\\, Inc.;R&D;Lab 3",
                "ADR;X-CARDWALLET-FIELD=address;TYPE=WORK:PO Box 1;Suite 2;1 Main St\\nFloor 3;Springfield;IL;62701;USA",
                // Written back as it came, spaces and empty values included, while the tags stay.
                "CATEGORIES;X-CARDWALLET-FIELD=tags:work, friends ,,vip",
                "CATEGORIES:other",
            ])
    }

    @Test func uidsAreKeptUnlessCardWalletDerivedThem() throws {
        let foreign = try Self.imported("FN:A\nUID:abc-123")
        #expect(foreign.uid == "abc-123")
        #expect(foreign.fields.vcardProperties == ["UID:abc-123"])
        let ours = try Self.imported("FN:A\nUID:cardwallet-card_9")
        #expect(ours.uid == "cardwallet-card_9")
        #expect(ours.fields.vcardProperties == [])
    }

    @Test func walletFieldsComeBackFromTheirXProperties() throws {
        let card = try Self.imported(
            "FN:A\nX-CARDWALLET-TMI:Collects stamps\nX-CARDWALLET-TMI:Likes tea\\; a lot\nX-CARDWALLET-AVATAR:5")
        #expect(card.fields.funFacts == ["Collects stamps", "Likes tea; a lot"])
        #expect(card.fields.defaultImage == 5)
        #expect(card.carriesWalletFields)
        #expect(try Self.imported("FN:A").carriesWalletFields == false)
        #expect(try Self.fields("FN:A\nX-CARDWALLET-AVATAR:9").vcardProperties == ["X-CARDWALLET-AVATAR:9"])
    }

    @Test func ourMarkersAreNeverTakenFromAFile() throws {
        let fields = try Self.fields("FN:A\nEMAIL;X-CARDWALLET-FIELD=phone;TYPE=WORK:a@example.com")
        #expect(fields.vcardProperties == ["EMAIL;X-CARDWALLET-FIELD=email;TYPE=WORK:a@example.com"])
        #expect(ContentLine.displayText(fields.vcardProperties[0]) == "EMAIL;TYPE=WORK:a@example.com")
    }

    @Test func aValueOverItsLimitIsClippedAndItsPropertyKeptWhole() throws {
        let note = String(repeating: "n", count: 2_990) + " end."
        let card = try Self.imported("FN:A\nNOTE:\(note)")
        #expect(card.fields.bio == String(repeating: "n", count: 499) + "…")
        #expect(card.fields.vcardProperties == ["NOTE;X-CARDWALLET-FIELD=bio:\(note)"])
        #expect(
            card.warnings == [
                VCardProblem(
                    line: 4,
                    "NOTE (bio) is 2995 characters, more than the 500 the field holds: clipped, and kept whole for export"
                )
            ])
        #expect(card.fields.validate() == [:])
        let name = String(repeating: "a", count: 30) + " " + String(repeating: "b", count: 40)
        let named = try Self.imported("FN:\(name)")
        #expect(named.fields.name == String(repeating: "a", count: 30) + " " + String(repeating: "b", count: 32) + "…")
        #expect(named.fields.vcardProperties == ["FN;X-CARDWALLET-FIELD=name:\(name)"])
        #expect(named.warnings.map(\.line) == [3])
        let tags = (1...12).map { "t\($0)" }.joined(separator: ",")
        let tagged = try Self.imported("FN:A\nCATEGORIES:\(tags),\(String(repeating: "x", count: 40))")
        #expect(tagged.fields.tags == (1...10).map { "t\($0)" })
        #expect(
            tagged.fields.vcardProperties == [
                "CATEGORIES;X-CARDWALLET-FIELD=tags:\(tags),\(String(repeating: "x", count: 40))"
            ])
        #expect(
            tagged.warnings.map(\.message) == [
                "CATEGORIES (tags) holds 13 entries, more than the 10 the field holds: clipped, and kept whole for export"
            ])
        let org = try Self.imported(
            "FN:A\nORG:\(String(repeating: "c", count: 120));\(String(repeating: "d", count: 101))")
        #expect(org.fields.company?.count == 100 && org.fields.department?.count == 100)
        #expect(org.warnings.count == 2)
    }

    @Test func funFactsPastTheThirdAreKeptForExport() throws {
        let facts = (1...5).map { "X-CARDWALLET-TMI:fact \($0)" }.joined(separator: "\n")
        let card = try Self.imported("FN:A\n\(facts)\nX-CARDWALLET-TMI:\(String(repeating: "f", count: 120))")
        #expect(card.fields.funFacts == ["fact 1", "fact 2", "fact 3"])
        #expect(
            card.fields.vcardProperties == [
                "X-CARDWALLET-TMI:fact 4", "X-CARDWALLET-TMI:fact 5",
                "X-CARDWALLET-TMI:" + String(repeating: "f", count: 120),
            ])
        #expect(
            card.warnings == [
                VCardProblem(
                    line: 7, "X-CARDWALLET-TMI (tmi): a card holds 3 fun facts; the other 3 are kept for export only")
            ])
        let long = try Self.imported("FN:A\nX-CARDWALLET-TMI:\(String(repeating: "f", count: 120))")
        #expect(long.fields.funFacts == [String(repeating: "f", count: 99) + "…"])
        #expect(
            long.fields.vcardProperties == [
                "X-CARDWALLET-TMI;X-CARDWALLET-FIELD=tmi:" + String(repeating: "f", count: 120)
            ])
    }

    @Test func valuesWithAFormatOverTheirLimitAreKeptNotClipped() throws {
        let long = String(repeating: "e", count: 250) + "@example.com"
        let card = try Self.imported("FN:A\nEMAIL;TYPE=pref:\(long)\nEMAIL:short@example.com")
        #expect(card.fields.email == "short@example.com")
        #expect(card.fields.vcardProperties == ["EMAIL;TYPE=pref:\(long)"])
        #expect(
            card.warnings.map(\.message) == [
                "EMAIL (email) is 262 characters, more than the 254 the field holds: kept for export only"
            ])
    }

    @Test func keptLinesPastTheLimitsAreLeftOutWithAWarning() throws {
        let huge = "X-HUGE:" + String(repeating: "h", count: CardLimits.vcardPropertyMaxLength)
        let card = try Self.imported("FN:A\n\(huge)\nX-SMALL:s")
        #expect(card.fields.vcardProperties == ["X-SMALL:s"])
        #expect(
            card.warnings.map(\.message) == [
                "X-HUGE is 32007 characters, more than the 32000 a kept vCard property may have: left out"
            ])
        let many = (1...205).map { "X-N\($0):v" }.joined(separator: "\n")
        let crowded = try Self.imported("FN:A\n\(many)")
        #expect(crowded.fields.vcardProperties.count == 200 && crowded.fields.vcardProperties.last == "X-N200:v")
        #expect(
            crowded.warnings == [
                VCardProblem(
                    line: 204,
                    "the card has 205 properties the wallet keeps as they are, more than 200: the last 5 (from line 204) are left out"
                )
            ])
        // 14 lines of 30,000 characters and more are more than 400,000 in all: the largest goes.
        let big = (1...14).map { "X-B\($0):" + String(repeating: "b", count: $0 == 1 ? 31_000 : 30_000) }
        let heavy = try Self.imported("FN:A\n" + big.joined(separator: "\n"))
        #expect(heavy.fields.vcardProperties.count == 13)
        #expect(!heavy.fields.vcardProperties.contains { $0.hasPrefix("X-B1:") })
        #expect(heavy.fields.validate() == [:])
        #expect(heavy.warnings.map(\.line) == [4])
    }

    @Test func aPhotoTheCardCannotHoldCostsThePhotoNotTheCard() throws {
        // Not PNG or JPEG, not base64, a data: URI that is not base64, too large: the card comes
        // in without a picture, with a warning at the line, and keeps the line for export.
        let gif = TransferEncoding.base64Encode(Array("GIF89a....".utf8))
        let notImage = try Self.imported("FN:A\nPHOTO;ENCODING=b;TYPE=GIF:\(gif)")
        #expect(notImage.photo == nil)
        #expect(notImage.fields.vcardProperties == ["PHOTO;ENCODING=b;TYPE=GIF:\(gif)"])
        #expect(
            notImage.warnings == [
                VCardProblem(
                    line: 4,
                    "PHOTO: the photo is not a PNG or JPEG image: the card comes in without it; its line is kept as it was, for export"
                )
            ])
        let uri = try Self.imported("FN:A\nPHOTO:data:image/png,notbase64")
        #expect(uri.photo == nil && uri.fields.vcardProperties == ["PHOTO:data:image/png,notbase64"])
        #expect(uri.warnings.map(\.message).first?.hasPrefix("PHOTO: the data: URI is not base64 image data: ") == true)
        // Not base64: the card comes in without that property, and its line is not kept either
        // (written back, it would make a CardDAV server refuse the whole card).
        let damaged = try Self.imported("FN:A\nPHOTO;encoding=b;type=jpeg:@@@\nEMAIL:a@example.com")
        #expect(damaged.fields.email == "a@example.com")
        #expect(damaged.fields.vcardProperties.isEmpty)
        #expect(
            damaged.warnings == [
                VCardProblem(line: 4, "PHOTO: the base64 value is not valid base64: the card comes in without it")
            ])
        // A second PHOTO may still be the picture.
        let jpeg = [UInt8]([0xFF, 0xD8, 0xFF, 0xE0, 1, 2, 3])
        let second = try Self.imported(
            "FN:A\nPHOTO;ENCODING=b;TYPE=GIF:\(gif)\nPHOTO;ENCODING=b;TYPE=JPEG:\(TransferEncoding.base64Encode(jpeg))")
        #expect(second.photo?.bytes == jpeg)
        #expect(second.fields.vcardProperties == ["PHOTO;ENCODING=b;TYPE=GIF:\(gif)"])
        let big = [UInt8]([0xFF, 0xD8, 0xFF]) + [UInt8](repeating: 7, count: 3_000)
        var reader = VCardReader(
            bytes: Array("BEGIN:VCARD\nFN:A\nPHOTO;ENCODING=b:\(TransferEncoding.base64Encode(big))\nEND:VCARD\n".utf8))
        guard case .card(let card)? = reader.next() else {
            Issue.record("no card")
            return
        }
        let small = try VCardImporter(options: VCardImportOptions(maximumImageBytes: 1_000)).card(from: card).get()
        #expect(small.photo == nil)
        #expect(
            small.warnings.map(\.description) == [
                "line 3: PHOTO: the photo is 3003 bytes, more than the 1000 a card image may be: the card comes in without it; its line is kept as it was, for export"
            ])
        // A photo given as a link is kept as a line.
        #expect(
            try Self.fields("FN:A\nPHOTO;VALUE=uri:https://example.com/a.jpg").vcardProperties == [
                "PHOTO;VALUE=uri:https://example.com/a.jpg"
            ])
    }

    @Test func aLineTheReaderCannotReadCostsThatLineOnly() throws {
        let card = try Self.imported(
            "FN:Ada\nthis is not a property\nX-A;LABEL=\"open:value\nNOTE:fine\nEMAIL:ada@example.com")
        #expect(card.fields.name == "Ada" && card.fields.bio == "fine" && card.fields.email == "ada@example.com")
        #expect(card.fields.vcardProperties.isEmpty)
        #expect(
            card.warnings.map(\.description) == [
                "line 4: not a vCard property line (NAME:value): “this is not a property”: the card comes in without it",
                "line 5: X-A: a quoted parameter value has no closing quote: the card comes in without it",
            ])
        // A card left without a name by such lines is skipped with the first reason.
        #expect(
            Self.problem("FN;LABEL=\"Ada\nEMAIL\u{0}:x")
                == VCardProblem(line: 3, "FN: a quoted parameter value has no closing quote"))
    }
}
