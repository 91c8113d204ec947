import CardDAV
import Foundation
import Networking
import Testing

/// The client against real servers we did not write, Radicale and Xandikos, each started by
/// `scripts/carddav-server.py` on a free loopback port with its own data folder.
@Suite(.serialized) struct RealServerTests {
    static func vcard(_ uid: String, name: String) -> String {
        "BEGIN:VCARD\r\nVERSION:3.0\r\nUID:\(uid)\r\nFN:\(name)\r\nN:\(name);;;;\r\n"
            + "X-CARDWALLET-TEST;TYPE=a,b:kept & <escaped>\r\nEND:VCARD\r\n"
    }

    @Test(
        "discovery from the root, the principal, the book and the well-known URL",
        arguments: DAVServerProcess.Kind.allCases)
    func discovery(kind: DAVServerProcess.Kind) async throws {
        try await DAVServerProcess.with(kind) { server in
            try await LiveTransport.withTransport { transport in
                let fromRoot = try await server.client(transport: transport).discover()
                #expect(fromRoot.books.map(\.href) == [server.bookPath])
                #expect(fromRoot.principal?.path(percentEncoded: true) == server.principalPath)
                let book = try #require(fromRoot.books.first)
                // Told by supported-report-set: discovery never asks for a book's sync-token
                // or getctag (the server works them out from every card of the book).
                #expect(book.supportsSyncCollection)
                #expect(book.syncToken == nil && book.ctag == nil)
                #expect(book.url == server.url(server.bookPath))
                #expect(fromRoot.selected == nil)

                let fromPrincipal = try await server.client(
                    server: server.url(server.principalPath), transport: transport
                )
                .discover()
                #expect(fromPrincipal.books.map(\.href) == [server.bookPath])

                let fromBook = try await server.client(server: server.url(server.bookPath), transport: transport)
                    .discover()
                #expect(fromBook.selected?.href == server.bookPath)
                #expect(fromBook.books.map(\.href) == [server.bookPath])

                let fromWellKnown = try await server.client(
                    server: server.url("/.well-known/carddav"), transport: transport
                ).discover()
                #expect(fromWellKnown.books.map(\.href) == [server.bookPath])

                #expect(try await server.client(transport: transport).isCardDAVServer())
            }
        }
    }

    @Test(
        "writes guarded by ETags: create, update, delete, and 412 conflicts", arguments: DAVServerProcess.Kind.allCases)
    func writes(kind: DAVServerProcess.Kind) async throws {
        try await DAVServerProcess.with(kind) { server in
            try await LiveTransport.withTransport { transport in
                let client = server.client(transport: transport)
                let book = try #require(try await client.discover().books.first)
                let created = try await client.create(Self.vcard("uid-1", name: "Ada Lovelace"), key: "uid-1", in: book)
                #expect(created.href == server.bookPath + "uid-1.vcf")
                let firstETag = try #require(created.etag)

                // The name is taken: If-None-Match: * refuses to overwrite.
                let taken = try await #require(throws: CardDAVError.self) {
                    _ = try await client.create(Self.vcard("uid-1", name: "Someone Else"), key: "uid-1", in: book)
                }
                #expect(taken.isConflict)

                let read = try await client.get(created.href)
                #expect(read.etag == firstETag)
                #expect(read.vcard.contains("FN:Ada Lovelace"))
                #expect(read.vcard.contains("kept & <escaped>"))

                let updated = try await client.update(
                    created.href, vcard: Self.vcard("uid-1", name: "Ada King"), etag: firstETag, readBack: true)
                let secondETag = try #require(updated.etag)
                #expect(secondETag != firstETag)
                #expect(updated.vcard?.contains("FN:Ada King") == true)

                // The first ETag is stale now: an edit and a delete made with it are refused.
                let stale = try await #require(throws: CardDAVError.self) {
                    _ = try await client.update(created.href, vcard: Self.vcard("uid-1", name: "Lost"), etag: firstETag)
                }
                #expect(stale.isConflict)
                let staleDelete = try await #require(throws: CardDAVError.self) {
                    try await client.delete(created.href, etag: firstETag)
                }
                #expect(staleDelete.isConflict)
                #expect(try await client.get(created.href).vcard.contains("FN:Ada King"))

                try await client.delete(created.href, etag: secondETag)
                let gone = try await #require(throws: CardDAVError.self) { _ = try await client.get(created.href) }
                #expect(gone.isNotFound)
                let goneAgain = try await #require(throws: CardDAVError.self) {
                    try await client.delete(created.href, etag: nil)
                }
                #expect(goneAgain.isNotFound)
            }
        }
    }

    @Test("sync by token, multiget in batches, a refused token falls back", arguments: DAVServerProcess.Kind.allCases)
    func sync(kind: DAVServerProcess.Kind) async throws {
        try await DAVServerProcess.with(kind) { server in
            try await LiveTransport.withTransport { transport in
                let counter = SendCounter()
                let client = server.client(transport: transport, plugins: [counter], batchSize: 2)
                let book = try #require(try await client.discover().books.first)

                let first = try await client.sync(book, since: nil)
                #expect(first.kind == .fullListing)
                #expect(first.changed.isEmpty)
                let firstToken = try #require(first.token)
                #expect(firstToken.serverToken != nil)

                var stored: [String: StoredCard] = [:]
                for index in 1...5 {
                    let card = try await client.create(
                        Self.vcard("u\(index)", name: "Person \(index)"), key: "u\(index)", in: book)
                    stored[card.href] = card
                }
                let second = try await client.sync(book, since: firstToken)
                #expect(second.kind == .changes)
                #expect(second.fallback == nil)
                #expect(Set(second.changed.map(\.href)) == Set(stored.keys))
                for member in second.changed { #expect(member.etag == stored[member.href]?.etag) }

                // Five cards in batches of two: three multigets, one of them asking for a card that is not there.
                let before = counter.sent
                var batches = 0
                var found: [DAVResource] = []
                var missing: [String] = []
                try await client.multiget(second.changed.map(\.href) + [server.bookPath + "nobody.vcf"], in: book) {
                    batches += 1
                    found += $0.found
                    missing += $0.missing
                }
                #expect(batches == 3)
                #expect(counter.sent - before == 3)
                #expect(found.count == 5)
                #expect(missing == [server.bookPath + "nobody.vcf"])
                #expect(found.allSatisfy { $0.vcard.contains("BEGIN:VCARD") && $0.etag == stored[$0.href]?.etag })

                // One change and one removal since the second token.
                let changedHref = server.bookPath + "u2.vcf"
                let removedHref = server.bookPath + "u3.vcf"
                let edit = try await client.update(
                    changedHref, vcard: Self.vcard("u2", name: "Person Two"),
                    etag: try #require(stored[changedHref]?.etag))
                try await client.delete(removedHref, etag: stored[removedHref]?.etag)
                let secondToken: CardDAVSyncToken = try #require(second.token)
                let third = try await client.sync(book, since: secondToken)
                #expect(third.kind == .changes)
                #expect(third.changed == [ResourceVersion(href: changedHref, etag: edit.etag)])
                #expect(third.removed == [removedHref])

                // Nothing changed: one request.
                let thirdToken: CardDAVSyncToken = try #require(third.token)
                let quiet = try await client.sync(book, since: thirdToken)
                #expect(quiet.changed.isEmpty && quiet.removed.isEmpty && quiet.requests == 1)

                // A token the server never gave: refused, and the whole listing read instead.
                let refused = try await client.sync(book, since: .sync("http://radicale.org/ns/sync/unknown"))
                #expect(refused.kind == .fullListing)
                #expect(refused.fallback == .tokenRefused)
                #expect(refused.changed.count == 4)
                #expect(refused.token?.serverToken != nil)
                let known = Dictionary(uniqueKeysWithValues: stored.map { ($0.key, $0.value.etag ?? "") })
                let plan = refused.plan(known: known)
                #expect(plan.fetch == [changedHref])
                #expect(plan.remove == [removedHref])

                // The book's ctag, for servers without sync tokens: unchanged costs one request.
                let listing = try await client.listETags(book)
                #expect(listing.members.count == 4)
                let ctag = try #require(listing.ctag)
                let byTag = try await client.sync(book, since: .ctag(ctag))
                #expect(byTag.kind == .changes && byTag.changed.isEmpty && byTag.requests == 1)
            }
        }
    }

    /// Radicale re-serialises what it is sent (and still answers with an ETag); Xandikos keeps
    /// the bytes. docs/CardDAV.md, "Servers met".
    @Test("what the server stores of a card it was sent", arguments: DAVServerProcess.Kind.allCases)
    func storedAsSent(kind: DAVServerProcess.Kind) async throws {
        let sent =
            "BEGIN:VCARD\r\nVERSION:3.0\r\nUID:kept-1\r\nFN:Ada Lovelace\r\nn:Lovelace;Ada;;;\r\n"
            + "item1.EMAIL;type=INTERNET;type=pref:ada@example.com\r\nitem1.X-ABLabel:work\r\nEND:VCARD\r\n"
        try await DAVServerProcess.with(kind) { server in
            try await LiveTransport.withTransport { transport in
                let client = server.client(transport: transport)
                let book = try #require(try await client.discover().books.first)
                let stored = try await client.create(sent, key: "kept-1", in: book, readBack: true)
                let text = try #require(stored.vcard)
                #expect(stored.etag == (try await client.get(stored.href)).etag)
                switch kind {
                case .xandikos:
                    #expect(text == sent)
                case .radicale:
                    #expect(text != sent)
                    #expect(text.contains("X-ABLABEL:work"))
                    #expect(text.contains("TYPE=INTERNET,pref"))
                }
            }
        }
    }

    @Test("a wrong password is refused with 401 and never shown", arguments: DAVServerProcess.Kind.allCases)
    func wrongPassword(kind: DAVServerProcess.Kind) async throws {
        try await DAVServerProcess.with(kind) { server in
            try await LiveTransport.withTransport { transport in
                let log = LoggerPlugin()
                let client = server.client(password: "not-the-password-42", transport: transport, plugins: [log])
                let error = try await #require(throws: CardDAVError.self) { try await client.discover() }
                #expect(error.requiresLogin)
                #expect(!error.description.contains("not-the-password-42"))
                let headers = log.recent().compactMap { $0.headers["Authorization"] }
                #expect(!headers.isEmpty && headers.allSatisfy { $0 == "<private>" })
            }
        }
    }
}
