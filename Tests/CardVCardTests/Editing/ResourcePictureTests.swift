import CardModels
import CardVCard
import Foundation
import Testing

/// The picture: replaced and removed in each version's own form, a linked one kept.
@Suite struct ResourcePictureTests {
    static func png() throws -> VCardPhoto { VCardPhoto(bytes: try Fixture.bytes("photo-minji.png"), format: .png) }
    static func jpeg() throws -> VCardPhoto { VCardPhoto(bytes: try Fixture.bytes("photo-jisoo.jpg"), format: .jpeg) }

    @Test func replacedIn30AsABase64Property() throws {
        let before = try VCardResource(bytes: Fixture.bytes("ios-30-grouped.vcf"))
        let photo = try Self.png()
        let after = try before.edited(fields: before.fields, picture: .replace(photo))
        #expect(after.picture == .image(photo))
        let difference = Editing.difference(before.bytes, after.bytes)
        #expect(difference.gone.count == 1 && difference.gone[0].hasPrefix("PHOTO;ENCODING=b;TYPE=JPEG:/9j/"))
        #expect(
            difference.new.map(Editing.unfold) == [
                "PHOTO;ENCODING=b;TYPE=PNG:" + TransferEncoding.base64Encode(photo.bytes)
            ])
        Editing.expectWellFormed(after, comparedTo: before)
        #expect(after.fields == before.fields)
    }

    @Test func replacedIn40AsADataURIKeepingItsGroup() throws {
        let before = try Editing.resource(lines: [
            "BEGIN:VCARD", "VERSION:4.0", "FN:A", "item7.PHOTO;MEDIATYPE=image/gif:data:image/gif;base64,R0lGODlh",
            "NOTE:after", "END:VCARD",
        ])
        #expect(before.picture == .unsupported(mediaType: "image/gif"))
        let photo = try Self.jpeg()
        let after = try before.edited(fields: before.fields, picture: .replace(photo))
        #expect(after.picture == .image(photo))
        #expect(
            after.contentLines == [
                "BEGIN:VCARD", "VERSION:4.0", "FN:A",
                "item7.PHOTO:data:image/jpeg;base64," + TransferEncoding.base64Encode(photo.bytes), "NOTE:after",
                "END:VCARD",
            ])
    }

    @Test func addedWhenThereIsNone() throws {
        for version in ["3.0", "4.0"] {
            let before = try Editing.resource(lines: ["BEGIN:VCARD", "VERSION:" + version, "FN:A", "END:VCARD"])
            let photo = try Self.png()
            let after = try before.edited(fields: before.fields, picture: .replace(photo))
            #expect(after.picture == .image(photo))
            let line = try #require(after.contentLines.dropLast().last)
            #expect(
                line.hasPrefix(
                    version == "3.0" ? "PHOTO;ENCODING=b;TYPE=PNG:iVBOR" : "PHOTO:data:image/png;base64,iVBOR"))
        }
    }

    @Test func removedIn40() throws {
        let png = try Self.png()
        let before = try Editing.resource(lines: [
            "BEGIN:VCARD", "VERSION:4.0", "FN:A",
            "PHOTO:data:image/png;base64," + TransferEncoding.base64Encode(png.bytes),
            "X-KEEP;X-P=1:kept", "END:VCARD",
        ])
        #expect(before.picture == .image(png))
        let after = try before.edited(fields: before.fields, picture: .remove)
        #expect(after.picture == nil)
        #expect(after.contentLines == ["BEGIN:VCARD", "VERSION:4.0", "FN:A", "X-KEEP;X-P=1:kept", "END:VCARD"])
        #expect(after.version == .v40)
    }

    @Test func removedEveryOneOfThem() throws {
        let before = try Editing.resource(lines: [
            "BEGIN:VCARD", "VERSION:3.0", "FN:A", "PHOTO;VALUE=uri:https://example.com/a.jpg",
            "PHOTO;ENCODING=b;TYPE=JPEG:" + TransferEncoding.base64Encode(try Self.jpeg().bytes),
            "LOGO;VALUE=uri:https://example.com/logo.png",
            "END:VCARD",
        ])
        let after = try before.edited(fields: before.fields, picture: .remove)
        #expect(after.picture == nil)
        #expect(
            after.contentLines == [
                "BEGIN:VCARD", "VERSION:3.0", "FN:A", "LOGO;VALUE=uri:https://example.com/logo.png", "END:VCARD",
            ])
        // Nothing to remove: nothing changes.
        #expect(try after.edited(fields: after.fields, picture: .remove) == after)
    }

    @Test func aLinkedPhotoIsKeptThroughAnEdit() throws {
        let before = try Editing.resource("fastmail-40.vcf")
        var fields = before.fields
        fields.title = "Admiral"
        let after = try before.edited(fields: fields, picture: .keep)
        #expect(after.picture == .uri("https://cdn.example.org/photos/grace.jpg"))
        #expect(after.contentLines.contains("PHOTO:https://cdn.example.org/photos/grace.jpg"))
        #expect(after.contentLines.contains("LOGO:data:image/png;base64,iVBORw0KGgo="))
    }

    @Test func theSamePictureAgainIsNoChange() throws {
        let before = try VCardResource(bytes: Fixture.bytes("ios-30-grouped.vcf"))
        let photo = try #require(before.picture?.photo)
        #expect(try before.edited(fields: before.fields, picture: .replace(photo)) == before)
    }
}
