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

/// A delete made in the interface while the server cannot be reached does what every other
/// change made there does (docs/Architecture.md, *One write path*): it waits in the outbox and
/// is sent once the server is back. It can be undone as online: the copy for `u` comes from the
/// cache, and the card comes back as an addition that waits too (a card with a picture only
/// while the server can be reached).
@Suite(.serialized)
struct OfflineDeleteGlueTests {
    private static let logger = Logger(label: "test.offline-delete")

    @Test func aDeleteMadeOfflineWaitsInTheOutboxAndItsUndoToo() async throws {
        let folder = try TemporaryFolder("offline-delete")
        defer { folder.remove() }
        var configuration = MockServerConfiguration.testing
        configuration.dataFile = folder.path("server.sqlite")
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
            let login = await performer.perform(
                .logIn(server: server.baseURLString, email: GlueHarness.email, password: GlueHarness.password))
            try #require((try? login.get()) != nil)
            let online = try await performer.perform(.loadCards(offset: 0, limit: 100, query: nil)).cards()
            guard case .success(.card(let card)) = await performer.perform(.loadCard(id: "demo-02")) else {
                Issue.record("the card did not load")
                return
            }
            let wallet = try #require(await performer.accounts.cachedWallet())

            await server.stop()
            // A card read in full before: deleted offline, with its copy for undo.
            let deleted = await performer.perform(.deleteCard(id: card.id))
            guard case .success(.queued(.deleted(let id, let backup?))) = deleted else {
                Issue.record("not queued with a copy: \(deleted)")
                return
            }
            #expect(id == card.id && backup.card.fields == card.fields)
            // Another card: deleted offline too.
            let other = try #require(online.first { $0.id != card.id && !$0.hasImage })
            let plain = await performer.perform(.deleteCard(id: other.id))
            guard case .success(.queued(.deleted(other.id, _))) = plain else {
                Issue.record("not queued: \(plain)")
                return
            }
            #expect(try wallet.cache?.pendingChanges().count == 2)

            // `u`: the card comes back as an addition, waiting too.
            let restored = await performer.perform(.restoreCard(backup))
            guard case .success(.queued(.card(let local))) = restored else {
                Issue.record("the undo was not queued: \(restored)")
                return
            }
            #expect(local.id.hasPrefix(CardCache.localIDPrefix) && local.fields == card.fields)
            #expect(try #require(wallet.cache).pendingChanges().count == 3)
            // With a picture it waits for the server: refused now, saying why.
            let pictured = DeletedCard(card: card, image: Data([0x89, 0x50, 0x4E, 0x47]))
            guard case .failure(let failure) = await performer.perform(.restoreCard(pictured)) else {
                Issue.record("a card with a picture was brought back offline")
                return
            }
            #expect(failure.message.contains("picture"), "\(failure.message)")
            #expect(try #require(wallet.cache).pendingChanges().count == 3)

            // Back online: the outbox goes first, in order, once.
            server = try await MockServer.start(configuration: configuration)
            let back = try await performer.perform(.loadCards(offset: 0, limit: 100, query: nil)).cards()
            #expect(!back.contains { $0.id == card.id || $0.id == other.id })
            #expect(back.filter { $0.name == card.fields.name }.count == 1, "brought back once, as a new card")
            #expect(back.count == online.count - 1)
            #expect(server.statistics.count("DELETE /card/{cardId}") == 2)
            #expect(server.statistics.count("POST /card") == 1)
            #expect(try #require(wallet.cache).pendingChanges().isEmpty)
        } catch {
            Issue.record("\(error)")
        }
        try? await transport.shutdown()
        await server.stop()
    }
}
