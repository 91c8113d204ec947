import CardModels
import CardVCard
import Foundation
import Testing

/// A CardDAV resource read: the wallet's card, the picture, the UID, the group, and the text
/// kept as it came.
@Suite struct ResourceReadingTests {
    @Test func anIPhoneCardGivesThePreferredEmailAndPhone() throws {
        let resource = try VCardResource(bytes: Fixture.bytes("ios-30-grouped.vcf"))
        #expect(resource.version == .v30)
        #expect(resource.problems == [])
        let fields = resource.fields
        #expect(fields.name == "Ada Lovelace")
        #expect(fields.title == "Programmer")
        #expect(fields.company == "Analytical Engines Ltd")
        #expect(fields.department == "Research")
        #expect(fields.email == "ada@example.com")
        #expect(fields.phone == "+44 20 7946 0000")
        #expect(fields.website == "https://ada.example.com")
        #expect(fields.address == "12 St James's Square, London, SW1Y 4JH, United Kingdom")
        #expect(fields.birthday == "1815-12-10")
        #expect(fields.bio == "First to publish an algorithm\nfor a machine, in 1843.")
        #expect(fields.vcardProperties == [])
        #expect(resource.picture?.photo?.bytes == (try Fixture.bytes("photo-ada.jpg")))
        #expect(resource.uid == nil)
        #expect(!resource.isGroup)
        // Read, not rewritten: the text is the server's.
        #expect(resource.bytes == (try Fixture.bytes("ios-30-grouped.vcf")))
    }

    @Test func aVersion4CardWithPreferencesAndALinkedPhoto() throws {
        let resource = try Editing.resource("fastmail-40.vcf")
        #expect(resource.version == .v40)
        #expect(resource.uid == "urn:uuid:4fbe8971-0bc3-424c-9c26-36c3e1eff6b1")
        let fields = resource.fields
        #expect(fields.name == "Grace Hopper")
        #expect(fields.company == "United States Navy")
        #expect(fields.department == "Computing")
        // PREF=1 beats PREF=2 and no preference, wherever it is.
        #expect(fields.email == "grace@home.example")
        #expect(fields.phone == "+1-555-555-0100")
        #expect(fields.website == "https://grace.example.org")
        #expect(fields.address == "1 Navy Way, Arlington, VA 22201, USA")
        #expect(fields.birthday == "1906-12-09")
        #expect(fields.tags == ["pioneers", "navy", "compilers"])
        #expect(fields.bio?.hasSuffix("often.\nAlso: COBOL.") == true)
        #expect(resource.picture == .uri("https://cdn.example.org/photos/grace.jpg"))
    }

    @Test func typePrefIn30AndTheFirstWithoutOne() throws {
        let preferred = try Editing.resource(lines: [
            "BEGIN:VCARD", "VERSION:3.0", "FN:A", "EMAIL:first@example.com",
            "EMAIL;TYPE=INTERNET,pref:pref@example.com",
            "TEL:123", "TEL;TYPE=pref:456", "END:VCARD",
        ])
        #expect(preferred.fields.email == "pref@example.com")
        #expect(preferred.fields.phone == "456")
        let plain = try Editing.resource(lines: [
            "BEGIN:VCARD", "VERSION:3.0", "FN:A", "EMAIL:not an address", "EMAIL:first@example.com",
            "EMAIL:second@example.com", "END:VCARD",
        ])
        #expect(plain.fields.email == "first@example.com")
    }

    @Test(arguments: [
        (["N:Lovelace;Ada;;;"], "Ada Lovelace"),
        (["ORG:Analytical Engines;Research", "EMAIL:ada@example.com"], "Analytical Engines"),
        (["EMAIL:ada@example.com", "TEL;TYPE=pref:+44 1", "EMAIL;TYPE=pref:x@example.com"], "ada@example.com"),
        (["TEL:+44 20 7946 0000"], "+44 20 7946 0000"),
        (["NOTE:nothing to call it by"], ""),
    ])
    func aCardWithoutFNIsNamedAsPhonesNameIt(lines: [String], name: String) throws {
        let resource = try Editing.resource(lines: ["BEGIN:VCARD", "VERSION:3.0"] + lines + ["END:VCARD"])
        #expect(resource.fields.name == name)
    }

    @Test func a40GroupWithMembers() throws {
        let group = try Editing.resource("group-40-kind.vcf")
        #expect(group.isGroup)
        #expect(
            group.group
                == VCardGroup(
                    name: "Compiler pioneers",
                    memberUIDs: [
                        "4fbe8971-0bc3-424c-9c26-36c3e1eff6b1", "B8767877-B4A1-4C70-9ACC-505D3819E519",
                        "mailto:subscriber@example.com",
                    ], style: .kind))
        let grace = try Editing.resource("fastmail-40.vcf")
        #expect(group.group?.contains(uid: try #require(grace.uid)) == true)
        #expect(group.group?.contains(uid: "b8767877-b4a1-4c70-9acc-505d3819e519") == true)
        #expect(group.group?.contains(uid: "someone-else") == false)
        #expect(grace.belongs(to: group))
        #expect(!grace.belongs(to: grace))
        #expect(!group.belongs(to: try Editing.resource("group-30-addressbookserver.vcf")))
    }

    @Test func anAddressBookServerGroupAsNextcloudAndICloudKeepThem() throws {
        let group = try Editing.resource("group-30-addressbookserver.vcf")
        #expect(group.group?.style == .addressBookServer)
        #expect(group.group?.name == "Friends")
        #expect(group.group?.memberUIDs.count == 2)
        #expect(group.group?.contains(uid: "urn:uuid:e1e5e6d1-2f5c-4a7b-8a54-1c5f7f3a9b20") == true)
        #expect(group.uid == "7f1c4b6e-0c4f-4a0b-bb0a-8f1f3e3e1a11")
        // Renamed, it stays a group with its members; its N is the name alone, as Apple writes it.
        var fields = group.fields
        fields.name = "Best friends"
        let renamed = try group.edited(fields: fields)
        #expect(
            renamed.group
                == VCardGroup(
                    name: "Best friends", memberUIDs: try #require(group.group).memberUIDs, style: .addressBookServer))
        Editing.expectChange(
            from: group, to: renamed, gone: ["N:Friends", "FN:Friends"], new: ["N:Best friends", "FN:Best friends"])
        // A person's card is not a group, even with KIND.
        #expect(try Editing.resource("fastmail-40.vcf").group == nil)
    }

    @Test func pictureKinds() throws {
        let png = try Fixture.bytes("photo-minji.png")
        let inline40 = try Editing.resource(lines: [
            "BEGIN:VCARD", "VERSION:4.0", "FN:A", "PHOTO:data:image/png;base64," + TransferEncoding.base64Encode(png),
            "END:VCARD",
        ])
        #expect(inline40.picture == .image(VCardPhoto(bytes: png, format: .png)))
        let gif = try Editing.resource(lines: [
            "BEGIN:VCARD", "VERSION:3.0", "FN:A", "PHOTO;ENCODING=b;TYPE=GIF:R0lGODlhAQABAAAAACw=", "END:VCARD",
        ])
        #expect(gif.picture == .unsupported(mediaType: "GIF"))
        let link = try Editing.resource(lines: [
            "BEGIN:VCARD", "VERSION:3.0", "FN:A", "PHOTO;VALUE=uri:https://example.com/a.jpg", "END:VCARD",
        ])
        #expect(link.picture == .uri("https://example.com/a.jpg"))
        #expect(link.picture?.photo == nil)
    }

    @Test func unreadableLinesAreKeptAndReported() throws {
        let text = "BEGIN:VCARD\r\nVERSION:3.0\r\nFN:A\r\nthis is not a property\r\nX-Q;X-P=\"open:x\r\nEND:VCARD\r\n"
        let resource = try VCardResource(text: text)
        #expect(resource.fields.name == "A")
        #expect(resource.problems.map(\.line) == [4, 5])
        let edited = try resource.edited(fields: CardFields(name: "B"))
        #expect(edited.text.contains("\r\nthis is not a property\r\nX-Q;X-P=\"open:x\r\n"))
    }

    @Test func lineEndsFoldsAndAByteOrderMark() throws {
        let text = "\u{FEFF}BEGIN:VCARD\nVERSION:3.0\rFN:Ada\n  Lovelace\r\nNOTE:a\r\n\tb\nEND:VCARD"
        let resource = try VCardResource(text: text)
        #expect(resource.fields.name == "Ada Lovelace")
        #expect(resource.fields.bio == "ab")
        #expect(resource.contentLines == ["BEGIN:VCARD", "VERSION:3.0", "FN:Ada Lovelace", "NOTE:ab", "END:VCARD"])
    }

    @Test func vCard21IsReadWithItsOwnFolding() throws {
        // The first of the file's two cards, as a server would hold it.
        let text = String(decoding: try Fixture.bytes("android-21-korean.vcf"), as: UTF8.self)
        let resource = try VCardResource(text: String(text[..<text.range(of: "END:VCARD")!.upperBound]))
        #expect(resource.version == .v21)
        let imported = try Fixture.single("android-21-korean.vcf")
        #expect(resource.fields.name == imported.fields.name)
        #expect(resource.fields.email == imported.fields.email)
        #expect(resource.picture?.photo == imported.photo)
        #expect(throws: VCardResourceError.readOnly(.v21)) {
            try resource.edited(fields: CardFields(name: "x"))
        }
    }

    @Test(arguments: [
        ("", VCardResourceError.notVCard),
        ("<html>502 Bad Gateway</html>", .notVCard),
        ("BEGIN:VCARD\r\nVERSION:3.0\r\nFN:A\r\n", .unterminated(line: 1)),
        ("BEGIN:VCARD\r\nFN:A\r\nBEGIN:VCARD\r\nFN:B\r\nEND:VCARD\r\n", .unterminated(line: 1)),
        ("BEGIN:VCARD\r\nFN:A\r\nEND:VCARD\r\nBEGIN:VCARD\r\nFN:B\r\nEND:VCARD\r\n", .severalCards(line: 4)),
    ])
    func whatIsNotOneCardIsRefused(text: String, error: VCardResourceError) {
        #expect(throws: error) { try VCardResource(text: text) }
    }

    @Test func sizeAndCountAreNotLimitedBelowTheMemoryBound() throws {
        // 5,000 properties and a 600 kB note: more than any import limit, read all the same.
        var lines = ["BEGIN:VCARD", "VERSION:3.0", "FN:Many"]
        lines += (0..<5_000).map { "X-ITEM-\($0):value \($0)" }
        lines.append("NOTE:" + String(repeating: "long note, ", count: 50_000))
        lines.append("END:VCARD")
        let resource = try Editing.resource(lines: lines)
        #expect(resource.contentLines.count == lines.count)
        #expect(resource.fields.bio?.count == 50_000 * 11 - 1)
        let tooLarge = [UInt8](repeating: 0x41, count: VCardResource.maximumBytes + 1)
        #expect(throws: VCardResourceError.tooLarge(bytes: tooLarge.count, limit: VCardResource.maximumBytes)) {
            try VCardResource(bytes: tooLarge)
        }
    }
}
