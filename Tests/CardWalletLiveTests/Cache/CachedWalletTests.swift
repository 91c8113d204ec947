import CardAPI
import CardCache
import CardMockServer
import CardModels
import CardWalletLive
import Foundation
import Logging
import TestSupport
import Testing

/// The wallet through the cache against the real mock server: served from the server and
/// recorded, then from the cache once the server is gone; the outbox sent exactly once.
@Suite(.serialized)
struct CachedWalletTests {
    private static let logger = Logger(label: "test.cache")

    /// A logged-in client of `harness`'s server and its wallet with a cache in the harness's folder.
    private func wallet(_ harness: GlueHarness) async throws -> CachedWallet {
        let performer = harness.performer()
        try await harness.logIn(performer)
        let wallet = await CachedWallet.open(
            backend: performer.accounts.backend, location: CacheLocation(folder: harness.folder.path("cache")),
            logger: Self.logger)
        try #require(wallet.cache != nil)
        return wallet
    }

    @Test func onlineAnswersAreCachedAndServedWhenTheServerIsGone() async throws {
        try await GlueHarness.with { harness in
            let wallet = try await wallet(harness)
            #expect(wallet.cachedList() == nil, "nothing before the first answer")

            let online = try await wallet.list(.online)
            #expect(online.offlineAsOf == nil)
            #expect(online.value.count == 12)
            #expect(wallet.cachedList()?.cards == online.value)
            #expect(try await wallet.card(id: "demo-02", .online).value.fields.name == "김민준")

            // Online search reads the whole cards first, so every field is searched: a word of a bio.
            let found = try await wallet.search("파이프라인", .online)
            #expect(found.offlineAsOf == nil)
            #expect(found.value.map { "\($0.0.id):\($0.1.rawValue)" } == ["demo-02:bio"])
            let reads = harness.server.statistics.count("GET /card/{cardId}")
            _ = try await wallet.search("zzz", .online)
            #expect(
                harness.server.statistics.count("GET /card/{cardId}") == reads, "unchanged cards are not read again")

            // The server goes away: the same answers come from the cache, dated.
            await harness.server.stop()
            let offline = try await wallet.list(.online)
            #expect(offline.value == online.value)
            #expect(offline.offlineAsOf != nil)
            #expect(try await wallet.card(id: "demo-02", .online).offlineAsOf != nil)
            #expect(try await wallet.search("파이프", .offline).value.map(\.0.id) == ["demo-02"])
            await #expect(throws: OfflineReadError.self) { try await wallet.card(id: "nope", .offline) }
        }
    }

    @Test func offlineChangesReachTheServerExactlyOnceInOrder() async throws {
        try await GlueHarness.with { harness in
            let wallet = try await wallet(harness)
            let cache = try #require(wallet.cache)
            _ = try await wallet.list(.online)
            let ada = try await wallet.card(id: "demo-01", .online).value
            let minjun = try await wallet.card(id: "demo-02", .online).value
            var edited = ada.fields
            edited.title = "Countess of Lovelace"
            let new = CardFields(name: "Offline Person", company: "Outbox Ltd")
            try cache.enqueue(.add(localID: "local:1", fields: new, image: nil))
            try cache.enqueue(.edit(cardID: ada.id, fields: edited, baseRevision: ada.revision))
            try cache.enqueue(.delete(cardID: minjun.id, baseRevision: minjun.revision))
            try cache.enqueue(.reorder(["local:1", "demo-03"]))
            // An edit made on a version the server no longer has: a conflict, never an overwrite.
            try cache.enqueue(.edit(cardID: ada.id, fields: CardFields(name: "Stale"), baseRevision: ada.revision))

            let report = await wallet.replayOutbox()
            #expect(report.sent == 4)
            #expect(report.refused.count == 1)
            #expect(!report.stoppedOffline)
            let list = try await harness.performer().client.allCards()
            let added = list.filter { $0.name == "Offline Person" }
            #expect(added.count == 1)
            #expect(list.first?.id == added.first?.id, "the reorder used the server's id")
            #expect(!list.contains { $0.id == "demo-02" })
            let server = try await wallet.client.card(id: "demo-01")
            #expect(server.fields.title == "Countess of Lovelace")
            #expect(server.revision.number == (ada.revision.number ?? 0) + 1)
            #expect(try cache.outbox().map(\.state) == [.failed])

            // Sending again sends nothing.
            let posts = harness.server.statistics.count("POST /card")
            #expect(await wallet.replayOutbox().sent == 0)
            #expect(harness.server.statistics.count("POST /card") == posts)
        }
    }

    @Test func anAdditionInterruptedAfterTheServerGotItIsNotSentTwice() async throws {
        try await GlueHarness.with { harness in
            let wallet = try await wallet(harness)
            let cache = try #require(wallet.cache)
            _ = try await wallet.list(.online)
            let fields = CardFields(name: "Half Sent", email: "half@example.com")
            try cache.enqueue(.add(localID: "local:7", fields: fields, image: nil))
            // Claimed by a process that ended while sending: its lease ran out.
            _ = try cache.claimNext(by: OutboxClaimant(processID: 999_999), lease: .zero)
            _ = try await wallet.client.createCard(fields)  // the server got it
            let posts = harness.server.statistics.count("POST /card")
            #expect(await wallet.replayOutbox().sent == 1)
            #expect(harness.server.statistics.count("POST /card") == posts)
            #expect(try await wallet.client.allCards().filter { $0.name == "Half Sent" }.count == 1)
        }
    }

    @Test func changesWaitWhileTheServerIsAway() async throws {
        try await GlueHarness.with { harness in
            let wallet = try await wallet(harness)
            let cache = try #require(wallet.cache)
            _ = try await wallet.list(.online)
            try cache.enqueue(.delete(cardID: "demo-05", baseRevision: CardRevision(1)))
            try cache.enqueue(.delete(cardID: "demo-06", baseRevision: CardRevision(1)))
            await harness.server.stop()
            let report = await wallet.replayOutbox()
            #expect(report.stoppedOffline)
            #expect(report.sent == 0)
            #expect(report.pending == 2)
            #expect(try cache.pendingChanges().map(\.state) == [.pending, .pending])
            #expect(try cache.pendingChanges().first?.attempts == 1)
        }
    }
}
