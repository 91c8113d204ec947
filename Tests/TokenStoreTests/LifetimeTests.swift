import Foundation
import TestSupport
import Testing

@testable import TokenStore

/// The access token's lifetime in the token file: how the session knows, in every process,
/// how long a token had to live and when it arrived (issue 12).
@Suite("The access token's lifetime")
struct LifetimeTests {
    /// A version 1 file as cardwallet wrote it before the lifetime was recorded.
    static let oldFormatFile = """
        {
          "items" : [
            {
              "accessToken" : "access-\(Samples.canary)",
              "accessTokenExpiresAt" : "2030-01-01T00:00:30Z",
              "account" : "ann@example.com",
              "displayName" : "Ann",
              "refreshToken" : "refresh-\(Samples.canary)",
              "refreshTokenExpiresAt" : "2030-01-02T00:00:00Z",
              "server" : "http://127.0.0.1:8080/v1",
              "userID" : "u1"
            }
          ],
          "version" : 1
        }

        """

    static let expiry = Date(timeIntervalSince1970: 1_893_456_030)  // 2030-01-01T00:00:30Z

    @Test("A file without the field (the old format) reads with no lifetime, and keeps working")
    func oldFormat() async throws {
        let folder = try TemporaryFolder("tokenstore")
        defer { folder.remove() }
        let store = folder.store()
        try writeRaw(Data(Self.oldFormatFile.utf8), to: store.path)

        let item = try #require(try store.read(server: Samples.server, account: "ann@example.com"))
        #expect(item.accessTokenExpiresAt == Self.expiry)
        #expect(item.accessTokenLifetime == nil)
        #expect(item.accessTokenIssuedAt == nil)
        #expect(item.displayName == "Ann")

        // Saving another account leaves this one as it was, still without the field.
        try await store.save(Samples.item(account: "bob@example.com"))
        #expect(try store.read(server: Samples.server, account: "ann@example.com") == item)
        let text = try String(contentsOfFile: store.path, encoding: .utf8)
        #expect(text.components(separatedBy: "accessTokenLifetime").count == 1)

        // A refresh replaces it with an item that has the field.
        let refreshed = TokenItem(
            server: Samples.server, account: "ann@example.com", accessToken: "new", accessTokenExpiresAt: Self.expiry,
            refreshToken: "new-refresh", refreshTokenExpiresAt: Self.expiry.addingTimeInterval(86_400),
            accessTokenIssuedAt: Self.expiry.addingTimeInterval(-30))
        try await store.save(refreshed)
        #expect(try store.read(server: Samples.server, account: "ann@example.com")?.accessTokenLifetime == 30)
    }

    @Test("The lifetime is measured to the stored (whole-second) expiry, kept to milliseconds, and reads back exactly")
    func roundTrip() async throws {
        let folder = try TemporaryFolder("tokenstore")
        defer { folder.remove() }
        let store = folder.store()
        // Received at …:28.2664; the server said …:30.9, stored as …:30.
        let item = TokenItem(
            server: Samples.server, account: "ann@example.com", accessToken: "a",
            accessTokenExpiresAt: Self.expiry.addingTimeInterval(0.9), refreshToken: "r",
            refreshTokenExpiresAt: Self.expiry.addingTimeInterval(86_400),
            accessTokenIssuedAt: Self.expiry.addingTimeInterval(-1.7336))
        #expect(item.accessTokenLifetime == 1.734)
        #expect(item.accessTokenIssuedAt.map { abs($0.timeIntervalSince(Self.expiry) + 1.734) < 1e-6 } == true)

        try await store.save(item)
        #expect(try store.read(server: Samples.server, account: "ann@example.com") == item)
        let text = try String(contentsOfFile: store.path, encoding: .utf8)
        #expect(text.contains("\"accessTokenLifetime\" : 1.734"))

        // Every millisecond value reads back equal, whatever binary fraction it makes.
        for milliseconds in stride(from: 1, through: 4_000, by: 7) {
            let lifetime = Double(milliseconds) / 1000
            let sample = TokenItem(
                server: Samples.server, account: "ann@example.com", accessToken: "a", accessTokenExpiresAt: Self.expiry,
                refreshToken: "r", refreshTokenExpiresAt: Self.expiry,
                accessTokenIssuedAt: Self.expiry.addingTimeInterval(-lifetime))
            let data = try TokenFileFormat.encode(StoredCredentials(tokens: [sample]))
            #expect(try TokenFileFormat.decode(data).tokens == [sample], "lifetime \(lifetime)")
        }
    }

    @Test("A token that arrived already expired by this computer's clock keeps a negative lifetime")
    func arrivedExpired() async throws {
        let folder = try TemporaryFolder("tokenstore")
        defer { folder.remove() }
        let store = folder.store()
        let item = TokenItem(
            server: Samples.server, account: "ann@example.com", accessToken: "a", accessTokenExpiresAt: Self.expiry,
            refreshToken: "r", refreshTokenExpiresAt: Self.expiry.addingTimeInterval(86_400),
            accessTokenIssuedAt: Self.expiry.addingTimeInterval(4.5))
        #expect(item.accessTokenLifetime == -4.5)
        try await store.save(item)
        let read = try #require(try store.read(server: Samples.server, account: "ann@example.com"))
        #expect(read.accessTokenLifetime == -4.5)
        #expect(read.accessTokenIssuedAt == Self.expiry.addingTimeInterval(4.5))
    }

    @Test("The lifetime shows in the description; the tokens still do not")
    func description() {
        let item = TokenItem(
            server: Samples.server, account: "ann@example.com", accessToken: Samples.canary,
            accessTokenExpiresAt: Self.expiry, refreshToken: Samples.canary, refreshTokenExpiresAt: Self.expiry,
            accessTokenIssuedAt: Self.expiry.addingTimeInterval(-2))
        #expect(item.description.contains("accessTokenLifetime: 2.0 s"))
        #expect(!item.description.contains(Samples.canary))
    }
}
