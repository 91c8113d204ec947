import CardAPI
import CardCache
import CardModels
import CardWalletUI
import Foundation
import Logging
import Networking
import TestSupport
import Testing
import TokenStore

@testable import CardWalletLive

/// The cached wallet read at the interface's very start, before the live client exists
/// (`EarlyWallet`): used for the first frame only when it is the restored account's, and then
/// kept as that account's cache; otherwise closed, and the first frame read as before.
@Suite struct EarlyWalletTests {
    private static let logger = Logger(label: "test.early-wallet")

    /// A second start: the server's list was cached by an earlier one.
    private func cachedByAnEarlierStart(_ harness: GlueHarness) async throws -> (CardAPIPerformer, [CardSummary]) {
        let (_, performer) = try await harness.loggedInPerformerWithCache(logger: Self.logger)
        guard case .success(.cards(let page)) = await performer.perform(.loadCards(offset: 0, limit: 100, query: nil))
        else { throw TestFailure("the list did not load") }
        try #require(page.cards.count == 12)
        return (performer, page.cards)
    }

    private func location(_ harness: GlueHarness) -> CacheLocation {
        CacheLocation(folder: harness.folder.path("cache"))
    }

    @Test func theEarlyReadIsTheFirstFrameAndItsCacheIsKeptNotOpenedAgain() async throws {
        try await GlueHarness.with { harness in
            let (performer, cards) = try await cachedByAnEarlierStart(harness)
            let server = performer.client.configuration.serverKey
            let early = try #require(
                EarlyWallet.read(
                    server: server, tokenStore: harness.store, location: location(harness), logger: Self.logger))
            #expect(early.account == GlueHarness.email)
            guard case .cachedWallet(let page, _) = try #require(early.firstFrame) else {
                Issue.record("not a cached wallet: \(String(describing: early.firstFrame))")
                return
            }
            #expect(page.cards == cards)

            let caches = WalletCaches(environment: [:], location: location(harness), logger: Self.logger)
            #expect(await caches.firstFrame(performer.client, early: early) == early.firstFrame)
            let kept = try #require(await caches.wallet(for: performer.client)?.cache)
            #expect(kept === early.cache, "the early cache became the account's cache")
            #expect(try early.cache.list()?.cards == cards, "and it is still open")
        }
    }

    @Test func anEarlyReadForAnotherSessionIsClosedAndNotShown() async throws {
        try await GlueHarness.with { harness in
            let (performer, _) = try await cachedByAnEarlierStart(harness)
            let early = try #require(
                EarlyWallet.read(
                    server: performer.client.configuration.serverKey, tokenStore: harness.store,
                    location: location(harness), logger: Self.logger))
            // The interface ended up on another server, where nobody is logged in.
            let elsewhere = CardAPIClient(
                configuration: CardAPIConfiguration(server: URL(string: "http://127.0.0.1:9/v1")!),
                tokenStore: harness.store, transport: harness.transport)
            let caches = WalletCaches(environment: [:], location: location(harness), logger: Self.logger)
            #expect(await caches.firstFrame(elsewhere, early: early) == nil)
            #expect(throws: CacheError.self, "closed") { try early.cache.list() }
        }
    }

    @Test func nothingIsReadWithoutExactlyOneStoredAccount() async throws {
        try await GlueHarness.with { harness in
            let (performer, _) = try await cachedByAnEarlierStart(harness)
            let server = performer.client.configuration.serverKey
            let other = TokenItem(
                server: server, account: "someone@cardwallet.dev", accessToken: "a", accessTokenExpiresAt: Date(),
                refreshToken: "r", refreshTokenExpiresAt: Date().addingTimeInterval(3600))
            try await harness.store.save(other)
            #expect(
                EarlyWallet.read(
                    server: server, tokenStore: harness.store, location: location(harness), logger: Self.logger)
                    == nil, "two accounts: the session restores neither by itself")
            #expect(
                EarlyWallet.read(
                    server: "http://127.0.0.1:9/v1", tokenStore: harness.store, location: location(harness),
                    logger: Self.logger) == nil, "no account at that server")
        }
    }
}
