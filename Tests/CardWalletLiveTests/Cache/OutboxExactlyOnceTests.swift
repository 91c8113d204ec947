import CardAPI
import CardCache
import CardMockServer
import CardModels
import CardWalletLive
import CardWalletUI
import Foundation
import LiveTestSupport
import Logging
import Networking
import TestSupport
import Testing

/// The outbox sent exactly once whatever runs at the same time (docs/Cache.md, *The claim and
/// the lease*): two replays at once, and creates whose answer was lost, against a slowed server.
@Suite struct OutboxExactlyOnceTests {
    private static let logger = Logger(label: "test.outbox")
    static let email = "demo@cardwallet.dev"
    static let password = "demo1234"

    /// A server whose every answer takes a while: time for replays to overlap.
    static var slowServer: MockServerConfiguration {
        var configuration = MockServerConfiguration.testing
        configuration.latency = .milliseconds(100)
        return configuration
    }

    /// A logged-in client of `live`'s server on `transport`, and a wallet with the cache in the
    /// test's folder (each call opens its own connection to the file, as another process does).
    static func wallet(_ live: LiveServer, transport: (any Transport)? = nil) async throws -> CachedWallet {
        let client = CardAPIClient(
            configuration: CardAPIConfiguration(server: live.server.baseURL), tokenStore: live.store,
            transport: transport ?? live.transport)
        if await client.status().account == nil {
            _ = try await client.login(email: email, password: password)
        }
        let wallet = await CachedWallet.open(
            backend: CardAPIBackend(client: client), location: CacheLocation(folder: live.folder.path("cache")),
            logger: logger)
        try #require(wallet.cache != nil)
        return wallet
    }

    @Test func twoReplaysAtOnceInOneProcessSendEachChangeOnce() async throws {
        try await LiveServer.with(Self.slowServer) { live in
            let first = try await Self.wallet(live)
            let second = try await Self.wallet(live)
            let cache = try #require(first.cache)
            let ada = try await first.card(id: "demo-01", .online).value
            for index in 1...6 {
                try cache.enqueue(
                    .add(localID: "local:\(index)", fields: CardFields(name: "Once \(index)"), image: nil))
            }
            var edited = ada.fields
            edited.title = "Edited once"
            try cache.enqueue(.edit(cardID: ada.id, fields: edited, baseRevision: ada.revision))
            try cache.enqueue(
                .edit(cardID: "local:6", fields: CardFields(name: "Once 6, renamed"), baseRevision: CardRevision(1)))
            try cache.enqueue(.delete(cardID: "demo-12", baseRevision: CardRevision(1)))

            async let one = first.replayOutbox()
            async let two = second.replayOutbox()
            let reports = await [one, two]
            #expect(reports.map(\.sent).reduce(0, +) == 9, "\(reports)")
            #expect(reports.allSatisfy { $0.refused.isEmpty && !$0.stoppedOffline }, "\(reports)")
            let statistics = live.server.statistics
            #expect(statistics.count("POST /card") == 6, "each addition reached the server once")
            #expect(statistics.count("PUT /card/{cardId}") == 2)
            #expect(statistics.count("DELETE /card/{cardId}") == 1)
            let names = try await first.client.allCards().map(\.name)
            for index in 1...5 { #expect(names.filter { $0 == "Once \(index)" }.count == 1, "Once \(index)") }
            #expect(names.filter { $0.hasPrefix("Once 6") } == ["Once 6, renamed"])
            #expect(try cache.outbox().isEmpty)
        }
    }

    @Test func anAdditionWhoseAnswerWasLostIsSentAgainWithItsKeyAndMakesOneCard() async throws {
        try await LiveServer.with { live in
            let lossy = AnswerDroppingTransport.droppingCreates(through: live.transport)
            let wallet = try await Self.wallet(live, transport: lossy)
            let cache = try #require(wallet.cache)
            let entry = try cache.enqueue(.add(localID: "local:1", fields: CardFields(name: "Lost Answer"), image: nil))

            let lost = await wallet.replayOutbox()
            #expect(lost.stoppedOffline && lost.sent == 0 && lossy.droppedAnswers == 1)
            // The server made the card; the outbox does not know, and keeps the entry with its key.
            #expect(try cache.outbox().map(\.state) == [.pending])
            #expect(try cache.outbox().first?.idempotencyKey == entry.idempotencyKey)

            #expect(await wallet.replayOutbox().sent == 1)
            #expect(live.server.statistics.count("POST /card", status: 201) == 2, "sent twice")
            #expect(try await wallet.client.allCards().filter { $0.name == "Lost Answer" }.count == 1, "one card")
            #expect(try cache.outbox().isEmpty)
        }
    }

    /// The interface's create whose answer is lost is queued with the key it was sent with, so
    /// the outbox's attempt gets the card the first one made.
    @Test func aCreateQueuedAfterALostAnswerKeepsItsKey() async throws {
        try await LiveServer.with { live in
            let lossy = AnswerDroppingTransport.droppingCreates(through: live.transport)
            let performer = CallPerformer.testing(
                server: live.server.baseURL, tokenStore: live.store, transport: lossy,
                cache: CacheLocation(folder: live.folder.path("cache")), logger: Self.logger)
            _ = try await performer.perform(.logIn(server: live.url, email: Self.email, password: Self.password)).get()
            // A list cached first: an offline change is queued on it.
            _ = try await performer.perform(.loadCards(offset: 0, limit: 100, query: nil)).get()

            let added = await performer.perform(.createCard(CardFields(name: "Queued Lost"), imagePath: nil))
            guard case .success(.queued(.card(let shown))) = added else {
                Issue.record("not queued: \(added)")
                return
            }
            #expect(shown.id.hasPrefix(CardCache.localIDPrefix))
            let wallet = try #require(await performer.accounts.cachedWallet())
            #expect(try #require(wallet.cache).pendingChanges().first?.idempotencyKey != nil)
            #expect(lossy.droppedAnswers == 1)

            // The next list sends the outbox first: the server answers the first create again.
            let cards = try await performer.perform(.loadCards(offset: 0, limit: 100, query: nil)).get()
            guard case .cards(let page) = cards else {
                Issue.record("no list: \(cards)")
                return
            }
            #expect(page.cards.filter { $0.name == "Queued Lost" }.count == 1, "one card, not two")
            #expect(live.server.statistics.count("POST /card", status: 201) == 2)
            #expect(try #require(wallet.cache).outbox().isEmpty)
        }
    }
}
