import Foundation
import TestSupport
import Testing

@testable import TokenStore

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A damaged token file and the reason the store must give for it.
struct CorruptCase: Sendable, CustomTestStringConvertible {
    let name: String
    let bytes: Data
    let reason: TokenStoreError.UnreadableReason

    var testDescription: String { name }

    init(_ name: String, _ text: String, _ reason: TokenStoreError.UnreadableReason) {
        self.init(name, Data(text.utf8), reason)
    }

    init(_ name: String, _ bytes: Data, _ reason: TokenStoreError.UnreadableReason) {
        self.name = name
        self.bytes = bytes
        self.reason = reason
    }

    static let validItem = """
        {"server": "http://s/v1", "account": "a@b", "accessToken": "\(Samples.canary)",
        "accessTokenExpiresAt": "2030-01-01T00:00:00Z", "refreshToken": "\(Samples.canary)",
        "refreshTokenExpiresAt": "2030-01-01T00:00:00Z"}
        """

    /// A version 1 file holding ``validItem`` with one piece of it replaced.
    static func fileWithItem(replacing original: String, by replacement: String) -> String {
        // If `original` did not occur, the file stays valid and the test fails: no silent pass.
        return "{\"version\": 1, \"items\": [\(validItem.replacingOccurrences(of: original, with: replacement))]}"
    }

    static func randomBytes(seed: UInt64, count: Int) -> Data {
        var state = seed
        return Data(
            (0..<count).map { _ in
                state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
                return UInt8(truncatingIfNeeded: state >> 33)
            })
    }

    static let all: [CorruptCase] = [
        CorruptCase("empty file", "", .empty),
        CorruptCase("truncated", "{\"version\": 1, \"items\": [\(validItem.prefix(60))", .notJSON),
        CorruptCase("random bytes (seed 1)", randomBytes(seed: 1, count: 512), .notJSON),
        CorruptCase("random bytes (seed 2)", randomBytes(seed: 2, count: 4096), .notJSON),
        CorruptCase("NUL bytes", Data(repeating: 0, count: 64), .notJSON),
        CorruptCase("JSON null", "null", .wrongFormat(detail: "the top level should be an object, not null")),
        CorruptCase("top-level array", "[1, 2]", .wrongFormat(detail: "the top level should be an object")),
        CorruptCase("no version", "{\"items\": []}", .wrongFormat(detail: "`version` is missing")),
        CorruptCase(
            "version as a string", "{\"version\": \"1\", \"items\": []}",
            .wrongFormat(detail: "`version` should be an integer")),
        CorruptCase(
            "version 0", "{\"version\": 0, \"items\": []}", .wrongFormat(detail: "format version 0 is invalid")),
        CorruptCase("future version", "{\"version\": 4, \"items\": {\"new\": \"layout\"}}", .unsupportedVersion(4)),
        CorruptCase(
            "items as an object", "{\"version\": 1, \"items\": {}}", .wrongFormat(detail: "`items` should be an array")),
        CorruptCase("no items", "{\"version\": 1}", .wrongFormat(detail: "`items` is missing")),
        CorruptCase(
            "token as a number",
            fileWithItem(replacing: "\"accessToken\": \"\(Samples.canary)\"", by: "\"accessToken\": 42"),
            .wrongFormat(detail: "`items[0].accessToken` should be a string")),
        CorruptCase(
            "missing refresh token", fileWithItem(replacing: "\"refreshToken\": \"\(Samples.canary)\",", by: ""),
            .wrongFormat(detail: "`items[0].refreshToken` is missing")),
        CorruptCase(
            "null account", fileWithItem(replacing: "\"a@b\"", by: "null"),
            .wrongFormat(detail: "`items[0].account` should be a string, not null")),
        CorruptCase(
            "bad date",
            fileWithItem(replacing: "\"2030-01-01T00:00:00Z\", \"refreshToken\"", by: "\"soon\", \"refreshToken\""),
            .wrongFormat(detail: "`items[0].accessTokenExpiresAt` is not an ISO 8601 date")),
        CorruptCase(
            "date as a number",
            fileWithItem(replacing: "\"2030-01-01T00:00:00Z\", \"refreshToken\"", by: "1893456000, \"refreshToken\""),
            .wrongFormat(detail: "`items[0].accessTokenExpiresAt` should be a string")),
        CorruptCase(
            "lifetime as a string",
            fileWithItem(replacing: "\"refreshToken\":", by: "\"accessTokenLifetime\": \"30s\", \"refreshToken\":"),
            .wrongFormat(detail: "`items[0].accessTokenLifetime` should be a number")),
        CorruptCase(
            "empty account", fileWithItem(replacing: "\"a@b\"", by: "\" \""),
            .wrongFormat(detail: "`items[0]` has an empty server or account")),
        CorruptCase(
            "too large", Data(repeating: UInt8(ascii: " "), count: TokenFileFormat.maximumSize + 1),
            .tooLarge(bytes: TokenFileFormat.maximumSize + 1)),
    ]
}

@Suite("Corrupt or unreadable files")
struct CorruptFileTests {
    @Test(
        "A damaged file gives a clear 'unreadable, log in again' error and is never overwritten",
        arguments: CorruptCase.all)
    func unreadable(damage: CorruptCase) async throws {
        let folder = try TemporaryFolder("tokenstore")
        defer { folder.remove() }
        let store = folder.store()
        try writeRaw(damage.bytes, to: store.path)
        let expected = TokenStoreError.unreadable(path: store.path, reason: damage.reason)

        let error = try #require(throws: TokenStoreError.self) { try store.items() }
        #expect(error == expected)
        #expect(error.description.hasPrefix("token store unreadable at \(store.path)"))
        #expect(error.description.contains("log in again"))
        #expect(!error.description.contains(Samples.canary))
        #expect(throws: expected) { try store.read(server: "http://s/v1", account: "a@b") }
        #expect(throws: expected) { try store.accounts(server: "http://s/v1") }

        // Nothing but a login's save or a full delete-all may replace it.
        await #expect(throws: expected) { try await store.save(Samples.item()) }
        await #expect(throws: expected) { try await store.delete(server: "http://s/v1", account: "a@b") }
        await #expect(throws: expected) { try await store.deleteAll(server: "http://s/v1") }
        try await store.withExclusiveAccess { file in
            #expect(throws: expected) { try file.save(Samples.item()) }
            #expect(throws: expected) { try file.read(server: "http://s/v1", account: "a@b") }
        }
        #expect(try Data(contentsOf: URL(fileURLWithPath: store.path)) == damage.bytes)

        try await store.save(Samples.item(), replacingCorrupt: true)
        #expect(try store.items() == [Samples.item()])
        #expect(try permissions(store.path) == 0o600)
    }

    @Test("Delete-all without a server clears an unreadable file", arguments: CorruptCase.all.prefix(3))
    func deleteAllClears(damage: CorruptCase) async throws {
        let folder = try TemporaryFolder("tokenstore")
        defer { folder.remove() }
        let store = folder.store()
        try writeRaw(damage.bytes, to: store.path)
        try await store.deleteAll()
        #expect(!FileManager.default.fileExists(atPath: store.path))
        #expect(try store.items().isEmpty)
    }

    @Test("Every truncation of a valid file is unreadable, never a crash or a partial read")
    func everyTruncation() async throws {
        let folder = try TemporaryFolder("tokenstore")
        defer { folder.remove() }
        let store = folder.store()
        try await store.save(Samples.item(account: "ann@example.com"))
        try await store.save(Samples.item(account: "bob@example.com"))
        let full = try Data(contentsOf: URL(fileURLWithPath: store.path))
        // The last two bytes are "}\n": dropping only the newline leaves valid JSON.
        for length in 0..<(full.count - 1) {
            try writeRaw(full.prefix(length), to: store.path)
            #expect(throws: TokenStoreError.self, "prefix of \(length) bytes") { try store.items() }
        }
    }

    /// As any user: root reads a mode-0000 file anyway, so as root a child process that is
    /// nobody (uid 65534), owning the files, tries (as `PermissionTests` changes the umask).
    @Test("A file the OS will not let us read is unreadable too")
    func permissionDenied() async throws {
        let folder = try TemporaryFolder("tokenstore")
        defer { folder.remove() }
        let store = folder.store()
        try await store.save(Samples.item())
        try #require(chmod(store.path, 0o000) == 0)
        let refusal = TokenStoreError.unreadable(path: store.path, reason: .cannotRead(errno: EACCES))
        if geteuid() != 0 {
            #expect(throws: refusal) { try store.items() }
        } else {
            for path in [folder.path, store.folderPath, store.path, store.lockPath] {
                try #require(chown(path, 65534, 65534) == 0, "chown \(path)")
            }
            let output = try await StressTool.run(["items-as", "65534", store.path])
            #expect(output == refusal.description + "\n")
        }
    }
}
