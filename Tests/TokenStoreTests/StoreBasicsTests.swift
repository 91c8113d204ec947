import Foundation
import TestSupport
import Testing

@testable import TokenStore

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

@Suite("Keychain-like operations")
struct StoreBasicsTests {
    @Test("No file yet: reads are empty and nothing is created")
    func emptyStore() throws {
        let folder = try TemporaryFolder("tokenstore")
        defer { folder.remove() }
        let store = folder.store()
        #expect(try store.read(server: Samples.server, account: "ann@example.com") == nil)
        #expect(try store.items().isEmpty)
        #expect(try store.accounts(server: Samples.server).isEmpty)
        #expect(!FileManager.default.fileExists(atPath: store.folderPath))
    }

    @Test("Save then read gives back exactly the same item")
    func roundTrip() async throws {
        let folder = try TemporaryFolder("tokenstore")
        defer { folder.remove() }
        let store = folder.store()
        let item = Samples.item()
        try await store.save(item)
        #expect(try store.read(server: Samples.server, account: "ann@example.com") == item)
        let bare = TokenItem(
            server: "http://b/v1", account: "bob@example.com", accessToken: "a", accessTokenExpiresAt: Samples.expiry,
            refreshToken: "r", refreshTokenExpiresAt: Samples.expiry)
        try await store.save(bare)
        #expect(try store.read(server: "http://b/v1/", account: "BOB@example.com") == bare)
    }

    @Test("Saving the same key replaces the item, whatever the spelling of the key")
    func replace() async throws {
        let folder = try TemporaryFolder("tokenstore")
        defer { folder.remove() }
        let store = folder.store()
        try await store.save(Samples.item(generation: 1))
        try await store.save(Samples.item(server: Samples.server + "/", account: "ANN@example.com", generation: 2))
        let items = try store.items()
        #expect(items.count == 1)
        #expect(items.first?.refreshToken == Samples.item(generation: 2).refreshToken)
        #expect(items.first?.account == "ANN@example.com")
    }

    @Test("Accounts are listed per server, sorted")
    func accounts() async throws {
        let folder = try TemporaryFolder("tokenstore")
        defer { folder.remove() }
        let store = folder.store()
        try await store.save(Samples.item(account: "zoe@example.com"))
        try await store.save(Samples.item(account: "ann@example.com"))
        try await store.save(Samples.item(server: "http://other/v1", account: "max@example.com"))
        #expect(try store.accounts(server: Samples.server) == ["ann@example.com", "zoe@example.com"])
        #expect(try store.accounts(server: "http://other/v1/") == ["max@example.com"])
        #expect(try store.items().count == 3)
        #expect(try store.items(server: "http://nowhere").isEmpty)
    }

    @Test("Delete removes one item and reports whether it existed; the last one takes the file")
    func delete() async throws {
        let folder = try TemporaryFolder("tokenstore")
        defer { folder.remove() }
        let store = folder.store()
        try await store.save(Samples.item(account: "ann@example.com"))
        try await store.save(Samples.item(account: "bob@example.com"))
        #expect(try await store.delete(server: Samples.server, account: "Ann@Example.com"))
        #expect(try await !store.delete(server: Samples.server, account: "ann@example.com"))
        #expect(try store.accounts(server: Samples.server) == ["bob@example.com"])
        #expect(try await store.delete(server: Samples.server, account: "bob@example.com"))
        #expect(!FileManager.default.fileExists(atPath: store.path))
        #expect(try await !store.delete(server: Samples.server, account: "bob@example.com"))
    }

    @Test("Delete-all clears one server or everything")
    func deleteAll() async throws {
        let folder = try TemporaryFolder("tokenstore")
        defer { folder.remove() }
        let store = folder.store()
        try await store.save(Samples.item(account: "ann@example.com"))
        try await store.save(Samples.item(server: "http://other/v1", account: "max@example.com"))
        try await store.deleteAll(server: Samples.server + "/")
        #expect(try store.items().map(\.account) == ["max@example.com"])
        try await store.deleteAll()
        #expect(try store.items().isEmpty)
        #expect(!FileManager.default.fileExists(atPath: store.path))
        try await store.deleteAll()  // nothing to delete is fine
    }

    @Test("An empty server or account is refused")
    func invalidItems() async throws {
        let folder = try TemporaryFolder("tokenstore")
        defer { folder.remove() }
        let store = folder.store()
        let noServer = TokenItem(
            server: " / ", account: "a", accessToken: "x", accessTokenExpiresAt: Samples.expiry,
            refreshToken: "y", refreshTokenExpiresAt: Samples.expiry)
        await #expect(throws: TokenStoreError.invalidItem(reason: "the server is empty")) {
            try await store.save(noServer)
        }
        let noAccount = TokenItem(
            server: "s", account: "  ", accessToken: "x", accessTokenExpiresAt: Samples.expiry,
            refreshToken: "y", refreshTokenExpiresAt: Samples.expiry)
        await #expect(throws: TokenStoreError.invalidItem(reason: "the account is empty")) {
            try await store.save(noAccount)
        }
    }

    @Test("The file is version 3 JSON with ISO 8601 dates, sorted and stable")
    func fileFormat() async throws {
        let folder = try TemporaryFolder("tokenstore")
        defer { folder.remove() }
        let store = folder.store()
        try await store.save(Samples.item(account: "zoe@example.com"))
        try await store.save(Samples.item(account: "ann@example.com"))
        let data = try Data(contentsOf: URL(fileURLWithPath: store.path))
        let json = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
        #expect(json["version"] as? Int == 3)
        let items = try #require(json["items"] as? [[String: Any]])
        #expect(items.map { $0["account"] as? String } == ["ann@example.com", "zoe@example.com"])
        #expect(items.first?["accessTokenExpiresAt"] as? String == "2030-03-17T17:46:40Z")
        #expect(items.first?["server"] as? String == Samples.server)
    }

    @Test("A version 1 file with unknown extra fields still reads")
    func forwardCompatibleFields() throws {
        let folder = try TemporaryFolder("tokenstore")
        defer { folder.remove() }
        let store = folder.store()
        let text = """
            {"version": 1, "written-by": "a later cardwallet", "items": [{"server": "http://s/v1/",
            "account": "a@b", "accessToken": "x", "accessTokenExpiresAt": "2030-01-01T00:00:00.250Z",
            "refreshToken": "y", "refreshTokenExpiresAt": "2030-02-01T00:00:00Z", "colour": "blue"}]}
            """
        try writeRaw(Data(text.utf8), to: store.path)
        let item = try #require(try store.read(server: "http://s/v1", account: "a@b"))
        #expect(item.accessTokenExpiresAt == Date(timeIntervalSince1970: 1_893_456_000))
        #expect(item.userID == nil)
        #expect(item.displayName == nil)
    }

    @Test("The status line is honest about where and how tokens are kept")
    func storageSummary() async throws {
        let folder = try TemporaryFolder("tokenstore")
        defer { folder.remove() }
        let store = folder.store()
        #expect(store.storageSummary().hasPrefix("no tokens stored; they would be kept in \(store.path)"))
        try await store.save(Samples.item())
        #expect(store.storageSummary() == "tokens stored in \(store.path) (plain file, mode 0600, not encrypted)")
        try #require(chmod(store.path, 0o644) == 0)
        #expect(store.storageSummary().contains("mode 0644"))
        #expect(store.storageSummary().contains("chmod 600 \(store.path)"))
        #expect(!store.storageSummary().contains(Samples.canary))
    }
}
