import CardModels
import CardVCard
import Foundation
import TestSupport
import Testing

/// `import`, `export` and `query` against the mock server in-process, with the corpus of
/// `Tests/CardVCardTests/Fixtures`.
extension EndToEndTests {
    static let corpus = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("CardVCardTests/Fixtures")

    static func fixture(_ name: String) -> String { corpus.appendingPathComponent(name).path }

    static let goodFixtures = [
        "android-21-korean.vcf", "outlook-21-cp1252.vcf", "ios-30-grouped.vcf", "google-30-multi.vcf",
        "v40-data-photo-lf.vcf",
    ]

    /// Every card of the logged-in account, whole.
    static func wallet(_ world: CLIWorld) async throws -> [Card] {
        try decode([Card].self, from: try await world.run("export", "--format", "json"))
    }

    @Test func importThenExportIntoAnotherAccountGivesEqualCards() async throws {
        try await CLIWorld.with { world in
            try await world.login()
            let seeded = try await Self.wallet(world).count
            for name in Self.goodFixtures {
                let result = try await world.run("import", Self.fixture(name))
                #expect(result.status == 0, "\(result)")
                #expect(result.stderr.isEmpty, "\(result)")
            }
            let broken = try await world.run("import", Self.fixture("one-broken.vcf"))
            #expect(broken.status == 65, "\(broken)")
            #expect(
                broken.stderr.contains(
                    "\(Self.fixture("one-broken.vcf")):6: the card has no name (no FN, no N), nor an organisation, email or phone number to name it by\n"
                ))
            #expect(broken.stdout == "created 2, updated 0, unchanged 0, skipped 1.\n")

            // Importing again creates nothing.
            let again = try await world.run("import", Self.fixture("google-30-multi.vcf"))
            #expect(again.status == 0 && again.stdout == "created 0, updated 0, unchanged 3, skipped 0.\n", "\(again)")

            let demo = try await Self.wallet(world)
            #expect(demo.count == seeded + 10)
            let ada = try #require(demo.first { $0.fields.email == "ada@example.com" })
            #expect(ada.fields.vcardProperties.contains("item1.X-ABLabel:_$!<Other>!$_"))
            let shown = try await world.run("show", ada.id)
            #expect(shown.stdout.contains("vCard:      ORG:Analytical Engines Ltd;Research;\n"), "\(shown)")
            #expect(shown.stdout.contains("            item1.EMAIL;TYPE=INTERNET,pref:ada@example.com\n"))
            #expect(shown.stdout.contains("            item1.X-ABLabel:_$!<Other>!$_\n"))
            #expect(!shown.stdout.contains("X-CARDWALLET"))
            #expect(
                ada.image
                    == CardImageInfo(
                        contentType: "image/jpeg",
                        size: try Data(contentsOf: Self.corpus.appendingPathComponent("photo-ada.jpg")).count))

            let export = try await world.run("export", "--output", world.folder.path("demo.vcf"))
            #expect(export.status == 0 && export.stdout.isEmpty, "\(export)")
            #expect(export.stderr.contains("exported \(demo.count) cards"))
            let demoPhotos = try Self.photos(inFile: world.folder.path("demo.vcf"))

            // Into another account.
            let minji = try await world.run(
                "login", "--email", "minji@cardwallet.dev", "--password-stdin", input: "minji1234\n")
            #expect(minji.status == 0, "\(minji)")
            let own = try await Self.wallet(world)
            let imported = try await world.run("import", world.folder.path("demo.vcf"), "--json")
            #expect(imported.status == 0, "\(imported)")
            let report = try JSONSerialization.jsonObject(with: Data(imported.stdout.utf8)) as? [String: Any]
            #expect(report?["created"] as? Int == demo.count)
            let theirs = try await Self.wallet(world).dropFirst(own.count)
            #expect(theirs.map(\.fields) == demo.map(\.fields))
            #expect(theirs.map(\.image) == demo.map(\.image))
            let export2 = try await world.run("export", "--output", world.folder.path("minji.vcf"))
            #expect(export2.status == 0, "\(export2)")
            let minjiPhotos = try Self.photos(inFile: world.folder.path("minji.vcf"))
            for (name, photo) in demoPhotos { #expect(minjiPhotos[name] == photo, "the photo of \(name)") }
            #expect(demoPhotos.count >= 4)
        }
    }

    @Test func aDamagedPhotoCostsThePhotoNotTheCard() async throws {
        try await CLIWorld.with { world in
            try await world.login()
            let file = Self.fixture("android-21-damaged-photo.vcf")
            let result = try await world.run("import", file)
            #expect(result.status == 0, "\(result)")
            #expect(result.stdout == "created 2, updated 0, unchanged 0, skipped 0.\n", "\(result)")
            #expect(
                result.stderr.contains(
                    "\(file):7: warning: PHOTO: the base64 value is not valid base64: the card comes in without it\n"
                ), "\(result)")
            #expect(
                result.stderr.contains(
                    "\(file):17: warning: PHOTO: the photo is not a PNG or JPEG image: the card comes in without it; its line is kept as it was, for export\n"
                ), "\(result)")
            let wallet = try await Self.wallet(world)
            let yunseok = try #require(wallet.first { $0.fields.email == "yunseok@example.kr" })
            #expect(yunseok.fields.name == "최윤석" && yunseok.fields.phone == "010-5555-0142")
            #expect(yunseok.image == nil)
            // The damaged line is not kept: a CardDAV server would refuse the card with it.
            #expect(!yunseok.fields.vcardProperties.contains { $0.hasPrefix("PHOTO") })
            let dorothy = try #require(wallet.first { $0.fields.email == "dorothy@example.com" })
            #expect(dorothy.image == nil)
            #expect(dorothy.fields.vcardProperties.contains { $0.hasPrefix("PHOTO;ENCODING=b;TYPE=GIF:R0lGOD") })
            // The export gives the lines back; importing it again changes nothing.
            let export = try await world.run("export", "--output", world.folder.path("back.vcf"))
            #expect(export.status == 0, "\(export)")
            let again = try await world.run("import", world.folder.path("back.vcf"))
            #expect(again.status == 0, "\(again)")
            #expect(again.stdout.hasPrefix("created 0, updated 0, unchanged \(wallet.count), skipped 0."), "\(again)")
        }
    }

    /// The photos of an export, by card name.
    static func photos(inFile path: String) throws -> [String: VCardPhoto] {
        let document = VCardDocument.read(bytes: [UInt8](try Data(contentsOf: URL(fileURLWithPath: path))))
        return Dictionary(
            document.cards.compactMap { card in card.photo.map { (card.fields.name, $0) } },
            uniquingKeysWith: { a, _ in a })
    }

    @Test func dryRunsAndInputsThatAreNotVCardChangeNothing() async throws {
        try await CLIWorld.with { world in
            try await world.login()
            let before = try await Self.wallet(world).count
            let dry = try await world.run("import", Self.fixture("one-broken.vcf"), "--dry-run")
            #expect(dry.status == 65, "\(dry)")
            #expect(dry.stdout.contains("create    \(Self.fixture("one-broken.vcf")):1  Katherine Johnson\n"))
            #expect(dry.stdout.contains("skip      \(Self.fixture("one-broken.vcf")):6\n"))
            #expect(
                dry.stdout.hasSuffix(
                    "Dry run, nothing sent: would have created 2, updated 0, unchanged 0, skipped 1.\n"))

            let empty = try world.folder.write("", to: "empty.vcf")
            let binary = try world.folder.write(Fixtures.png, to: "photo.vcf")
            for (path, reason) in [
                (empty, "empty: no vCard in it"), (binary, "not a vCard file (it holds binary data)"),
            ] {
                let result = try await world.run("import", path)
                #expect(result.status == 65, "\(result)")
                #expect(result.stderr == "cardwallet: \(path): \(reason)\ncardwallet: nothing imported.\n")
                #expect(result.stdout.isEmpty)
            }
            // Only BEGIN lines: every one a card without its END, the first listed.
            let begins = try world.folder.write(String(repeating: "BEGIN:VCARD\r\n", count: 50_000), to: "begins.vcf")
            let beginsOnly = try await world.run("import", begins)
            #expect(beginsOnly.status == 65, "\(beginsOnly)")
            #expect(
                beginsOnly.stderr.hasPrefix(
                    "\(begins):1: the card has no END:VCARD before the next BEGIN:VCARD (line 2)\n"))
            #expect(beginsOnly.stderr.contains("cardwallet: … and 49900 more cards skipped"))
            #expect(beginsOnly.stdout == "created 0, updated 0, unchanged 0, skipped 50000.\n")
            let piped = try await world.run(
                "import", "-", input: "BEGIN:VCARD\nFN:Piped\nEND:VCARD\nBEGIN:VCARD\nNOTE:nobody\nEND:VCARD\n")
            #expect(piped.status == 65)
            #expect(
                piped.stderr.contains(
                    "stdin:4: the card has no name (no FN, no N), nor an organisation, email or phone number to name it by"
                ))
            #expect(try await Self.wallet(world).count == before + 1)
            let missing = try await world.run("import", world.folder.path("nowhere.vcf"))
            #expect(missing.status == 64 && missing.stderr.contains("there is no such file or folder"), "\(missing)")
        }
    }

    @Test func aVdirForKhardAndVdirsyncer() async throws {
        try await CLIWorld.with { world in
            try await world.login()
            #expect(try await world.run("import", Self.fixture("v40-data-photo-lf.vcf")).status == 0)
            let folder = world.folder.path("contacts")
            let first = try await world.run("export", "--vdir", folder)
            #expect(first.status == 0, "\(first)")
            let cards = try await Self.wallet(world)
            let files = try FileManager.default.contentsOfDirectory(atPath: folder).sorted()
            #expect(files.count == cards.count)
            // The imported UID names its file; the others are derived from the card id.
            #expect(files.contains("cardwallet-\(cards[0].id).vcf"))
            #expect(!files.contains { $0.contains("urn") })
            let minji = try #require(cards.last)
            let path = folder + "/cardwallet-\(minji.id).vcf"
            let old = Date(timeIntervalSince1970: 1_000_000)
            try FileManager.default.setAttributes([.modificationDate: old], ofItemAtPath: path)
            let foreign = try world.folder.write(
                "BEGIN:VCARD\r\nVERSION:3.0\r\nFN:Not ours\r\nEND:VCARD\r\n", to: "contacts/other.vcf")

            #expect(try await world.run("rm", cards[0].id, "--yes").status == 0)
            let second = try await world.run("export", "--vdir", folder)
            #expect(second.status == 0, "\(second)")
            #expect(
                second.stderr.contains("(0 written, \(cards.count - 1) unchanged, 1 removed, 1 not ours left alone)"),
                "\(second)")
            #expect(try FileManager.default.attributesOfItem(atPath: path)[.modificationDate] as? Date == old)
            #expect(FileManager.default.fileExists(atPath: foreign))
            #expect(!FileManager.default.fileExists(atPath: folder + "/cardwallet-\(cards[0].id).vcf"))
        }
    }

    @Test func queryForMailPrograms() async throws {
        try await CLIWorld.with { world in
            try await world.login()
            #expect(try await world.run("import", Self.fixture("ios-30-grouped.vcf")).status == 0)
            // The demo wallet has an Ada Lovelace of its own, at another address.
            let found = try await world.run("query", "ada@example")
            #expect(found.status == 0, "\(found)")
            let lines = found.stdout.split(separator: "\n", omittingEmptySubsequences: false)
            #expect(lines.first == "cardwallet: 2 addresses for “ada@example”")
            #expect(lines[1] == "ada@example.com\tAda Lovelace\tAnalytical Engines Ltd")
            #expect(lines[2] == "ada.work@example.com\tAda Lovelace\tAnalytical Engines Ltd")
            #expect(lines.count == 4 && lines[3].isEmpty)
            let aerc = try await world.run("query", "--remove-first-line", "ada@example")
            #expect(aerc.stdout == lines[1...2].map { $0 + "\n" }.joined(), "\(aerc)")
            let both = try await world.run("query", "lovelace")
            #expect(both.stdout.hasPrefix("cardwallet: 3 addresses for “lovelace”\n"), "\(both)")
            let none = try await world.run("query", "nobody-here")
            #expect(none.status == 1 && none.stderr.isEmpty, "\(none)")
            #expect(none.stdout == "cardwallet: 0 addresses for “nobody-here”\n")
        }
    }

    @Test func reimportingAChangedPhotoReplacesTheImage() async throws {
        try await CLIWorld.with { world in
            try await world.login()
            #expect(try await world.run("import", Self.fixture("ios-30-grouped.vcf")).status == 0)
            let original = String(
                decoding: try Data(contentsOf: Self.corpus.appendingPathComponent("ios-30-grouped.vcf")), as: UTF8.self)
            let photo = try Data(contentsOf: Self.corpus.appendingPathComponent("photo-jisoo.jpg"))
            // The same card with another photo and another title.
            let head = try #require(original.components(separatedBy: "PHOTO;ENCODING=b").first)
            let changed =
                head.replacingOccurrences(of: "TITLE:Programmer", with: "TITLE:Countess")
                + "PHOTO;ENCODING=b;TYPE=JPEG:" + photo.base64EncodedString() + "\r\nEND:VCARD\r\n"
            let path = try world.folder.write(changed, to: "ada-new.vcf")
            let result = try await world.run("import", path, "--json")
            #expect(result.status == 0, "\(result)")
            let report = try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any]
            #expect(report?["updated"] as? Int == 1)
            let entry = (report?["cards"] as? [[String: Any]])?.first
            #expect(entry?["changes"] as? [String] == ["fields", "photo"])
            let ada = try #require(try await Self.wallet(world).first { $0.fields.email == "ada@example.com" })
            #expect(ada.fields.title == "Countess")
            #expect(ada.image == CardImageInfo(contentType: "image/jpeg", size: photo.count))
            #expect(ada.revision == CardRevision(3))
            let exported = try await world.run("export", ada.id, "--output", world.folder.path("ada.vcf"))
            #expect(exported.status == 0)
            #expect(try Self.photos(inFile: world.folder.path("ada.vcf"))["Ada Lovelace"]?.bytes == [UInt8](photo))
            // Once more: the same bytes, nothing to do.
            let again = try await world.run("import", path)
            #expect(again.stdout == "created 0, updated 0, unchanged 1, skipped 0.\n", "\(again)")
        }
    }

    @Test func csvAndVCard4Exports() async throws {
        try await CLIWorld.with { world in
            try await world.login()
            #expect(try await world.run("import", Self.fixture("google-30-multi.vcf")).status == 0)
            let csv = try await world.run("export", "--format", "csv")
            #expect(csv.status == 0)
            #expect(csv.stdout.hasPrefix(GoogleCSV.headerLine))
            #expect(csv.stdout.contains("Grace Hopper,Grace,,Hopper,"))
            let cards = try await Self.wallet(world)
            let grace = try #require(cards.first { $0.fields.name == "Grace Hopper" })
            let four = try await world.run("export", grace.id, "--format", "vcard4")
            #expect(four.status == 0)
            #expect(four.stdout.hasPrefix("BEGIN:VCARD\r\nVERSION:4.0\r\n"))
            #expect(four.stdout.components(separatedBy: "BEGIN:VCARD").count == 2)
            #expect(try await world.run("export", "card_nope").status == 4)
            #expect(try await world.run("export", "--vdir", "x", "--format", "csv").status == 64)
        }
    }
}
