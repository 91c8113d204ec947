import CardModels
import CardVCard
import Foundation
import Testing

/// New cards: vCard 3.0 with the caller's UID, FN, N and the fields.
@Suite struct ResourceNewTests {
    static let revision = Date(timeIntervalSince1970: 1_714_558_830)

    @Test func aNewCardIn30() throws {
        let photo = VCardPhoto(bytes: try Fixture.bytes("photo-ada.jpg"), format: .jpeg)
        let resource = try VCardResource.new(
            uid: "0b7cbd2e-8a2d-4c57-9d57-b4d1f6d0f3a1", fields: WriterTests.ada, photo: photo, revision: Self.revision)
        #expect(resource.version == .v30)
        #expect(resource.uid == "0b7cbd2e-8a2d-4c57-9d57-b4d1f6d0f3a1")
        #expect(resource.fields == WriterTests.ada)
        #expect(resource.picture == .image(photo))
        let lines = resource.contentLines
        #expect(
            lines.prefix(5) == [
                "BEGIN:VCARD", "VERSION:3.0", "PRODID:-//CardWallet//CardWallet vCard//EN", "FN:Ada Lovelace",
                "N:Lovelace;Ada;;;",
            ])
        #expect(lines.contains("UID:0b7cbd2e-8a2d-4c57-9d57-b4d1f6d0f3a1"))
        #expect(lines.suffix(2) == ["REV:2024-05-01T10:20:30Z", "END:VCARD"])
        #expect(lines.contains { $0.hasPrefix("PHOTO;ENCODING=b;TYPE=JPEG:/9j/") })
        Editing.expectWellFormed(resource, comparedTo: try Editing.resource(lines: ["BEGIN:VCARD", "END:VCARD"]))
    }

    @Test func aNewCardIn40AndWithoutARevision() throws {
        let resource = try VCardResource.new(
            uid: "u-1", fields: CardFields(name: "Grace", birthday: "1906-12-09"), version: .v40)
        #expect(
            resource.contentLines == [
                "BEGIN:VCARD", "VERSION:4.0", "PRODID:-//CardWallet//CardWallet vCard//EN", "FN:Grace", "N:;Grace;;;",
                "BDAY:19061209", "UID:u-1", "END:VCARD",
            ])
    }

    @Test func theLinesAnImportKeptComeAlongWithTheNewUID() throws {
        let imported = try Fixture.single("ios-30-grouped.vcf")
        let resource = try VCardResource.new(uid: "new-uid", fields: imported.fields, photo: imported.photo)
        #expect(resource.uid == "new-uid")
        #expect(resource.fields == imported.fields.normalized().withoutKeptLines)
        let lines = resource.contentLines
        // As the importer kept them (its parameters merged), with their groups and labels.
        #expect(lines.contains("item1.EMAIL;TYPE=INTERNET,pref:ada@example.com"))
        #expect(lines.contains("item1.X-ABLabel:_$!<Other>!$_"))
        #expect(lines.filter { $0.hasPrefix("UID") } == ["UID:new-uid"])
    }

    @Test(arguments: CardField.allCases)
    func everyFieldOfANewCardReadsBack(field: CardField) throws {
        var fields = CardFields(name: "Someone")
        fields[field] = ResourceEditTests.sample[field]!
        for version in [VCardVersion.v30, .v40] {
            let resource = try VCardResource.new(uid: "u", fields: fields, version: version)
            #expect(resource.fields == fields.normalized())
            // And an edit back to a bare card removes what was added.
            let bare = try resource.edited(fields: CardFields(name: "Someone"))
            #expect(bare.fields == CardFields(name: "Someone"))
        }
    }

    @Test func badUIDsAndFieldsAreRefused() {
        #expect(throws: VCardResourceError.invalidUID) {
            try VCardResource.new(uid: " ", fields: CardFields(name: "A"))
        }
        #expect(throws: VCardResourceError.invalidUID) {
            try VCardResource.new(uid: "a\r\nEND:VCARD", fields: CardFields(name: "A"))
        }
        #expect(throws: VCardResourceError.invalidField(.name, "is required")) {
            try VCardResource.new(uid: "u", fields: CardFields(name: " "))
        }
        #expect(throws: VCardResourceError.invalidField(.email, "is not an email address")) {
            try VCardResource.new(uid: "u", fields: CardFields(name: "A", email: "nope"))
        }
    }

    @Test func newUIDsAreUUIDs() {
        let uid = VCardResource.newUID()
        #expect(UUID(uuidString: uid) != nil)
        #expect(uid == uid.lowercased())
        #expect(uid != VCardResource.newUID())
    }
}

extension CardFields {
    var withoutKeptLines: CardFields {
        var copy = self
        copy.vcardProperties = []
        return copy
    }
}
