@_spi(Benchmarks) import CardMockServer
import CardModels
import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import Logging
import Testing

/// A JSON data file written by an earlier version becomes the SQLite database once, with
/// everything in it, and is kept aside.
@Suite struct MigrationTests {
    @Test func aJSONDataFileIsMigratedOnceWithEverythingAndKeptAside() async throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        var configuration = MockServerConfiguration.testing
        let path = folder.appendingPathComponent("wallet.json").path
        configuration.dataFile = path
        let clock = ManualWallClock()
        let kept = ["TEL;TYPE=FAX:+1 555 0100", "X-ABLabel:회사"]

        // The earlier version's server writes the JSON file.
        let old = try await MockServer.makeApp(configuration: configuration, dataFileFormat: .legacyJSON, clock: clock)
        let (grant, rotated, createdID, order) = try await old.application.test(.router) { client in
            let api = API(client: client)
            let first = try await api.login()
            let second = try await api.refresh(first.refreshToken).data(TokenGrant.self)
            var form = MultipartForm(fields: CardFields(name: "Migrated 카드"))
            form.addImage(TestImages.jpeg, filename: "photo.jpg", contentType: "image/jpeg")
            let created = try await api.createCard(form, token: second.accessToken).data(APICard.self)
            let fields = CardFields(name: "Ada v2", vcardProperties: kept)
            #expect(
                try await api.sendJSON(
                    .put, "/card/demo-01", fields, token: second.accessToken, headers: [.ifMatch: #""1""#]
                ).status == .ok)
            let ids = try await api.send(.get, "/cards?limit=100", token: second.accessToken).data(APICardPage.self)
                .cards
                .map(\.id)
            let reversed = Array(ids.reversed())
            #expect(
                try await api.sendJSON(.put, "/cards", ReorderRequest(order: reversed), token: second.accessToken)
                    .status == .ok)
            return (second, first.refreshToken, created.id, reversed)
        }
        // Earlier versions kept the wallet order only in `order`, not in the cards: take the
        // positions out, so the migration must rebuild them from the order.
        let written = try Data(contentsOf: URL(fileURLWithPath: path))
        var root = try #require(try JSONSerialization.jsonObject(with: written) as? [String: Any])
        var book = try #require(root["cards"] as? [String: Any])
        let cards = try #require(book["cards"] as? [String: [String: Any]])
        book["cards"] = cards.mapValues { $0.filter { $0.key != "position" } }
        root["cards"] = book
        let json = try JSONSerialization.data(withJSONObject: root)
        #expect(!String(decoding: json, as: UTF8.self).contains("\"position\""))
        try json.write(to: URL(fileURLWithPath: path))

        let handler = RecordingLogHandler()
        let migrated = try await MockServer.makeApp(
            configuration: configuration, clock: clock, logger: Logger(label: "test") { _ in handler })
        #expect(handler.text.contains("Migrated the JSON data file to SQLite"))
        #expect(handler.text.contains("wallet.json.pre-sqlite"))
        let backup = folder.appendingPathComponent("wallet.json.pre-sqlite")
        #expect(try Data(contentsOf: backup) == json, "the JSON file is kept as it was")
        #expect(try Data(contentsOf: URL(fileURLWithPath: path)).starts(with: Data("SQLite format 3\0".utf8)))
        try await migrated.application.test(.router) { client in
            let api = API(client: client)
            let page = try await api.send(.get, "/cards?limit=100", token: grant.accessToken).data(APICardPage.self)
            #expect(page.cards.map(\.id) == order, "the wallet order came across")
            let card = try await api.send(.get, "/card/\(createdID)", token: grant.accessToken).data(APICard.self)
            #expect(card.fields.name == "Migrated 카드" && card.image?.contentType == "image/jpeg")
            #expect(try await api.imageBytes(createdID, token: grant.accessToken) == TestImages.jpeg)
            let ada = try await api.send(.get, "/card/demo-01", token: grant.accessToken).data(APICard.self)
            #expect(ada.version == 2 && ada.fields.vcardProperties == kept && ada.hasImage)
            // Rotation state came across: the rotated token is reuse, the current one works.
            try expectError(try await api.refresh(rotated), .refreshTokenExpired)
        }

        // The next start opens the database: no second migration, the backup untouched.
        let again = RecordingLogHandler()
        _ = try await MockServer.makeApp(
            configuration: configuration, clock: clock, logger: Logger(label: "test") { _ in again })
        #expect(!again.text.contains("Migrated"))
        #expect(again.text.contains("Loaded the data file"))
        #expect(try Data(contentsOf: backup) == json)
    }

    @Test func aJSONDataFileThatCannotBeReadIsLeftAsItIs() async throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = folder.appendingPathComponent("wallet.json").path
        let broken = Data(#"{"format": 1, "users": ["#.utf8)
        try broken.write(to: URL(fileURLWithPath: path))
        var configuration = MockServerConfiguration.testing
        configuration.dataFile = path
        let error = await #expect(throws: MockServerError.self) {
            _ = try await MockServer.makeApp(configuration: configuration)
        }
        #expect(error?.description.contains("not a mock server data file") == true)
        #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == broken)
        #expect(
            try FileManager.default.contentsOfDirectory(atPath: folder.path) == ["wallet.json"],
            "no database, no backup")
    }
}
