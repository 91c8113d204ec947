import CardBackend
import CardCache
import CardDAV
import CardModels
import CardWalletLive
import Foundation
import Logging
import Networking
import Synchronization
import TestSupport
import Testing
import TokenStore

/// A first sync hands the cards over batch by batch (never the whole book in memory at once),
/// and the cache keeps each batch whole and searchable as it comes.
@Suite(.serialized) struct StreamedSyncTests {
    private static let logger = Logger(label: "test.carddav-streamed")

    private static func vcard(_ index: Int) -> String {
        "BEGIN:VCARD\r\nVERSION:3.0\r\nUID:s\(index)\r\nFN:Person \(index)\r\nN:Person;\(index);;;\r\n"
            + "TEL;TYPE=cell:+44 20 7946 09\(index)\(index)\r\nREV:2026-11-2\(index)T08:30:00Z\r\nEND:VCARD\r\n"
    }

    private static func group(_ key: String, name: String, members: [String]) -> String {
        "BEGIN:VCARD\r\nVERSION:3.0\r\nUID:g-\(key)\r\nFN:\(name)\r\nN:\(name);;;;\r\n"
            + "X-ADDRESSBOOKSERVER-KIND:group\r\n"
            + members.map { "X-ADDRESSBOOKSERVER-MEMBER:\($0.hasPrefix("urn:") ? $0 : "urn:uuid:" + $0)\r\n" }.joined()
            + "END:VCARD\r\n"
    }

    @Test(
        "a listing hands its cards and groups over in multiget batches; the cache keeps each whole; cards show their groups",
        arguments: DAVServerProcess.Kind.allCases)
    func batches(kind: DAVServerProcess.Kind) async throws {
        try await DAVServerProcess.with(kind) { server in
            try await LiveTransport.withTransport { transport in
                let folder = try TemporaryFolder("dav-streamed")
                defer { folder.remove() }
                let raw = server.client(transport: transport)
                let book = try #require(try await raw.discover().books.first)
                for index in 1...7 { _ = try await raw.create(Self.vcard(index), key: "s\(index)", in: book) }
                _ = try await raw.create(
                    Self.group("team", name: "Team", members: ["s2", "S5"]), key: "team", in: book)
                let backend = CardDAVBackend(
                    setup: CardDAVBackend.Setup(server: server.root, multigetBatchSize: 3),
                    tokenStore: TokenStore(path: folder.path("state/tokens.json")), transport: transport)
                _ = try await backend.logIn(account: server.user, password: server.password)

                // Handed over: batches of 3, 3 and 2 resources (7 cards and a group); the answer
                // lists every card's summary, and holds no card.
                var batches: [[Card]] = []
                var groups: [CardGroup] = []
                let streamed = try await backend.listing(.whole(since: nil)) { batch in
                    batches.append(batch.cards)
                    groups += batch.groups
                }
                #expect(batches.map(\.count).reduce(0, +) == 7)
                #expect(batches.count == 3)
                #expect(groups.map(\.name) == ["Team"])
                #expect(groups.first?.memberUIDs == ["s2", "S5"])
                guard case .whole(let summaries, let cards, let token) = streamed else {
                    Issue.record("a first listing is whole: \(streamed)")
                    return
                }
                #expect(cards.isEmpty)
                #expect(summaries.map(\.id) == batches.flatMap { $0.map(\.id) })
                #expect(token != nil)
                // REV is the card's date.
                let first = try #require(batches.flatMap { $0 }.first { $0.id == "s1.vcf" })
                #expect(first.updatedAt == Date(timeIntervalSince1970: 1_795_249_800))

                // Without a receiver the answer holds them all.
                guard case .whole(_, let held, _) = try await backend.listing(.whole(since: nil)) else {
                    Issue.record("a first listing is whole")
                    return
                }
                #expect(Set(held.map(\.id)) == Set(summaries.map(\.id)))

                // The app's first sync: every card whole in the cache and found by a field only
                // the whole card has (the phone), with the network gone.
                let wallet = await CachedWallet.open(
                    backend: backend, location: CacheLocation(folder: folder.path("cache")), logger: Self.logger)
                let cache = try #require(wallet.cache)
                // A command's progress line is told each batch's count, then that it is over.
                let told = Mutex<[Int]>([])
                let progress = ListingProgress(
                    update: { count in told.withLock { $0.append(count) } },
                    finish: { told.withLock { $0.append(-1) } })
                let listed = try await CachedWallet.$listingProgress.withValue(progress) {
                    try await wallet.list(.online).value
                }
                #expect(told.withLock { $0 }.count == 4)
                #expect(told.withLock { $0 }.suffix(2) == [7, -1])
                #expect(listed.count == 7)
                #expect(try cache.cards(ids: listed.map(\.id)).allSatisfy { $0?.isCurrent == true })
                #expect(try cache.syncToken() != nil)
                let found = try await wallet.search("7946 0944", .offline).value
                #expect(found.map(\.0.id) == ["s4.vcf"])

                // The group is no card, and its members show it (a member named in another case
                // too), online and offline.
                #expect(!listed.map(\.id).contains("team.vcf"))
                #expect(try await wallet.card(id: "s2.vcf", .online).value.groups == ["Team"])
                #expect(try await wallet.card(id: "s5.vcf", .offline).value.groups == ["Team"])
                #expect(try await wallet.card(id: "s3.vcf", .offline).value.groups == [])

                // Renamed, a second group, then the first one gone: each sync by token follows.
                let team = try await raw.get(book.href + "team.vcf")
                _ = try await raw.update(
                    team.href, vcard: Self.group("team", name: "Core team", members: ["s2"]),
                    etag: try #require(team.etag))
                _ = try await raw.create(
                    Self.group("alumni", name: "Alumni", members: ["urn:uuid:s2"]), key: "alumni", in: book)
                _ = try await wallet.list(.online)
                #expect(try await wallet.card(id: "s2.vcf", .offline).value.groups == ["Alumni", "Core team"])
                #expect(try await wallet.card(id: "s5.vcf", .offline).value.groups == [])
                try await raw.delete(book.href + "team.vcf", etag: nil)
                _ = try await wallet.list(.online)
                #expect(try await wallet.card(id: "s2.vcf", .offline).value.groups == ["Alumni"])
                #expect(try cache.groups().map(\.name) == ["Alumni"])
            }
        }
    }
}
