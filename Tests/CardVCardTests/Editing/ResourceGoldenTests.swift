import CardModels
import CardVCard
import Foundation
import Testing

/// Edited and new vCards kept as files in `Fixtures/Editing/edited`, with what each should
/// read as in `manifest.json`: this test checks that the editor still writes exactly them, and
/// `scripts/interop-vcard-edit.py` that vobject (Radicale's parser) reads them as we do.
///
/// After a deliberate change of the output, `CARDWALLET_UPDATE_GOLDEN=1 swift test --filter
/// ResourceGoldenTests` writes them anew (then read the difference before committing it).
@Suite struct ResourceGoldenTests {
    struct Case: Sendable {
        var file: String
        var photoFixture: String?
        var make: @Sendable () throws -> VCardResource
    }

    /// What one file should read as, for the peer.
    struct Expectation: Codable, Equatable {
        var file: String
        var version: String
        var name: String
        var email: String?
        var phone: String?
        var uid: String?
        /// The fixture whose bytes the PHOTO holds.
        var photo: String?
        /// The PHOTO's URI, when it is a link.
        var photoURI: String?
        var members: [String]?
        var title: String?
        var company: String?
        var department: String?
        var bio: String?
        var website: String?
        var tags: [String]?
    }

    /// Values with everything vCard escapes: commas, semicolons, backslashes, line breaks.
    static let escapes = CardFields(
        name: "O'Brien, Zoë; \"Z\" \\ Jr.", title: "Analyst; poet, \\ dreamer", company: "Babbage; Sons, Ltd",
        department: "R&D, Europe", email: "zoe@example.com", website: "https://example.com/a,b;c",
        address: "12 St James's Square; London, SW1", bio: "Line one,\nline two; and \\ a backslash",
        tags: ["a,b", "c;d", "e\\f"])

    static let revision = Date(timeIntervalSince1970: 1_750_000_000)

    static func edit(
        _ fixture: String, picture: VCardPictureEdit = .keep, revision: Date? = nil,
        _ change: (inout CardFields) -> Void
    ) throws -> VCardResource {
        let resource = try VCardResource(bytes: Fixture.bytes(fixture))
        var fields = resource.fields
        change(&fields)
        return try resource.edited(fields: fields, picture: picture, revision: revision)
    }

    static func photo(_ name: String) throws -> VCardPhoto {
        let bytes = try Fixture.bytes(name)
        return VCardPhoto(bytes: bytes, format: try #require(CardImageFormat(sniffing: bytes)))
    }

    static let cases: [Case] = [
        Case(file: "ios-30-email-photo.vcf", photoFixture: "photo-minji.png") {
            try edit("ios-30-grouped.vcf", picture: .replace(photo("photo-minji.png"))) {
                $0.email = "ada@lovelace.example"
            }
        },
        Case(file: "ios-30-cleared.vcf", photoFixture: nil) {
            try edit("ios-30-grouped.vcf", picture: .remove) {
                $0.email = nil
                $0.website = nil
                $0.bio = nil
            }
        },
        Case(file: "fastmail-40-edited.vcf", photoFixture: "photo-jisoo.jpg") {
            try edit("Editing/fastmail-40.vcf", picture: .replace(photo("photo-jisoo.jpg")), revision: revision) {
                $0.phone = "+1 555 555 0111"
                $0.address = "2 Navy Way, Arlington; VA"
                $0.department = "Programming"
                $0.bio = "Wrote the first compiler,\nA-0; later COBOL \\ FLOW-MATIC."
            }
        },
        Case(file: "fastmail-40-title.vcf", photoFixture: nil) {
            try edit("Editing/fastmail-40.vcf") { $0.title = "Commodore" }
        },
        Case(file: "radicale-30-renamed.vcf", photoFixture: "photo-ada.jpg") {
            try edit("Editing/radicale-30-reserialised.vcf", revision: revision) {
                $0.name = "Augusta Ada King"
                $0.tags = ["math", "poetry, science"]
            }
        },
        Case(file: "group-40-renamed.vcf", photoFixture: nil) {
            try edit("Editing/group-40-kind.vcf") { $0.name = "Compiler pioneers (1950s)" }
        },
        Case(file: "group-30-titled.vcf", photoFixture: nil) {
            try edit("Editing/group-30-addressbookserver.vcf") { $0.title = "People I trust" }
        },
        Case(file: "escapes-30.vcf", photoFixture: nil) {
            try VCardResource.new(uid: "escapes-30", fields: CardFields(name: "Plain"), version: .v30).edited(
                fields: escapes)
        },
        Case(file: "escapes-40.vcf", photoFixture: nil) {
            try VCardResource.new(uid: "escapes-40", fields: CardFields(name: "Plain"), version: .v40).edited(
                fields: escapes)
        },
        Case(file: "new-30.vcf", photoFixture: "photo-ada.jpg") {
            try VCardResource.new(
                uid: "0b7cbd2e-8a2d-4c57-9d57-b4d1f6d0f3a1", fields: WriterTests.ada, photo: photo("photo-ada.jpg"),
                revision: revision)
        },
        Case(file: "new-40.vcf", photoFixture: "photo-minji.png") {
            try VCardResource.new(
                uid: "urn:uuid:5b1b0d4a-3c1e-4d4e-8f59-6a0c9b7f1e22",
                fields: CardFields(name: "김민지", email: "minji@example.kr", phone: "+82 10 1234 5678", tags: ["친구"]),
                photo: photo("photo-minji.png"), version: .v40, revision: revision)
        },
    ]

    static let folder = Fixture.url("Editing/edited")
    static var updating: Bool { ProcessInfo.processInfo.environment["CARDWALLET_UPDATE_GOLDEN"] == "1" }

    @Test func theEditorWritesTheFilesThePeerChecks() throws {
        var manifest: [Expectation] = []
        for item in Self.cases {
            let resource = try item.make()
            let url = Self.folder.appendingPathComponent(item.file)
            if Self.updating {
                try FileManager.default.createDirectory(at: Self.folder, withIntermediateDirectories: true)
                try Data(resource.bytes).write(to: url)
            }
            #expect(try Data(contentsOf: url) == Data(resource.bytes), "\(item.file) differs; see the suite's notes")
            var uri: String?
            if case .uri(let link) = resource.picture { uri = link }
            if let photo = item.photoFixture {
                #expect(resource.picture?.photo?.bytes == (try Fixture.bytes(photo)))
            }
            manifest.append(
                Expectation(
                    file: item.file, version: resource.version.rawValue, name: resource.fields.name,
                    email: resource.fields.email, phone: resource.fields.phone, uid: resource.uid,
                    photo: item.photoFixture, photoURI: uri, members: resource.group?.memberUIDs,
                    title: resource.fields.title, company: resource.fields.company,
                    department: resource.fields.department, bio: resource.fields.bio, website: resource.fields.website,
                    tags: resource.fields.tags.isEmpty ? nil : resource.fields.tags))
        }
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        let url = Self.folder.appendingPathComponent("manifest.json")
        if Self.updating { try (encoder.encode(manifest) + Data("\n".utf8)).write(to: url) }
        #expect(try JSONDecoder().decode([Expectation].self, from: Data(contentsOf: url)) == manifest)
    }
}
