import CardModels
import Foundation
import Testing

@testable import CardMockServer

@Suite struct DataFileTests {
    @Test func savesAtomicallyWithPrivatePermissionsAndLoadsBack() throws {
        let folder = try temporaryFolder()
        let file = DataFile(path: folder.appendingPathComponent("data.json").path)
        #expect(try file.load() == nil)
        var cards = CardBook()
        let now = Date(timeIntervalSince1970: 1_800_000_000)
        cards.insert(
            StoredCard(
                ownerID: "u1", card: APICard(id: "c1", fields: CardFields(name: "김민지"), createdAt: now, updatedAt: now))
        )
        let snapshot = DataSnapshot(
            users: [UserRecord(id: "u1", email: "a@b.dev", name: "A", passwordHash: "$2b$04$abc")], cards: cards,
            tokens: TokenBook())
        try file.save(snapshot)
        try file.save(snapshot)
        #expect(try file.load() == snapshot)
        let attributes = try FileManager.default.attributesOfItem(atPath: file.path)
        #expect((attributes[.posixPermissions] as? Int) == 0o600)
        // No temporary files are left behind.
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path) == ["data.json"])
    }

    @Test func corruptOrForeignFilesAreRefusedNotOverwritten() throws {
        let folder = try temporaryFolder()
        let path = folder.appendingPathComponent("data.json").path
        try Data("{\"format\": 1, \"users\": [".utf8).write(to: URL(fileURLWithPath: path))
        let error = #expect(throws: MockServerError.self) { try DataFile(path: path).load() }
        #expect(error?.description.contains("not a mock server data file") == true)

        try Data(
            #"{"format": 99, "users": [], "cards": {"cards": {}, "order": {}}, "tokens": {"accessRecords": {}, "refreshRecords": {}, "families": {}}}"#
                .utf8
        )
        .write(to: URL(fileURLWithPath: path))
        let version = #expect(throws: MockServerError.self) { try DataFile(path: path).load() }
        #expect(version?.description.contains("format 99") == true)
    }

    @Test func aMissingFolderIsReportedOnSave() throws {
        let file = DataFile(path: "/nonexistent-folder-\(UUID().uuidString)/data.json")
        let error = #expect(throws: MockServerError.self) {
            try file.save(DataSnapshot(users: [], cards: CardBook(), tokens: TokenBook()))
        }
        #expect(error?.description.contains("cannot create a file beside it") == true)
    }
}

@Suite struct DataFileCrashLeftoverTests {
    @Test func aFolderIsNamedAsSuch() throws {
        let folder = try temporaryFolder()
        let error = #expect(throws: MockServerError.self) { try DataFile(path: folder.path).load() }
        #expect(error?.description.contains("it is a folder") == true)
    }

    @Test func temporariesLeftByACrashAreRemovedAtStartAndTheFileIsKept() async throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        var configuration = MockServerConfiguration.testing
        configuration.dataFile = folder.appendingPathComponent("wallet.json").path
        _ = try await MockServer.makeApp(configuration: configuration)
        // What a kill -9 leaves behind: a database being created (and its journal), or a JSON
        // file being written by an earlier version.
        let leftovers = [
            ".wallet.json.new-n_crashed", ".wallet.json.new-n_crashed-journal", ".wallet.json.tmp-w_crashed",
        ]
        for name in leftovers {
            try Data("half a file".utf8).write(to: folder.appendingPathComponent(name))
        }
        let unrelated = folder.appendingPathComponent(".other.json.tmp-w_keep").path
        try Data("not ours".utf8).write(to: URL(fileURLWithPath: unrelated))

        let app = try await MockServer.makeApp(configuration: configuration)
        let names = Set(try FileManager.default.contentsOfDirectory(atPath: folder.path))
        #expect(names.isDisjoint(with: leftovers))
        #expect(names.contains("wallet.json") && names.contains(".other.json.tmp-w_keep"))
        #expect(await app.controls.accounts().map(\.cardCount).reduce(0, +) == 15)
    }
}
