import CardModels
import CardVCard
import Foundation
import Testing

/// Random edits from a fixed seed, on cards of every shape, keep the promises of an edit.
@Suite struct ResourceFuzzTests {
    static let bases = [
        "ios-30-grouped.vcf", "Editing/fastmail-40.vcf", "Editing/radicale-30-reserialised.vcf",
        "Editing/group-40-kind.vcf", "Editing/group-30-addressbookserver.vcf", "google-30-multi.vcf",
    ]

    /// Values for each field, with escapes, non-ASCII text long enough to fold mid-character,
    /// and empty (a field cleared).
    static let pools: [CardField: [String]] = [
        .name: ["Ada Lovelace", "김민지", "Zoë O'Brien-Smith", "A, B; C\\D", String(repeating: "🧮가", count: 30)],
        .title: ["", "Analyst; poet", "R&D, Europe", String(repeating: "é", count: 90)],
        .company: ["", "Acme", "Babbage; Sons", "주식회사 카드"],
        .department: ["", "Sales, West", "Research"],
        .email: ["", "x@example.com", "a,b@example.com", "long.address.with.parts+tag@sub.domain.example.co.uk"],
        .phone: ["", "+1 555 0100", "(020) 7946-0000", "+82.10.1234.5678"],
        .website: ["", "https://example.com/a,b;c", "http://x.example/path?q=1&r=2"],
        .address: ["", "12 St James's Square, London", "서울특별시 강남구; 101호", "Back\\slash Street"],
        .bio: [
            "", "one\ntwo", "Commas, semicolons; back\\slashes\nand 🧮 emoji",
            String(repeating: "long bio ", count: 400),
        ],
        .birthday: ["", "1815-12-10", "2000-02-29"],
        .funFacts: ["", "fact one", "fact; two; three"],
        .tags: ["", "a", "b\\,c, d;e", "태그, tag"],
        .defaultImage: ["0", "3", "7"],
    ]

    static let photos: [VCardPhoto] = {
        let png = try! Fixture.bytes("photo-minji.png")
        let jpeg = try! Fixture.bytes("photo-jisoo.jpg")
        return [VCardPhoto(bytes: png, format: .png), VCardPhoto(bytes: jpeg, format: .jpeg)]
    }()

    @Test(arguments: bases)
    func randomEditsKeepEveryOtherLine(base name: String) throws {
        var random = SeededRandom(seed: 0x5EED_CA4D ^ UInt64(name.utf8.count))
        let originals: [VCardResource]
        if name == "google-30-multi.vcf" {
            // One card of the three, as a server holds it.
            let text = String(decoding: try Fixture.bytes(name), as: UTF8.self)
            let card = "BEGIN:VCARD" + text.components(separatedBy: "BEGIN:VCARD")[2]
            originals = [try VCardResource(text: card)]
        } else {
            originals = [try VCardResource(bytes: Fixture.bytes(name))]
        }
        var resource = try #require(originals.first)
        for _ in 0..<150 {
            var fields = resource.fields
            var changed: Set<CardField> = []
            for field in CardField.allCases where Int.random(in: 0..<4, using: &random) == 0 {
                fields[field] = Self.pools[field]!.randomElement(using: &random)!
                changed.insert(field)
            }
            if fields.name.isEmpty { fields.name = "Named" }
            let edit: VCardPictureEdit
            switch Int.random(in: 0..<6, using: &random) {
            case 0: edit = .remove
            case 1: edit = .replace(Self.photos.randomElement(using: &random)!)
            default: edit = .keep
            }
            let revision = Bool.random(using: &random) ? Date(timeIntervalSince1970: 1_700_000_000) : nil
            let edited = try resource.edited(fields: fields, picture: edit, revision: revision)
            Self.check(before: resource, after: edited, fields: fields, picture: edit, revision: revision != nil)
            // Half the time go on from the edit, so edits pile up on one card.
            if Bool.random(using: &random) { resource = edited }
        }
    }

    @Test func mutatedCardsAreReadOrRefusedAndEditedSafely() throws {
        var random = SeededRandom(seed: 0xBAD_CA4D)
        let inputs = try Self.bases.map { try Fixture.bytes($0) } + [try Fixture.bytes("v40-data-photo-lf.vcf")]
        var edited = 0
        for round in 0..<1_500 {
            let bytes = FuzzTests.mutate(inputs[round % inputs.count], &random)
            // Refused (a typed error with a message) or read: never a crash.
            guard let resource = try? VCardResource(bytes: bytes) else { continue }
            #expect(try resource.edited(fields: resource.fields, revision: Date()) == resource)
            guard resource.version != .v21 else { continue }
            var fields = resource.fields
            fields.name = "Fuzzed Name"
            fields.email = "fuzz@example.com"
            fields.tags = ["fuzz"]
            let photo = Self.photos[round % 2]
            let after = try resource.edited(fields: fields, picture: .replace(photo), revision: Date())
            #expect(after.fields.name == "Fuzzed Name")
            #expect(after.fields.email == "fuzz@example.com")
            #expect(after.fields.tags == ["fuzz"])
            #expect(after.picture == .image(photo))
            #expect(after.problems.count == resource.problems.count)
            let difference = Editing.difference(resource.contentLines, after.contentLines)
            let touched: Set<String> = ["FN", "N", "EMAIL", "CATEGORIES", "PHOTO", "REV"]
            let goneGroups = Set(difference.gone.compactMap(Editing.group))
            for line in difference.gone {
                let label = Editing.key(line).hasPrefix("X-") && Editing.group(line).map(goneGroups.contains) == true
                #expect(touched.contains(Editing.key(line)) || label, "\(line) went")
            }
            for line in difference.new { #expect(touched.contains(Editing.key(line)), "\(line) came") }
            edited += 1
        }
        // The mutants are mostly still cards: the edits above did run.
        #expect(edited > 500)
    }

    static func check(
        before: VCardResource, after: VCardResource, fields: CardFields, picture: VCardPictureEdit, revision: Bool
    ) {
        let wanted = fields.normalized()
        // Every field given a value shows that value; a cleared one shows nothing or another
        // line of the card (a second email once the first is gone).
        for field in CardField.allCases where field != .name {
            let value = wanted[field]
            if !value.isEmpty { #expect(after.fields[field] == value, "\(field)") }
        }
        if wanted.name != before.fields.name { #expect(after.fields.name == wanted.name) }
        #expect(after.version == before.version)
        #expect(after.uid == before.uid)
        #expect(after.problems.count == before.problems.count)
        #expect(after.group?.memberUIDs == before.group?.memberUIDs)
        switch picture {
        case .keep: #expect(after.picture == before.picture)
        case .remove: #expect(after.picture == nil)
        case .replace(let photo): #expect(after.picture == .image(photo))
        }
        // Only the lines of changed fields (and the picture, REV) differ; every other line is
        // there byte for byte, in its order.
        var touched: Set<String> = []
        for field in CardField.allCases where wanted[field] != before.fields[field] {
            touched.formUnion(ResourceEditTests.properties[field]!)
        }
        if wanted.name != before.fields.name { touched.formUnion(["FN", "N"]) }
        if picture != .keep { touched.insert("PHOTO") }
        if revision { touched.insert("REV") }
        let difference = Editing.difference(before.bytes, after.bytes)
        let goneGroups = Set(difference.gone.compactMap(Editing.group))
        for line in difference.gone {
            let key = Editing.key(line)
            let label = key.hasPrefix("X-") && Editing.group(line).map(goneGroups.contains) == true
            #expect(touched.contains(key) || label, "\(line) went")
        }
        for line in difference.new { #expect(touched.contains(Editing.key(line)), "\(line) came") }
        if touched.isEmpty { #expect(after.bytes == before.bytes) }
        Editing.expectWellFormed(after, comparedTo: before)
        // Saving what it shows changes nothing.
        #expect((try? after.edited(fields: after.fields, revision: Date())) == after)
    }
}
