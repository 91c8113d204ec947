import CardBackend
import CardCache
import CardDAV
import CardModels
import CardVCard
import CardWalletLive
import Foundation
import Logging
import Networking
import TestSupport
import Testing
import TokenStore

/// The wallet on real CardDAV servers through the backend seam: login by discovery with the
/// password kept in the token file, the cache synced by token, lossless edits guarded by ETags,
/// conflicts, group vCards left alone, a refused token falling back to a listing of ETags.
@Suite(.serialized) struct BackendRealServerTests {
    private static let logger = Logger(label: "test.carddav-backend")

    /// A logged-in backend of `server` and its wallet with a cache in `folder`.
    private static func wallet(
        _ server: DAVServerProcess, _ transport: any Transport, _ folder: TemporaryFolder, plugins: [any Plugin] = []
    ) async throws -> (CardDAVBackend, CachedWallet) {
        let store = TokenStore(path: folder.path("state/tokens.json"))
        let backend = CardDAVBackend(
            setup: CardDAVBackend.Setup(server: server.root), tokenStore: store, transport: transport, plugins: plugins)
        _ = try await backend.logIn(account: server.user, password: server.password)
        let wallet = await CachedWallet.open(
            backend: backend, location: CacheLocation(folder: folder.path("cache")), logger: logger)
        try #require(wallet.cache != nil)
        return (backend, wallet)
    }

    @Test(
        "login hands the password back for the account's secret store and keeps it nowhere, not in the cache",
        arguments: DAVServerProcess.Kind.allCases)
    func login(kind: DAVServerProcess.Kind) async throws {
        try await DAVServerProcess.with(kind) { server in
            try await LiveTransport.withTransport { transport in
                let folder = try TemporaryFolder("dav-backend")
                defer { folder.remove() }
                let store = TokenStore(path: folder.path("state/tokens.json"))
                let probe = CardDAVBackend(
                    setup: CardDAVBackend.Setup(server: server.root), tokenStore: store, transport: transport)
                let outcome = try await probe.logIn(.password(user: server.user, password: server.password))
                #expect(outcome.keepsPassword, "the server needs it on every request")
                #expect(outcome.book?.path == server.bookPath)
                #expect(outcome.account.email == server.user)
                #expect(!FileManager.default.fileExists(atPath: store.path), "the backend itself stores nothing")
                let (backend, wallet) = try await Self.wallet(server, transport, folder)
                #expect(backend.server.hasSuffix("#book=" + (server.bookPath.split(separator: "/").last ?? "")))
                guard case .loggedIn(let account) = await backend.status().state else {
                    Issue.record("not logged in")
                    return
                }
                #expect(account.email == server.user)
                _ = try await wallet.create(CardFields(name: "Ada Lovelace"))
                let cacheBytes = try Data(contentsOf: URL(fileURLWithPath: try #require(wallet.cache).path))
                #expect(cacheBytes.range(of: Data(server.password.utf8)) == nil, "no password in the cache")

                // A wrong password is a failed login; nothing is stored.
                let other = try TemporaryFolder("dav-backend-wrong")
                defer { other.remove() }
                let wrong = CardDAVBackend(
                    setup: CardDAVBackend.Setup(server: server.root),
                    tokenStore: TokenStore(path: other.path("state/tokens.json")), transport: transport)
                await #expect { _ = try await wrong.logIn(account: server.user, password: "nope") } throws: {
                    BackendFailures.kind(of: $0) == .loginFailed
                }
                #expect(try TokenStore(path: other.path("state/tokens.json")).passwords().isEmpty)
            }
        }
    }

    @Test("the cache syncs by token: nothing changed costs one request", arguments: DAVServerProcess.Kind.allCases)
    func syncByToken(kind: DAVServerProcess.Kind) async throws {
        try await DAVServerProcess.with(kind) { server in
            try await LiveTransport.withTransport { transport in
                let folder = try TemporaryFolder("dav-backend")
                defer { folder.remove() }
                let counter = SendCounter()
                let (_, wallet) = try await Self.wallet(server, transport, folder, plugins: [counter])
                let raw = server.client(transport: transport)
                let book = try #require(try await raw.discover().books.first)
                for index in 1...4 {
                    _ = try await raw.create(
                        RealServerTests.vcard("p\(index)", name: "Person \(index)"), key: "p\(index)", in: book)
                }
                let first = try await wallet.list(.online).value
                #expect(first.map(\.name).sorted() == ["Person 1", "Person 2", "Person 3", "Person 4"])
                #expect(try #require(wallet.cache).syncToken() != nil)

                // Nothing changed: one request.
                let before = counter.sent
                let again = try await wallet.list(.online).value
                #expect(Set(again.map(\.id)) == Set(first.map(\.id)))
                #expect(counter.sent - before == 1, "one sync-collection REPORT")

                // One changed card and one gone: at most two requests, both applied.
                let changed = try await raw.get(book.href + "p2.vcf")
                _ = try await raw.update(
                    changed.href, vcard: RealServerTests.vcard("p2", name: "Person Two"),
                    etag: try #require(changed.etag))
                try await raw.delete(book.href + "p4.vcf", etag: nil)
                let mark = counter.sent
                let third = try await wallet.list(.online).value
                #expect(counter.sent - mark <= 2)
                #expect(third.map(\.name).sorted() == ["Person 1", "Person 3", "Person Two"])

                // A token the server refuses: a listing of ETags, and only what differs is read.
                try #require(wallet.cache).storeSyncToken("sync:http://radicale.org/ns/sync/not-a-token")
                _ = try await raw.update(
                    book.href + "p1.vcf", vcard: RealServerTests.vcard("p1", name: "Person One"),
                    etag: try #require(try await raw.get(book.href + "p1.vcf").etag))
                let fourth = try await wallet.list(.online).value
                #expect(fourth.map(\.name).sorted() == ["Person 3", "Person One", "Person Two"])
                #expect(fourth.count == 3, "never a duplicate")
            }
        }
    }

    @Test("edits are lossless and guarded by ETags; groups are not cards", arguments: DAVServerProcess.Kind.allCases)
    func losslessEdits(kind: DAVServerProcess.Kind) async throws {
        try await DAVServerProcess.with(kind) { server in
            try await LiveTransport.withTransport { transport in
                let folder = try TemporaryFolder("dav-backend")
                defer { folder.remove() }
                let (backend, wallet) = try await Self.wallet(server, transport, folder)
                let raw = server.client(transport: transport)
                let book = try #require(try await raw.discover().books.first)
                let rich = """
                    BEGIN:VCARD\r
                    VERSION:3.0\r
                    UID:rich-1\r
                    FN:Grace Hopper\r
                    N:Hopper;Grace;;;\r
                    EMAIL;TYPE=work:grace@navy.example\r
                    EMAIL;TYPE=home:grace@home.example\r
                    TEL;TYPE=cell:+1 555 0100\r
                    item1.X-ABLABEL:favourite\r
                    item1.URL:https://grace.example\r
                    X-CUSTOM;X-PARAM=kept:value kept\r
                    NOTE:A long note that the edit must not touch.\r
                    END:VCARD\r

                    """
                _ = try await raw.create(rich, key: "rich-1", in: book)
                let group = """
                    BEGIN:VCARD\r
                    VERSION:3.0\r
                    UID:group-1\r
                    FN:Navy\r
                    X-ADDRESSBOOKSERVER-KIND:group\r
                    X-ADDRESSBOOKSERVER-MEMBER:urn:uuid:rich-1\r
                    END:VCARD\r

                    """
                _ = try await raw.create(group, key: "group-1", in: book)

                let listed = try await wallet.list(.online).value
                #expect(listed.map(\.name) == ["Grace Hopper"], "the group is not a card")
                let card = try await wallet.card(id: "rich-1.vcf", .online).value
                #expect(card.fields.email == "grace@navy.example")
                // Written without REV: its dates are when the server says it changed, not 1970.
                #expect(abs(card.updatedAt.timeIntervalSinceNow) < 600, "\(card.updatedAt)")

                var fields = card.fields
                fields.title = "Rear Admiral"
                let saved = try await wallet.update(id: card.id, fields: fields, revision: card.revision).value
                #expect(saved.revision != card.revision)
                let stored = try await raw.get(book.href + "rich-1.vcf").vcard
                for kept in [
                    "grace@home.example", "X-CUSTOM", "value kept", "favourite",
                    "A long note that the edit must not touch",
                ] {
                    #expect(stored.contains(kept), "\(kept) kept: \(stored)")
                }
                #expect(stored.uppercased().contains("TITLE:REAR ADMIRAL"))

                // The old revision is stale: a conflict, nothing written.
                await #expect {
                    _ = try await wallet.update(id: card.id, fields: CardFields(name: "Lost"), revision: card.revision)
                } throws: { BackendFailures.kind(of: $0) == .conflict }
                #expect(try await raw.get(book.href + "group-1.vcf").vcard.contains("X-ADDRESSBOOKSERVER-MEMBER"))

                // A new card gets a UUID UID and a name from it; delete guarded by its ETag.
                let made = try await wallet.create(CardFields(name: "Katherine Johnson", email: "kj@nasa.example"))
                    .value
                #expect(made.id.hasSuffix(".vcf"))
                let uid = String(made.id.dropLast(4))
                #expect(UUID(uuidString: uid) != nil, "\(made.id)")
                #expect(made.source?.contains("UID:\(uid)") == true)
                _ = try await wallet.delete(id: made.id, revision: made.revision)
                await #expect { _ = try await raw.get(book.href + made.id) } throws: { BackendFailures.isNotFound($0) }
                // The card gone, as the card it was: not as the address it was asked at.
                for attempt in ["read", "delete"] {
                    let error = await #expect(throws: (any Error).self) {
                        if attempt == "read" {
                            _ = try await backend.card(id: made.id)
                        } else {
                            try await backend.delete(id: made.id, revision: nil)
                        }
                    }
                    #expect(error.map(BackendFailures.isNotFound) == true, "\(attempt)")
                    #expect(
                        "\(error.map { String(describing: $0) } ?? "")".hasPrefix(
                            "There is no card “\(made.id)” in the address book"),
                        "\(attempt): \(String(describing: error))")
                }
            }
        }
    }
}
