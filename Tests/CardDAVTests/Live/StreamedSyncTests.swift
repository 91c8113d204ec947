import CardBackend
import CardCache
import CardDAV
import CardModels
import CardWalletLive
import Foundation
import Logging
import Networking
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

    @Test(
        "a listing hands its cards over in multiget batches; the cache keeps each whole",
        arguments: DAVServerProcess.Kind.allCases)
    func batches(kind: DAVServerProcess.Kind) async throws {
        try await DAVServerProcess.with(kind) { server in
            try await LiveTransport.withTransport { transport in
                let folder = try TemporaryFolder("dav-streamed")
                defer { folder.remove() }
                let raw = server.client(transport: transport)
                let book = try #require(try await raw.discover().books.first)
                for index in 1...7 { _ = try await raw.create(Self.vcard(index), key: "s\(index)", in: book) }
                let backend = CardDAVBackend(
                    setup: CardDAVBackend.Setup(server: server.root, multigetBatchSize: 3),
                    tokenStore: TokenStore(path: folder.path("state/tokens.json")), transport: transport)
                _ = try await backend.logIn(account: server.user, password: server.password)

                // Handed over: batches of 3, 3 and 1; the answer lists every summary, no card.
                var batches: [[Card]] = []
                let streamed = try await backend.listing(.whole(since: nil)) { batches.append($0) }
                #expect(batches.map(\.count) == [3, 3, 1])
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
                let listed = try await wallet.list(.online).value
                #expect(listed.count == 7)
                #expect(try cache.cards(ids: listed.map(\.id)).allSatisfy { $0?.isCurrent == true })
                #expect(try cache.syncToken() != nil)
                let found = try await wallet.search("7946 0944", .offline).value
                #expect(found.map(\.0.id) == ["s4.vcf"])
            }
        }
    }
}
