import CardModels
import Foundation
import TestSupport
import Testing

/// `cardwallet scan` as a user runs it: photos rendered by scripts/make-scan-cards.py, read by
/// the real OCR, added to the mock server.
extension EndToEndTests {
    /// Renders the first `count` cards of the script's committed seed into `folder/cards`.
    static func scanPhotos(_ count: Int, in folder: TemporaryFolder) throws -> (
        paths: [String], truth: [[String: String]]
    ) {
        let out = folder.path("cards")
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = [
            "python3", Repository.file("scripts/make-scan-cards.py").path, "--out", out, "--count", String(count),
        ]
        process.standardError = FileHandle.nullDevice
        try process.run()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else {
            throw TestFailure("scripts/make-scan-cards.py failed: python3 with Pillow is needed (scripts/bootstrap)")
        }
        let truth = try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: out + "/truth.json")))
        let cards = (truth as? [String: Any])?["cards"] as? [[String: Any]] ?? []
        return (
            cards.map { out + "/" + ($0["file"] as? String ?? "") },
            cards.map { $0["fields"] as? [String: String] ?? [:] }
        )
    }

    @Test func scanPrintsFieldsAndJSONWithoutTheServer() async throws {
        try await CLIWorld.with { world in
            let (photos, truth) = try Self.scanPhotos(2, in: world.folder)
            let text = try await world.run(["scan"] + photos)
            #expect(text.status == 0, "\(text)")
            #expect(text.stdout.contains("== \(photos[0]) =="))
            #expect(text.stdout.contains("Name:"))
            #expect(text.stdout.contains(truth[0]["email"] ?? "?"), "\(text)")
            #expect(text.stderr.contains("[1/2] \(photos[0])"))
            #expect(text.stderr.contains("[2/2] \(photos[1])"))

            let json = try await world.run(["scan", "--json"] + photos)
            #expect(json.status == 0, "\(json)")
            let lines = json.stdout.split(separator: "\n")
            #expect(lines.count == 2, "\(json)")
            let keys = Set(CardField.allCases.map(\.key) + [CardLimits.vcardPropertiesKey])
            for (line, printed) in zip(lines, truth) {
                let object = try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
                #expect(Set(object.keys).isSubset(of: keys), "\(object.keys)")
                #expect(object["tags"] == nil && object["tmi"] == nil && object["defaultImage"] == nil)
                #expect(object["name"] as? String == printed["name"], "\(object)")
                #expect(object["email"] as? String == printed["email"], "\(object)")
                // What a scan finds is what the API takes.
                _ = try JSONDecoder().decode(CardFields.self, from: Data(line.utf8))
            }
        }
    }

    @Test func scanRefusesWhatIsNoPhotoWithOneLineAndAddsNothing() async throws {
        try await CLIWorld.with { world in
            try await world.login()
            let (photos, _) = try Self.scanPhotos(1, in: world.folder)
            let notes = try world.folder.write("Ada Lovelace\nada@example.com\n", to: "notes.jpg")
            let cut = try world.folder.write(
                Data(try Data(contentsOf: URL(fileURLWithPath: photos[0])).prefix(300)), to: "cut.jpg")
            let before = try await world.run("list", "--json")

            let refused = try await world.run("scan", notes)
            #expect(refused.status == 1, "\(refused)")
            #expect(
                refused.stderr
                    == "cardwallet: \(notes) is not a photo to scan: it is not a PNG or JPEG image. Give a PNG or JPEG photo of a card.\n"
            )
            #expect(refused.stdout.isEmpty)

            // Leptonica and Tesseract would print their own lines about a damaged JPEG.
            let damaged = try await world.run("scan", cut)
            #expect(damaged.status == 1, "\(damaged)")
            #expect(damaged.stderr.split(separator: "\n").count == 1, "\(damaged)")
            #expect(damaged.stderr.hasPrefix("cardwallet: \(cut) "), "\(damaged)")

            let mixed = try await world.run("scan", "--add", photos[0], notes)
            #expect(mixed.status == 1, "\(mixed)")
            #expect(mixed.stderr.contains("is not a photo to scan"))
            #expect(mixed.stderr.contains("Nothing was added."))
            #expect(try await world.run("list", "--json").stdout == before.stdout)

            let badLanguage = try await world.run("scan", photos[0], "--lang", "eng,kor")
            #expect(badLanguage.status == 64, "\(badLanguage)")
            #expect(badLanguage.stderr.contains("is not a language list"))
        }
    }

    @Test func scanAddCreatesOneCardPerPhotoWithThePhotoAsItsImage() async throws {
        try await CLIWorld.with { world in
            try await world.login()
            let (photos, truth) = try Self.scanPhotos(2, in: world.folder)
            let added = try await world.run(["scan", "--add", "--json"] + photos)
            #expect(added.status == 0, "\(added)")
            let cards = try added.stdout.split(separator: "\n").map { try Self.decodeCard(String($0)) }
            #expect(cards.count == 2)
            for (card, printed) in zip(cards, truth) {
                #expect(card.fields.name == printed["name"])
                #expect(card.hasImage)
                let shown = try Self.decode(Card.self, from: try await world.run("show", card.id, "--json"))
                #expect(shown.image?.contentType == "image/jpeg" || shown.image?.contentType == "image/png")
            }
        }
    }

    static func decodeCard(_ line: String) throws -> Card {
        try CardWalletJSON.decoder().decode(Card.self, from: Data(line.utf8))
    }
}
