import CardModels
import CardVCard
import Foundation
import Testing

/// The mapping's rules, one at a time.
@Suite struct MappingTests {
    static func card(_ body: String, version: String = "3.0") -> Result<ImportedCard, VCardProblem>? {
        var reader = VCardReader(bytes: Array("BEGIN:VCARD\nVERSION:\(version)\n\(body)\nEND:VCARD\n".utf8))
        switch reader.next() {
        case .card(let card)?: return VCardImporter().card(from: card)
        case .problem(let problem)?: return .failure(problem)
        case nil: return nil
        }
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
        #expect(
            Self.problem("N:;;;;\nEMAIL:a@example.com") == VCardProblem(line: 1, "the card has no name (no FN, no N)"))
        #expect(Self.problem("ORG:Acme") == VCardProblem(line: 1, "the card has no name (no FN, no N)"))
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
        #expect(card.fields.tmi == ["Collects stamps", "Likes tea; a lot"])
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

    @Test func valuesOverALimitSkipTheCardAtTheirLine() {
        let note = String(repeating: "n", count: 501)
        #expect(
            Self.problem("FN:A\nNOTE:\(note)") == VCardProblem(line: 4, "NOTE (bio) must be at most 500 characters"))
        #expect(
            Self.problem("FN:\(String(repeating: "a", count: 65))")
                == VCardProblem(line: 3, "FN (name) must be at most 64 characters"))
        let tags = (1...11).map { "t\($0)" }.joined(separator: ",")
        #expect(
            Self.problem("FN:A\nCATEGORIES:\(tags)")
                == VCardProblem(line: 4, "CATEGORIES (tags) may hold at most 10 tags"))
        #expect(
            Self.problem("FN:A\nX-LONG:\(String(repeating: "x", count: 2_000))")
                == VCardProblem(line: 4, "X-LONG is longer than the 2000 characters a kept property may have"))
        let many = (1...201).map { "X-N\($0):v" }.joined(separator: "\n")
        #expect(
            Self.problem("FN:A\n\(many)")
                == VCardProblem(line: 1, "the card has 201 properties the wallet keeps as they are, more than 200"))
    }

    @Test func photosThatAreNotPNGOrJPEGOrTooLarge() throws {
        let gif = TransferEncoding.base64Encode(Array("GIF89a....".utf8))
        #expect(
            Self.problem("FN:A\nPHOTO;ENCODING=b;TYPE=GIF:\(gif)")
                == VCardProblem(line: 4, "PHOTO: the photo is not a PNG or JPEG image"))
        #expect(
            Self.problem("FN:A\nPHOTO:data:image/png,notbase64")
                == VCardProblem(line: 4, "PHOTO: the data: URI is not base64 image data"))
        #expect(
            Self.problem("FN:A\nPHOTO;ENCODING=b:@@@")
                == VCardProblem(line: 4, "PHOTO: the base64 value is not valid base64"))
        let big = [UInt8]([0xFF, 0xD8, 0xFF]) + [UInt8](repeating: 7, count: 3_000)
        var reader = VCardReader(
            bytes: Array("BEGIN:VCARD\nFN:A\nPHOTO;ENCODING=b:\(TransferEncoding.base64Encode(big))\nEND:VCARD\n".utf8))
        guard case .card(let card)? = reader.next() else {
            Issue.record("no card")
            return
        }
        let small = VCardImporter(options: VCardImportOptions(maximumImageBytes: 1_000)).card(from: card)
        #expect(
            small
                == .failure(
                    VCardProblem(line: 3, "PHOTO: the photo is 3003 bytes, more than the 1000 a card image may be")))
        // A photo given as a link is kept as a line.
        #expect(
            try Self.fields("FN:A\nPHOTO;VALUE=uri:https://example.com/a.jpg").vcardProperties == [
                "PHOTO;VALUE=uri:https://example.com/a.jpg"
            ])
    }
}
