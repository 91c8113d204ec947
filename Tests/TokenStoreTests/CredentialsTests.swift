import Foundation
import TestSupport
import Testing

@testable import TokenStore

/// Passwords beside the token pairs: the second format version, and files of the first read and
/// kept working.
@Suite("Credentials beside tokens")
struct CredentialsTests {
    /// A token file as cardwallet wrote it before passwords existed (format version 1).
    static let versionOneFixture = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .appending(path: "Fixtures/tokens-v1.json")

    @Test("A token file in the first format is read, kept and written back in it")
    func theFirstFormatIsReadAndKept() async throws {
        let folder = try TemporaryFolder("tokenstore")
        defer { folder.remove() }
        let store = folder.store()
        try FileManager.default.createDirectory(
            atPath: store.folderPath, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        try Data(contentsOf: Self.versionOneFixture).write(to: URL(fileURLWithPath: store.path))
        chmod(store.path, 0o600)

        let item = try #require(try store.read(server: "http://127.0.0.1:46755/v1", account: "demo@cardwallet.dev"))
        #expect(item.accessToken == "fixture-access-token-v1")
        #expect(item.refreshToken == "fixture-refresh-token-v1")
        #expect(item.displayName == "Demo User")
        #expect(item.accessTokenLifetime == 299.348)
        #expect(try store.accounts(server: "http://127.0.0.1:46755/v1") == ["demo@cardwallet.dev"])

        // Written again, it becomes a version 3 file (accounts beside the tokens), its pair kept.
        try await store.save(Samples.item())
        #expect(try Self.version(of: store) == 3)
        #expect(try store.items().count == 2)
        #expect(try store.read(server: "http://127.0.0.1:46755/v1", account: "demo@cardwallet.dev") == item)
    }

    @Test("Passwords and token pairs live side by side, each by its key")
    func passwordsLiveBesideTokens() async throws {
        let folder = try TemporaryFolder("tokenstore")
        defer { folder.remove() }
        let store = folder.store()
        try await store.save(Samples.item())
        let password = PasswordItem(server: "https://dav.example.com/", account: "Ann", password: "app-pass-1234")
        try await store.save(password)
        #expect(try Self.version(of: store) == 3)
        #expect(try store.password(server: "https://dav.example.com", account: "ann") == password)
        #expect(try store.items() == [Samples.item()], "the token pairs are as they were")
        #expect(try store.accounts(server: "https://dav.example.com") == ["Ann"])
        #expect(try store.passwords() == [password])

        // A new password replaces the old one; removing it leaves the tokens.
        let changed = PasswordItem(server: "https://dav.example.com", account: "ann", password: "app-pass-5678")
        try await store.save(changed)
        #expect(try store.passwords().map(\.password) == ["app-pass-5678"])
        #expect(try await store.deletePassword(server: "https://dav.example.com", account: "ANN"))
        #expect(try store.passwords().isEmpty)
        #expect(try store.items() == [Samples.item()])

        // Removing a server's items removes both kinds.
        try await store.save(changed)
        try await store.deleteAll(server: "https://dav.example.com")
        #expect(try store.passwords().isEmpty)
        #expect(try store.items().count == 1)
    }

    @Test("A password is never shown, dumped or printed")
    func thePasswordIsPrivate() {
        let item = PasswordItem(server: "https://dav.example.com", account: "ann", password: "app-pass-1234")
        var dumped = ""
        dump(item, to: &dumped)
        for text in [item.description, item.debugDescription, "\(item)", String(reflecting: item), dumped] {
            #expect(!text.contains("app-pass-1234"), "\(text)")
            #expect(text.contains("<private>"), "\(text)")
        }
    }

    @Test("An item of a kind this cardwallet does not know, or a password item in a version 1 file, is refused")
    func unknownKindsAreRefused() throws {
        let unknown = Data(
            #"{"version": 2, "items": [{"kind": "passkey", "server": "https://x", "account": "a"}]}"#.utf8)
        #expect(throws: TokenStoreError.UnreadableReason.self) { try TokenFileFormat.decode(unknown) }
        let early = Data(
            #"{"version": 1, "items": [{"kind": "password", "server": "https://x", "account": "a", "password": "p"}]}"#
                .utf8)
        #expect(throws: TokenStoreError.UnreadableReason.self) { try TokenFileFormat.decode(early) }
        let newer = Data(#"{"version": 4, "items": []}"#.utf8)
        #expect(throws: TokenStoreError.UnreadableReason.unsupportedVersion(4)) { try TokenFileFormat.decode(newer) }
    }

    static func version(of store: TokenStore) throws -> Int {
        let object = try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: store.path)))
        return (object as? [String: Any])?["version"] as? Int ?? -1
    }
}
