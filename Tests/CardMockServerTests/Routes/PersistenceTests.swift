import CardMockServer
import CardModels
import Foundation
import GRDB
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import Testing

@Suite struct PersistenceTests {
    @Test func dataSurvivesARestartAndSessionsToo() async throws {
        let folder = try temporaryFolder()
        var configuration = MockServerConfiguration.testing
        configuration.dataFile = folder.appendingPathComponent("wallet.json").path
        let clock = ManualWallClock()

        let first = try await MockServer.makeApp(configuration: configuration, clock: clock)
        #expect(FileManager.default.fileExists(atPath: configuration.dataFile ?? ""), "seeded at start")
        let (grant, createdID) = try await first.application.test(.router) { client in
            let api = API(client: client)
            let grant = try await api.login()
            let created = try await api.createCard(
                MultipartForm(fields: CardFields(name: "Persisted 카드")), token: grant.accessToken)
            _ = try await api.send(.delete, "/card/demo-03", token: grant.accessToken)
            _ = try await api.sendJSON(
                .put, "/card/demo-01", CardFields(name: "Ada v2"), token: grant.accessToken,
                headers: [.ifMatch: #""1""#])
            return (grant, try created.data(APICard.self).id)
        }

        // A new server on the same file: same cards, same sessions, seeds not applied again.
        let second = try await MockServer.makeApp(configuration: configuration, clock: clock)
        try await second.application.test(.router) { client in
            let api = API(client: client)
            let page = try await api.send(.get, "/cards", token: grant.accessToken).data(APICardPage.self)
            #expect(page.total == 12)
            #expect(page.cards.last?.id == createdID)
            #expect(!page.cards.contains { $0.id == "demo-03" })
            let ada = try await api.send(.get, "/card/demo-01", token: grant.accessToken).data(APICard.self)
            #expect(ada.fields.name == "Ada v2" && ada.version == 2 && ada.hasImage)
            let image = try await api.send(.get, "/card/demo-01/image", token: grant.accessToken)
            #expect(image.headers[.contentType] == "image/png")
            // Refresh rotation state survived too.
            let refreshed = try await api.refresh(grant.refreshToken)
            #expect(refreshed.status == .ok)
            try expectError(try await api.refresh(grant.refreshToken), .refreshTokenExpired)
        }
        // The database and its write-ahead log (where the latest changes are until a checkpoint).
        let bytes = try DataFileBytes(configuration.dataFile ?? "")
        #expect(bytes.contain("Persisted 카드") && bytes.contain("Ada v2"), "the changes are in the file")
        #expect(!bytes.contain("demo1234"), "passwords are stored hashed")
        #expect(!bytes.contain(String(grant.accessToken.split(separator: ".")[1])), "tokens are stored as digests")
        #expect(!bytes.contain(String(grant.refreshToken.split(separator: ".")[1])), "tokens are stored as digests")
    }

    @Test func imageChangesAndKeptPropertiesSurviveARestart() async throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        var configuration = MockServerConfiguration.testing
        configuration.dataFile = folder.appendingPathComponent("wallet.json").path
        let kept = ["TEL;TYPE=FAX:+1 555 0100", "X-ABLabel:회사", "UID:urn:uuid:1f6a-42"]
        let jpeg = TestImages.jpeg

        let first = try await MockServer.makeApp(configuration: configuration)
        let token = try await first.application.test(.router) { client in
            let api = API(client: client)
            let token = try await api.login().accessToken
            #expect(
                try await api.putImage(Seeds.demoCardWithoutImage, jpeg, contentType: "image/jpeg", token: token).status
                    == .ok)
            #expect(try await api.deleteImage(Seeds.demoCardWithImage, token: token).status == .ok)
            let fields = CardFields(name: "Kept", vcardProperties: kept)
            #expect(
                try await api.sendJSON(.put, "/card/demo-02", fields, token: token, headers: [.ifMatch: #""1""#]).status
                    == .ok)
            return token
        }

        let second = try await MockServer.makeApp(configuration: configuration)
        try await second.application.test(.router) { client in
            let api = API(client: client)
            let replaced = try await api.send(.get, "/card/\(Seeds.demoCardWithoutImage)", token: token).data(
                APICard.self)
            #expect(
                replaced.version == 2 && replaced.image == CardImageInfo(contentType: "image/jpeg", size: jpeg.count))
            #expect(try await api.imageBytes(Seeds.demoCardWithoutImage, token: token) == jpeg)
            let removed = try await api.send(.get, "/card/\(Seeds.demoCardWithImage)", token: token).data(APICard.self)
            #expect(removed.version == 2 && !removed.hasImage)
            try expectError(
                try await api.send(.get, "/card/\(Seeds.demoCardWithImage)/image", token: token), .cardNotFound)
            #expect(
                try await api.send(.get, "/card/demo-02", token: token).data(APICard.self).fields.vcardProperties
                    == kept)
        }
    }

    @Test func anImageChangeTheDataFileCannotKeepIsE99AndChangesNothing() async throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        var configuration = MockServerConfiguration.testing
        configuration.dataFile = folder.appendingPathComponent("wallet.json").path
        let app = try await MockServer.makeApp(configuration: configuration)
        let path = configuration.dataFile ?? ""
        try await app.application.test(.router) { client in
            let api = API(client: client)
            let token = try await api.login().accessToken
            let original = try await api.imageBytes(Seeds.demoCardWithImage, token: token)
            // Another connection holds the write lock: the server's next write fails.
            let lock = try WriteLock(path)
            defer { lock.release() }
            try expectError(
                try await api.putImage(Seeds.demoCardWithImage, TestImages.jpeg, token: token), .internalError)
            try expectError(try await api.deleteImage(Seeds.demoCardWithImage, token: token), .internalError)
            let card = try await api.send(.get, "/card/\(Seeds.demoCardWithImage)", token: token).data(APICard.self)
            #expect(card.version == 1 && card.image?.contentType == "image/png")
            #expect(try await api.imageBytes(Seeds.demoCardWithImage, token: token) == original)
        }
    }

    @Test func aCorruptDataFileStopsTheStartWithAClearError() async throws {
        let folder = try temporaryFolder()
        let path = folder.appendingPathComponent("wallet.json").path
        try Data("garbage".utf8).write(to: URL(fileURLWithPath: path))
        var configuration = MockServerConfiguration.testing
        configuration.dataFile = path
        let error = await #expect(throws: MockServerError.self) {
            _ = try await MockServer.makeApp(configuration: configuration)
        }
        #expect(error?.description.contains(path) == true)
        #expect(try String(contentsOfFile: path, encoding: .utf8) == "garbage", "the file is left alone")
    }

    @Test func aWriteTheDataFileCannotTakeAnswersE99AndChangesNothing() async throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        var configuration = MockServerConfiguration.testing
        configuration.dataFile = folder.appendingPathComponent("wallet.json").path
        let app = try await MockServer.makeApp(configuration: configuration)
        let path = configuration.dataFile ?? ""
        try await app.application.test(.router) { client in
            let api = API(client: client)
            let grant = try await api.login()
            let token = grant.accessToken
            let lock = try WriteLock(path)
            let response = try await api.sendJSON(
                .put, "/card/demo-01", CardFields(name: "Lost"), token: token, headers: [.ifMatch: #""1""#])
            try expectError(response, .internalError)
            let created = try await api.createCard(MultipartForm(fields: CardFields(name: "Never")), token: token)
            try expectError(created, .internalError)
            try expectError(
                try await api.send(.delete, "/card/demo-02", token: token, headers: [.ifMatch: "*"]), .internalError)
            try expectError(try await api.refresh(grant.refreshToken), .internalError)
            let card = try await api.send(.get, "/card/demo-01", token: token).data(APICard.self)
            #expect(card.fields.name == "Ada Lovelace" && card.version == 1)
            let page = try await api.send(.get, "/cards?limit=100", token: token).data(APICardPage.self)
            #expect(page.total == 12 && !page.cards.contains { $0.name == "Never" })
            #expect(page.cards.map(\.id) == (1...12).map { String(format: "demo-%02d", $0) })

            // Once the lock is gone, writes work again, and the refresh token is still unused.
            lock.release()
            #expect(try await api.refresh(grant.refreshToken).status == .ok)
            let edited = try await api.sendJSON(
                .put, "/card/demo-01", CardFields(name: "Kept"), token: token, headers: [.ifMatch: #""1""#])
            #expect(try edited.data(APICard.self).version == 2)
        }
        // What the file holds is what the server answered.
        let reopened = try await MockServer.makeApp(configuration: configuration)
        try await reopened.application.test(.router) { client in
            let api = API(client: client)
            let token = try await api.login().accessToken
            #expect(try await api.send(.get, "/card/demo-01", token: token).data(APICard.self).fields.name == "Kept")
            #expect(try await api.send(.get, "/cards", token: token).data(APICardPage.self).total == 12)
        }
    }
}

/// The bytes of a data file and its write-ahead log, to look for text that must (or must not)
/// be stored.
struct DataFileBytes {
    let bytes: [Data]

    init(_ path: String) throws {
        var bytes = [try Data(contentsOf: URL(fileURLWithPath: path))]
        if let wal = try? Data(contentsOf: URL(fileURLWithPath: path + "-wal")) { bytes.append(wal) }
        self.bytes = bytes
    }

    func contain(_ text: String) -> Bool {
        bytes.contains { $0.range(of: Data(text.utf8)) != nil }
    }
}

/// A second connection to a data file holding its write lock (`BEGIN IMMEDIATE`), as another
/// process writing to it would: the server's writes fail with SQLITE_BUSY until it is released.
final class WriteLock: Sendable {
    private let queue: DatabaseQueue

    init(_ path: String) throws {
        var configuration = Configuration()
        configuration.allowsUnsafeTransactions = true
        queue = try DatabaseQueue(path: path, configuration: configuration)
        try queue.writeWithoutTransaction { try $0.execute(sql: "BEGIN IMMEDIATE") }
    }

    func release() {
        try? queue.writeWithoutTransaction { try $0.execute(sql: "ROLLBACK") }
    }
}
