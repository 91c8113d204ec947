import CardModels
import Foundation
import GRDB
import Logging
import Testing

@testable import CardMockServer

@Suite struct TrackedTableTests {
    @Test func changesAreTheRowsWhoseValueReallyChanged() {
        var table = TrackedTable(["a": 1, "b": 2])
        table["a"] = 10
        table["a"] = 11
        table["b"] = 2
        table["c"] = 3
        table["d"] = 4
        table["d"] = nil
        let changes = table.takeChanges()
        #expect(Set(changes.keys) == ["a", "c"], "b was set to its own value, d came and went")
        #expect(changes["a"]?.before == 1 && changes["a"]?.after == 11)
        #expect(changes["c"]?.before == nil && changes["c"]?.after == 3)
        #expect(table.takeChanges().isEmpty, "taking forgets")
        table.revert(changes)
        #expect(table.rows == ["a": 1, "b": 2])
    }

    @Test func discardingPutsBackEveryRowWrittenSinceTheLastTake() {
        var table = TrackedTable(["a": 1])
        table["a"] = 2
        _ = table.takeChanges()
        table["a"] = 3
        table["b"] = 4
        table["a"] = nil
        table.discardChanges()
        #expect(table.rows == ["a": 2])
        #expect(table.takeChanges().isEmpty)
    }
}

@Suite struct ServerDatabaseTests {
    static let now = Date(timeIntervalSinceReferenceDate: 812_345_678.123_456_7)
    static let lifetimes = TokenBook.Lifetimes(access: 300, refresh: 86_400)

    /// Two users, three cards (one with an image, one with kept vCard lines), a session.
    static let seed = makeSnapshot()

    static func snapshot() -> DataSnapshot { seed }

    private static func makeSnapshot() -> DataSnapshot {
        var cards = CardBook()
        let image = SeedImage(contentType: "image/png", data: TestImages.png)
        cards.insert(
            StoredCard(
                ownerID: "u1",
                card: APICard(
                    id: "c1", fields: CardFields(name: "김민지", company: "서울데이터랩"), hasImage: true,
                    image: CardImageInfo(contentType: "image/png", size: image.data.count), createdAt: now,
                    updatedAt: now),
                image: image))
        cards.insert(
            StoredCard(
                ownerID: "u1",
                card: APICard(
                    id: "c2", fields: CardFields(name: "Ada", vcardProperties: ["X-ABLabel:회사"]), createdAt: now,
                    updatedAt: now)))
        cards.insert(
            StoredCard(
                ownerID: "u2",
                card: APICard(id: "c3", fields: CardFields(name: "Other"), createdAt: now, updatedAt: now)))
        var tokens = TokenBook()
        _ = tokens.login(userID: "u1", now: now, lifetimes: lifetimes)
        var snapshot = DataSnapshot(
            users: [
                UserRecord(id: "u2", email: "b@x.dev", name: "B", passwordHash: "$2b$04$b"),
                UserRecord(id: "u1", email: "a@x.dev", name: "A", passwordHash: "$2b$04$a"),
            ],
            cards: cards, tokens: tokens)
        _ = snapshot.takeChanges()
        return snapshot
    }

    static func open(_ path: String) async throws -> DataFileOpening.Opened {
        try await DataFileOpening.open(path: path, logger: Logger(label: "test")) { snapshot() }
    }

    @Test func aNewFileHoldsTheSeedDataExactlyWithPrivatePermissions() async throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = folder.appendingPathComponent("data.db").path
        let opened = try await Self.open(path)
        #expect(opened.snapshot == Self.snapshot(), "dates, positions, images and tokens read back to the bit")
        #expect(opened.snapshot.users.map(\.id) == ["u2", "u1"], "users keep their order")
        let attributes = try FileManager.default.attributesOfItem(atPath: path)
        #expect((attributes[.posixPermissions] as? Int) == 0o600)
        opened.store.close()
        #expect(try await Self.open(path).snapshot == Self.snapshot())
    }

    @Test func aWriteStoresTheRowsAChangeTouchedAndNothingElse() async throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = folder.appendingPathComponent("data.db").path
        let opened = try await Self.open(path)
        var snapshot = opened.snapshot
        let later = Self.now.addingTimeInterval(60)

        _ = snapshot.cards.update(
            "c2", ownerID: "u1", fields: CardFields(name: "Ada v2"), precondition: .any, now: later)
        var changes = snapshot.takeChanges()
        #expect(
            Array(changes.cards.cards.keys) == ["c2"] && changes.tokens.isEmpty, "one card row, whatever the data size")
        try opened.store.write(changes, in: snapshot)

        _ = snapshot.cards.setImage("c1", ownerID: "u1", image: nil, precondition: .any, now: later)
        _ = snapshot.cards.delete("c3", ownerID: "u2", precondition: .any)
        _ = snapshot.cards.reorder(ownerID: "u1", to: ["c2", "c1"])
        let pair = snapshot.tokens.login(userID: "u2", now: later, lifetimes: Self.lifetimes)
        _ = snapshot.tokens.refresh(pair.refreshToken, now: later, lifetimes: Self.lifetimes)
        changes = snapshot.takeChanges()
        try opened.store.write(changes, in: snapshot)
        opened.store.close()

        let reloaded = try await Self.open(path).snapshot
        #expect(reloaded == snapshot)
        #expect(reloaded.cards.walletOrder(ownerID: "u1") == ["c2", "c1"])
        #expect(reloaded.cards.card("c1", ownerID: "u1")?.image == nil)
        #expect(reloaded.cards.card("c3", ownerID: "u2") == nil)
    }

    @Test func aCardsFieldsAreOneJSONColumnInTheAPIsEncoding() async throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = folder.appendingPathComponent("data.db").path
        try await Self.open(path).store.close()
        let queue = try DatabaseQueue(path: path)
        let text = try #require(
            try await queue.read { try String.fetchOne($0, sql: "SELECT fields FROM card WHERE id = 'c2'") })
        let fields = try CardWalletJSON.decoder().decode(CardFields.self, from: Data(text.utf8))
        #expect(fields == CardFields(name: "Ada", vcardProperties: ["X-ABLabel:회사"]))
        let images = try await queue.read { try Int.fetchOne($0, sql: "SELECT count(*) FROM cardImage") }
        #expect(images == 1, "image bytes live in their own table, one row per card with an image")
    }
}

/// Files at the `--data` path that are not a usable database of ours: each refused at start
/// with a message naming it and the problem, and left exactly as it was.
@Suite struct UnusableDataFileTests {
    func expectRefused(
        _ path: String, _ message: String, sourceLocation: SourceLocation = #_sourceLocation
    ) async throws {
        let before = try? Data(contentsOf: URL(fileURLWithPath: path))
        let error = await #expect(throws: MockServerError.self, sourceLocation: sourceLocation) {
            _ = try await ServerDatabaseTests.open(path)
        }
        let text = error?.description ?? ""
        #expect(text.hasPrefix("Cannot use the data file \(path): "), "\(text)", sourceLocation: sourceLocation)
        #expect(text.contains(message), "\(text)", sourceLocation: sourceLocation)
        #expect(!text.contains("\n"), "one line", sourceLocation: sourceLocation)
        #expect(
            (try? Data(contentsOf: URL(fileURLWithPath: path))) == before, "left as it was",
            sourceLocation: sourceLocation)
    }

    /// A database of ours, closed, at `folder/data.db`.
    func database(in folder: URL) async throws -> String {
        let path = folder.appendingPathComponent("data.db").path
        try await ServerDatabaseTests.open(path).store.close()
        return path
    }

    @Test func aTruncatedDatabaseIsDamaged() async throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = try await database(in: folder)
        let bytes = try Data(contentsOf: URL(fileURLWithPath: path))
        try bytes.prefix(bytes.count / 3).write(to: URL(fileURLWithPath: path))
        try await expectRefused(path, "it is damaged")
    }

    @Test func aDatabaseWithGarbageInItsPagesIsDamaged() async throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = try await database(in: folder)
        var bytes = try Data(contentsOf: URL(fileURLWithPath: path))
        // Every page after the first (the header and the schema) gets scribbled over.
        for index in 4096..<bytes.count { bytes[index] = UInt8(truncatingIfNeeded: index &* 7919 &+ 13) }
        try bytes.write(to: URL(fileURLWithPath: path))
        try await expectRefused(path, "it is damaged")
    }

    @Test func anotherProgramsDatabaseIsRefusedUntouched() async throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = folder.appendingPathComponent("photos.db").path
        let queue = try DatabaseQueue(path: path)
        try await queue.write { try $0.execute(sql: "CREATE TABLE photo (id INTEGER PRIMARY KEY, name TEXT)") }
        try queue.close()
        try await expectRefused(path, "another program's SQLite database")
        #expect(!FileManager.default.fileExists(atPath: path + "-wal"), "never opened, so never switched to WAL")
    }

    @Test func aDatabaseFromANewerVersionIsRefused() async throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = try await database(in: folder)
        let queue = try DatabaseQueue(path: path)
        try await queue.write {
            try $0.execute(sql: "INSERT INTO grdb_migrations (identifier) VALUES ('v99: from the future')")
        }
        try queue.close()
        let error = await #expect(throws: MockServerError.self) { _ = try await ServerDatabaseTests.open(path) }
        #expect(error?.description.contains("written by a newer version of cardwallet") == true)
    }

    @Test(arguments: [
        ("", "it is empty"), ("garbage", "it is not a mock server data file"),
        ("SQLite format 3\0", "it is not a mock server data file"),
    ])
    func otherFilesAreRefused(content: String, message: String) async throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = folder.appendingPathComponent("data.db").path
        try Data(content.utf8).write(to: URL(fileURLWithPath: path))
        try await expectRefused(path, message)
    }

    @Test func aFolderOrAMissingFolderIsNamed() async throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        try await expectRefused(folder.path, "it is a folder")
        let missing = folder.appendingPathComponent("no/such/data.db").path
        try await expectRefused(missing, "cannot create a file beside it")
    }
}
