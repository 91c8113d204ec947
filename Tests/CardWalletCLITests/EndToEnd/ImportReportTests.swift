import CardModels
import CardVCard
import Foundation
import TestSupport
import Testing

/// Issues 30 and 32 through `cardwallet import`: no card lost in silence, none refused for a
/// limit of the wallet, every warning and problem at its `FILE:LINE`, and `--json` always one
/// object on standard output.
extension EndToEndTests {
    static func json(_ result: CLIResult, sourceLocation: SourceLocation = #_sourceLocation) throws -> [String: Any] {
        let object = try JSONSerialization.jsonObject(with: Data(result.stdout.utf8))
        return try #require(object as? [String: Any], sourceLocation: sourceLocation)
    }

    @Test func exportersFilesImportWholeAndExportTheirLongNotesWhole() async throws {
        try await CLIWorld.with { world in
            try await world.login()
            let before = try await Self.wallet(world).count
            let iphone = Self.fixture("iphone-30-crcrlf.vcf")
            let result = try await world.run("import", iphone)
            #expect(result.status == 0, "\(result)")
            #expect(result.stdout == "created 2, updated 0, unchanged 0, skipped 0.\n")
            #expect(
                result.stderr
                    == "\(iphone):28: warning: NOTE (bio) is 2774 characters, more than the 500 the field holds: clipped, and kept whole for export\n"
            )
            for name in [
                "outlook-2007-21-notes.vcf", "lotus-notes-30.vcf", "android-21-nameless.vcf", "evolution-30.vcf",
            ] {
                let other = try await world.run("import", Self.fixture(name))
                #expect(other.status == 0, "\(other)")
            }
            let named = try await world.run("import", Self.fixture("android-21-nameless.vcf"), "--dry-run")
            #expect(named.stdout.hasSuffix("would have created 0, updated 0, unchanged 4, skipped 0.\n"), "\(named)")
            #expect(
                named.stderr.contains(
                    "android-21-nameless.vcf:20: warning: the card has no name (no FN, no N): it is named “+7 912 555-01-77” after its phone number\n"
                ))
            let wallet = try await Self.wallet(world)
            #expect(wallet.count == before + 2 + 1 + 2 + 4 + 1)
            let chi = try #require(wallet.first { $0.fields.email == "chidinma.okafor@marine.example.ng" })
            #expect((chi.fields.bio?.count ?? 0) <= CardLimits.bioMaxLength && chi.fields.bio?.hasSuffix("…") == true)
            #expect(
                chi.image?.size == (try Data(contentsOf: Self.corpus.appendingPathComponent("photo-okafor.jpg"))).count)

            // An edit of another field keeps the whole note for the export.
            #expect(try await world.run("edit", chi.id, "--title", "Director").status == 0)
            let exported = try await world.run("export", chi.id, "--output", world.folder.path("chi.vcf"))
            #expect(exported.status == 0, "\(exported)")
            let back = try #require(
                VCardDocument.read(
                    bytes: [UInt8](try Data(contentsOf: URL(fileURLWithPath: world.folder.path("chi.vcf"))))
                )
                .cards.first)
            #expect(back.fields.title == "Director" && back.fields.bio == chi.fields.bio)
            let note = try #require(back.fields.vcardProperties.first { $0.hasPrefix("NOTE;X-CARDWALLET-FIELD=bio:") })
            #expect(note.hasSuffix("the draft on seasonal salinity that reviewers asked us to shorten."))
            #expect(
                back.photo?.bytes
                    == [UInt8](try Data(contentsOf: Self.corpus.appendingPathComponent("photo-okafor.jpg"))))
        }
    }

    @Test func strayBytesOrphansAndDuplicatesAreReportedAndNothingIsLost() async throws {
        try await CLIWorld.with { world in
            try await world.login()
            let card = { (name: String, email: String) in
                "BEGIN:VCARD\r\nVERSION:3.0\r\nFN:\(name)\r\nEMAIL:\(email)\r\nEND:VCARD\r\n"
            }
            let bom = "\u{FEFF}"
            // Three exports joined with cat, each with its byte-order mark; the last one again,
            // its email in capitals.
            let joined = try world.folder.write(
                bom + card("Ann Joined", "ann@example.com") + bom + card("Bo Joined", "bo@example.com") + bom
                    + card("Cy Joined", "cy@example.com") + card("CY JOINED", "CY@EXAMPLE.COM"), to: "joined.vcf")
            let result = try await world.run("import", joined, "--json")
            #expect(result.status == 0, "\(result)")
            let report = try Self.json(result)
            #expect(
                report["created"] as? Int == 3 && report["unchanged"] as? Int == 1 && report["skipped"] as? Int == 0)
            let cards = try #require(report["cards"] as? [[String: Any]])
            #expect(cards.map { $0["action"] as? String } == ["created", "created", "created", "unchanged"])
            #expect(
                cards[3]["sameAs"] as? String == "\(joined):11"
                    && cards[3]["id"] as? String == cards[2]["id"] as? String)
            #expect(report["cardsShown"] as? Int == 4 && report["cardsTotal"] as? Int == 4)

            // A NUL before a BEGIN, an orphaned block between two cards.
            let damaged = try world.folder.write(
                card("Di Damaged", "di@example.com") + "\u{0}" + card("Ed Damaged", "ed@example.com")
                    + "FN:Orphan\r\nEMAIL:orphan@example.com\r\nEND:VCARD\r\n" + card("Flo Damaged", "flo@example.com"),
                to: "damaged.vcf")
            let second = try await world.run("import", damaged)
            #expect(second.status == 65, "\(second)")
            #expect(second.stdout == "created 3, updated 0, unchanged 0, skipped 1.\n")
            #expect(
                second.stderr == """
                    \(damaged):6: warning: stray byte before BEGIN:VCARD on its line, ignored: “·”
                    \(damaged):11: a card without its BEGIN:VCARD (lines 11–13), skipped: “FN:Orphan”
                    cardwallet: 1 card skipped.

                    """)
        }
    }

    @Test func jsonIsAlwaysOneObject() async throws {
        try await CLIWorld.with { world in
            try await world.login()
            let empty = try world.folder.write("", to: "empty.vcf")
            let refused = try await world.run("import", empty, "--json")
            #expect(refused.status == 65, "\(refused)")
            let report = try Self.json(refused)
            #expect(report["refused"] as? [String] == ["\(empty): empty: no vCard in it"])
            #expect(report["created"] as? Int == 0 && (report["cards"] as? [Any])?.isEmpty == true)
            #expect(report["cardsShown"] as? Int == 0 && report["cardsTotal"] as? Int == 0)

            let missing = try await world.run("import", world.folder.path("nowhere.vcf"), "--json")
            #expect(missing.status == 64, "\(missing)")
            #expect((try Self.json(missing)["error"] as? String)?.contains("there is no such file or folder") == true)

            // 150 cards that cannot be imported and one that can: the list says it was cut.
            let many = try world.folder.write(
                String(repeating: "BEGIN:VCARD\nNOTE:nobody\nEND:VCARD\n", count: 150)
                    + "BEGIN:VCARD\nFN:Last\nEND:VCARD\n",
                to: "many.vcf")
            let cut = try await world.run("import", many, "--json")
            #expect(cut.status == 65)
            let listed = try Self.json(cut)
            #expect(listed["skipped"] as? Int == 150 && listed["created"] as? Int == 1)
            #expect((listed["cards"] as? [Any])?.count == 101)
            #expect(listed["cardsShown"] as? Int == 101 && listed["cardsTotal"] as? Int == 151)
        }
    }
}
