import CardAPI
import CardBackend
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

/// The interface's performer on the cache against the real mock server: online, the server
/// stopped (offline from the cache), a server started again on the same port and data file
/// with the session still valid (back online, the outbox sent exactly once).
@Suite(.serialized)
struct TUICacheGlueTests {
    private static let logger = Logger(label: "test.tui-cache")

    @Test func onlineThenOfflineThenOnlineAgainWithTheOutboxSentOnce() async throws {
        let folder = try TemporaryFolder("tui-cache")
        defer { folder.remove() }
        var configuration = MockServerConfiguration.testing
        configuration.dataFile = folder.path("server.sqlite")
        // Held for the restart below: never free for another suite's server in between.
        configuration.port = try RefusingPort.reserveForRestarts()
        var server = try await MockServer.start(configuration: configuration)
        let transport = LiveTransport()
        let tokenStore = folder.tokenStore
        let backend: @Sendable (URL) -> any CardBackend = { url in
            CardAPIBackend(
                client: CardAPIClient(
                    configuration: CardAPIConfiguration(server: url), tokenStore: tokenStore, transport: transport))
        }
        let accounts = WalletAccounts(
            backend: backend(server.baseURL), cacheEnvironment: nil,
            cacheLocation: CacheLocation(folder: folder.path("cache")), logger: Self.logger, makeBackend: backend)
        let performer = CallPerformer(accounts: accounts)
        do {
            #expect(await performer.accounts.firstFrame() == nil, "nobody logged in: no cache")
            let login = await performer.perform(
                .logIn(server: server.baseURLString, email: GlueHarness.email, password: GlueHarness.password))
            try #require((try? login.get()) != nil)
            #expect(await performer.accounts.firstFrame() == nil, "nothing cached before the first list")

            // Online: the server's cards, recorded for the next start's first frame.
            let online = try await performer.perform(.loadCards(offset: 0, limit: 100, query: nil)).cards()
            #expect(online.count == 12)
            let first = try #require(await performer.accounts.firstFrame())
            guard case .cachedWallet(let cachedPage, _) = first else {
                Issue.record("not a cached wallet: \(first)")
                return
            }
            #expect(cachedPage.cards == online)
            guard case .success(.card(let card)) = await performer.perform(.loadCard(id: "demo-02")) else {
                Issue.record("the card did not load")
                return
            }

            // `/` through the cache: a word of the bio of a card read in full, with the field
            // and the line that matched, as the card writes it.
            #expect(
                await performer.perform(.searchCache(query: "파이프라인"))
                    == .success(
                        .cacheMatches(
                            query: "파이프라인", ids: ["demo-02"],
                            fields: [
                                "demo-02": FieldMatch(field: .bio, excerpt: "서버와 데이터 파이프라인을 만듭니다. Swift와 Go를 좋아해요.")
                            ]
                        )))

            // The server goes away: the list and the card come from the cache, dated.
            await server.stop()
            guard
                case .success(.cachedCards(let offline, _)) = await performer.perform(
                    .loadCards(offset: 0, limit: 100, query: nil))
            else {
                Issue.record("no offline answer")
                return
            }
            #expect(offline.cards == online)
            #expect(await performer.perform(.loadCard(id: "demo-02")) == .success(.card(card)))

            // A change made offline waits in the outbox; a try while still offline keeps it.
            let wallet = try #require(await performer.accounts.cachedWallet())
            let added = await performer.perform(.createCard(CardFields(name: "Offline Person"), imagePath: nil))
            guard case .success(.queued(.card(let local))) = added else {
                Issue.record("not queued: \(added)")
                return
            }
            #expect(local.id.hasPrefix(CardCache.localIDPrefix))
            var edited = card.fields
            edited.title = "Edited offline"
            guard
                case .success(.queued(.card)) = await performer.perform(
                    .updateCard(id: card.id, fields: edited, revision: card.revision))
            else {
                Issue.record("the edit was not queued")
                return
            }
            let withPicture = await performer.perform(
                .createCard(CardFields(name: "Pictured"), imagePath: "/nonexistent.png"))
            #expect((try? withPicture.get()) == nil, "a picture is not kept offline: refused, not dropped")
            #expect(try #require(wallet.cache).pendingChanges().count == 2)
            guard case .success(.cachedCards) = await performer.perform(.loadCards(offset: 0, limit: 100, query: nil))
            else {
                Issue.record("still offline expected")
                return
            }

            // The server is back on the same port and data: the session still holds, the change
            // is sent before the list is read, once.
            server = try await MockServer.start(configuration: configuration)
            let back = try await performer.perform(.loadCards(offset: 0, limit: 100, query: nil)).cards()
            #expect(back.count == 13)
            #expect(back.filter { $0.name == "Offline Person" }.count == 1)
            let again = try await performer.perform(.loadCards(offset: 0, limit: 100, query: nil)).cards()
            #expect(again.filter { $0.name == "Offline Person" }.count == 1)
            #expect(server.statistics.count("POST /card") == 1, "sent exactly once")
            #expect(server.statistics.count("PUT /card/{cardId}") == 1)
            #expect(try #require(wallet.cache).pendingChanges().isEmpty)
            guard case .success(.card(let after)) = await performer.perform(.loadCard(id: card.id)) else {
                Issue.record("the edited card did not load")
                return
            }
            #expect(after.fields.title == "Edited offline")
        } catch {
            Issue.record("\(error)")
        }
        try? await transport.shutdown()
        await server.stop()
    }

    /// The first frame, the list and a search ask for the cache at the same moment when the
    /// interface starts: they share one opening, and a new cache file is never judged damaged
    /// by a second opening that found it half made.
    @Test func callsArrivingTogetherShareOneOpeningOfANewCache() async throws {
        try await GlueHarness.with { harness in
            let (accounts, _) = try await harness.loggedInPerformerWithCache(logger: Self.logger)
            let opened = await withTaskGroup(of: Bool.self) { group in
                for _ in 0..<16 { group.addTask { await accounts.cachedWallet() != nil } }
                return await group.reduce(into: 0) { count, found in count += found ? 1 : 0 }
            }
            #expect(opened == 16)
            let names = (try? FileManager.default.contentsOfDirectory(atPath: harness.folder.path("cache"))) ?? []
            #expect(!names.contains { $0.contains("damaged") }, "\(names)")
            #expect(names.filter { $0.hasSuffix(".sqlite") }.count == 1)
        }
    }

    @Test func theServerEndingTheSessionWipesTheAccountsCache() async throws {
        try await GlueHarness.with { harness in
            let (_, performer) = try await harness.loggedInPerformerWithCache(logger: Self.logger)
            _ = try await performer.perform(.loadCards(offset: 0, limit: 100, query: nil)).cards()
            let databases = {
                (try? FileManager.default.contentsOfDirectory(atPath: harness.folder.path("cache")))?.filter {
                    $0.hasSuffix(".sqlite")
                } ?? []
            }
            #expect(databases().count == 1)
            #expect(await performer.accounts.firstFrame() != nil)

            try await harness.server.revokeRefreshTokens(email: GlueHarness.email)
            try await harness.server.expireAccessTokens(email: GlueHarness.email)
            let result = await performer.perform(.loadCards(offset: 0, limit: 100, query: nil))
            guard case .failure(let failure) = result, failure.kind == .mustLogIn else {
                Issue.record("not E06: \(result)")
                return
            }
            #expect(databases().isEmpty, "the account's cache is wiped on E06 (nothing waited in its outbox)")
        }
    }
}

extension CallOutcome {
    /// The cards of a `.cards` answer.
    func cards() throws -> [CardSummary] {
        guard case .success(.cards(let page)) = self else { throw CancellationError() }
        return page.cards
    }
}
