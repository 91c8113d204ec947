import CardModels
import CardVCard
import Foundation
import Testing

/// An edit rewrites only the lines of the fields it changes; every other line comes back byte
/// for byte.
@Suite struct ResourceEditTests {
    static func ios() throws -> VCardResource { try VCardResource(bytes: Fixture.bytes("ios-30-grouped.vcf")) }

    @Test func theEmailSlotRewritesOnlyItsOwnLine() throws {
        let before = try Self.ios()
        var fields = before.fields
        fields.email = "ada@lovelace.example"
        let after = try before.edited(fields: fields)
        Editing.expectChange(
            from: before, to: after, gone: ["item1.EMAIL;type=INTERNET;type=pref:ada@example.com"],
            new: ["item1.EMAIL;type=INTERNET;type=pref:ada@lovelace.example"])
        #expect(after.fields == fields)
        // In its place: the label after it still labels it.
        let lines = after.contentLines
        let email = try #require(lines.firstIndex { $0.hasPrefix("item1.EMAIL") })
        #expect(lines[email + 1] == "item1.X-ABLabel:_$!<Other>!$_")
    }

    @Test func thePhoneSlotIsThePreferredOneAndTheOthersStay() throws {
        let before = try Self.ios()
        var fields = before.fields
        fields.phone = "+44 20 7946 1111"
        let after = try before.edited(fields: fields)
        Editing.expectChange(
            from: before, to: after, gone: ["TEL;type=CELL;type=VOICE;type=pref:+44 20 7946 0000"],
            new: ["TEL;type=CELL;type=VOICE;type=pref:+44 20 7946 1111"])
    }

    @Test(arguments: CardField.allCases)
    func everyFieldRoundTripsThroughAnEdit(field: CardField) throws {
        let before = try Self.ios()
        var fields = before.fields
        let value = Self.sample[field]!
        fields[field] = value
        let after = try before.edited(fields: fields)
        #expect(after.fields[field] == CardFields(name: "x").with(field, value)[field])
        #expect(after.fields == fields.normalized())
        Editing.expectWellFormed(after, comparedTo: before)
        // The other properties are untouched: only lines of this field's properties changed.
        let keys = Self.properties[field]!
        let difference = Editing.difference(before.bytes, after.bytes)
        #expect((difference.gone + difference.new).allSatisfy { keys.contains(Editing.key($0)) }, "\(difference)")
        #expect(!difference.new.isEmpty)
    }

    /// A value for every field, with what vCard must escape.
    static let sample: [CardField: String] = [
        .name: "Augusta Ada King, Countess of Lovelace", .title: "Analyst; poet", .company: "Babbage & Co.",
        .department: "Engines, Difference", .email: "countess@example.org", .phone: "+44 (0)20 7946-0999",
        .website: "https://example.org/ada?x=1,2", .address: "St James's Square; London",
        .bio: "Line one,\nline two; and \\ a backslash", .birthday: "1852-11-27",
        .funFacts: "Poet's daughter; Met Faraday",
        .tags: "math, history, 컴퓨터", .defaultImage: "5",
    ]
    /// The properties a field's edit may touch.
    static let properties: [CardField: Set<String>] = [
        .name: ["FN", "N"], .title: ["TITLE"], .company: ["ORG"], .department: ["ORG"], .email: ["EMAIL"],
        .phone: ["TEL"], .website: ["URL"], .address: ["ADR"], .bio: ["NOTE"], .birthday: ["BDAY"],
        .funFacts: ["X-CARDWALLET-TMI"], .tags: ["CATEGORIES"], .defaultImage: ["X-CARDWALLET-AVATAR"],
    ]

    @Test func clearingAFieldRemovesOnlyItsLineAndTheLabelOfItsGroup() throws {
        let before = try Self.ios()
        var fields = before.fields
        fields.website = nil
        let after = try before.edited(fields: fields)
        Editing.expectChange(
            from: before, to: after,
            gone: ["item4.URL;type=pref:https://ada.example.com", "item4.X-ABLabel:_$!<HomePage>!$_"], new: [])
        #expect(after.fields.website == nil)
        // The email slot cleared: the next email becomes the card's, and stays as it was.
        fields = before.fields
        fields.email = nil
        let cleared = try before.edited(fields: fields)
        #expect(cleared.fields.email == "ada.work@example.com")
        #expect(cleared.contentLines.contains("EMAIL;type=INTERNET;type=WORK:ada.work@example.com"))
        #expect(!cleared.contentLines.contains { $0.hasPrefix("item1.") })
    }

    @Test func addingAFieldAppendsItBeforeTheEnd() throws {
        let before = try Editing.resource("group-30-addressbookserver.vcf")
        var fields = before.fields
        fields.title = "Close friends"
        fields.tags = ["a,b", "c"]
        let after = try before.edited(fields: fields)
        Editing.expectChange(from: before, to: after, gone: [], new: ["TITLE:Close friends", "CATEGORIES:a\\,b,c"])
        #expect(after.contentLines.suffix(3) == ["TITLE:Close friends", "CATEGORIES:a\\,b,c", "END:VCARD"])
        #expect(after.group == before.group)
    }

    @Test func anEmptyLineOfTheFieldIsFilledRatherThanASecondAdded() throws {
        let before = try Editing.resource(lines: [
            "BEGIN:VCARD", "VERSION:3.0", "FN:A", "ORG:;", "BDAY:--03-15", "TITLE:", "END:VCARD",
        ])
        var fields = before.fields
        fields.company = "Acme"
        fields.birthday = "1990-03-15"
        fields.title = "Boss"
        let after = try before.edited(fields: fields)
        #expect(
            after.contentLines == [
                "BEGIN:VCARD", "VERSION:3.0", "FN:A", "ORG:Acme", "BDAY:1990-03-15", "TITLE:Boss", "END:VCARD",
            ])
    }

    @Test func aRenameRewritesFNAndNKeepingTheirParameters() throws {
        let before = try Editing.resource("fastmail-40.vcf")
        var fields = before.fields
        fields.name = "Grace B. Hopper"
        let after = try before.edited(fields: fields)
        Editing.expectChange(
            from: before, to: after, gone: ["FN:Grace Hopper", "N:Hopper;Grace;Brewster Murray;Rear Admiral;"],
            new: ["FN:Grace B. Hopper", "N:Hopper;Grace B.;;;"])
        // A 3.0 card without N gets one (RFC 2426 requires it); a 4.0 card does not.
        let noN = try Editing.resource(lines: ["BEGIN:VCARD", "VERSION:3.0", "FN:A", "END:VCARD"])
        #expect(
            try noN.edited(fields: CardFields(name: "B C")).contentLines == [
                "BEGIN:VCARD", "VERSION:3.0", "FN:B C", "N:C;B;;;", "END:VCARD",
            ])
        let noN40 = try Editing.resource(lines: ["BEGIN:VCARD", "VERSION:4.0", "FN:A", "END:VCARD"])
        #expect(
            try noN40.edited(fields: CardFields(name: "B C")).contentLines == [
                "BEGIN:VCARD", "VERSION:4.0", "FN:B C", "END:VCARD",
            ])
    }

    @Test func parametersThatDescribedTheOldValueGo() throws {
        let before = try Editing.resource("fastmail-40.vcf")
        var fields = before.fields
        fields.phone = "+1 555 555 0111"
        fields.address = "2 Navy Way, Arlington"
        fields.department = "Programming"
        let after = try before.edited(fields: fields)
        let difference = Editing.difference(before.bytes, after.bytes)
        #expect(
            difference.new.map(Editing.unfold) == [
                "ORG:United States Navy;Programming;Harvard Mark I",
                "TEL;TYPE=\"voice,work\";PREF=1:+1 555 555 0111",
                "ADR;TYPE=work:;;2 Navy Way\\, Arlington;;;;",
            ])
        #expect(after.fields == fields)
    }

    @Test func xPropertiesGroupsAndEverythingElseStay() throws {
        let before = try Editing.resource("fastmail-40.vcf")
        var fields = before.fields
        fields.bio = "New note"
        fields.tags = ["pioneers"]
        fields.birthday = "1906-12-10"
        let after = try before.edited(fields: fields, revision: Date(timeIntervalSince1970: 1_750_000_000))
        Editing.expectChange(
            from: before, to: after,
            gone: [
                "BDAY:19061209",
                "NOTE:Said \"It's easier to ask forgiveness than it is to get permission\"\\, often.\\nAlso: COBOL.",
                "CATEGORIES:pioneers,navy,compilers", "REV:20240501T102030Z",
            ],
            new: ["BDAY:19061210", "NOTE:New note", "CATEGORIES:pioneers", "REV:20250615T150640Z"])
        #expect(after.version == .v40)
        #expect(after.uid == before.uid)
        #expect(after.picture == before.picture)
    }

    @Test func nothingChangedGivesTheSameBytes() throws {
        for name in ["fastmail-40.vcf", "group-40-kind.vcf", "radicale-30-reserialised.vcf"] {
            let before = try Editing.resource(name)
            let after = try before.edited(fields: before.fields, picture: .keep, revision: Date())
            #expect(after.bytes == before.bytes)
        }
        // Whitespace the wallet trims is no change either.
        let before = try Self.ios()
        var fields = before.fields
        fields.title = "  Programmer "
        #expect(try before.edited(fields: fields) == before)
    }

    @Test func aCardRadicaleReserialisedEditsTheSameLines() throws {
        let before = try Editing.resource("radicale-30-reserialised.vcf")
        let original = try Self.ios()
        #expect(before.fields == original.fields)
        #expect(before.picture == original.picture)
        var fields = before.fields
        fields.email = "ada@lovelace.example"
        fields.website = nil
        let after = try before.edited(fields: fields)
        Editing.expectChange(
            from: before, to: after,
            gone: [
                "item1.EMAIL;TYPE=INTERNET,pref:ada@example.com", "item4.URL;TYPE=pref:https://ada.example.com",
                "item4.X-ABLABEL:_$!<HomePage>!$_",
            ],
            new: ["item1.EMAIL;TYPE=INTERNET,pref:ada@lovelace.example"])
    }

    @Test func aWebAddressKeepsItsCommasForReadersThatCutThere() throws {
        let before = try Editing.resource(lines: ["BEGIN:VCARD", "VERSION:4.0", "FN:A", "END:VCARD"])
        var fields = before.fields
        fields.website = "https://example.com/a,b;c"
        let after = try before.edited(fields: fields)
        #expect(after.contentLines.contains("URL:https://example.com/a\\,b\\;c"))
        #expect(after.fields.website == fields.website)
        let new = try VCardResource.new(uid: "u", fields: fields)
        #expect(new.contentLines.contains("URL:https://example.com/a\\,b\\;c"))
        #expect(new.fields.website == fields.website)
    }

    @Test func funFactsReplaceEachOther() throws {
        let before = try Editing.resource(lines: [
            "BEGIN:VCARD", "VERSION:3.0", "FN:A", "X-CARDWALLET-TMI:one", "NOTE:n", "X-CARDWALLET-TMI:two", "END:VCARD",
        ])
        #expect(before.fields.funFacts == ["one", "two"])
        var fields = before.fields
        fields.funFacts = ["three; four", "five"]
        let after = try before.edited(fields: fields)
        #expect(
            after.contentLines == [
                "BEGIN:VCARD", "VERSION:3.0", "FN:A", "X-CARDWALLET-TMI:three\\; four", "X-CARDWALLET-TMI:five",
                "NOTE:n",
                "END:VCARD",
            ])
    }

    @Test func aBigNoteIsKeptAndFoldedOnUTF8Boundaries() throws {
        let before = try Self.ios()
        var fields = before.fields
        fields.bio = String(repeating: "가나다 emoji 🧮, ", count: 2_000)
        let after = try before.edited(fields: fields)
        #expect(after.fields.bio == fields.bio?.trimmingCharacters(in: .whitespaces))
        Editing.expectWellFormed(after, comparedTo: before)
        #expect(Editing.physicalLines(after.bytes).count > 500)
    }

    @Test(arguments: [
        (CardField.email, "not an address", "Email is not an email address"),
        (.phone, "call me", "Phone may hold only digits, spaces and + - ( ) ."),
        (.website, "ftp://example.com", "Website must be an http:// or https:// address"),
        (.birthday, "1990-02-30", "Birthday must be a real date as YYYY-MM-DD"),
        (.title, "two\nlines", "Title must be one line"),
        (.company, "bell\u{7}", "Company must not hold control characters"),
        (.name, "", "Name is required"),
    ])
    func valuesVCardCannotHoldAreRefused(field: CardField, value: String, message: String) throws {
        let before = try Self.ios()
        var fields = before.fields
        fields[field] = value
        let error = #expect(throws: VCardResourceError.self) { try before.edited(fields: fields) }
        #expect(error?.description == message)
    }
}

extension CardFields {
    /// A copy with `field` set from text (normalised as forms do).
    func with(_ field: CardField, _ value: String) -> CardFields {
        var copy = self
        copy[field] = value
        return copy.normalized()
    }
}
