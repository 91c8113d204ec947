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
    private func cachedByAnEarlierStart(_ harness: GlueHarness) async throws -> (CallPerformer, [CardSummary]) {
        let (_, performer) = try await harness.loggedInPerformerWithCache(logger: Self.logger)
        guard case .success(.cards(let page)) = await performer.perform(.loadCards(offset: 0, limit: 100, query: nil))
        else { throw TestFailure("the list did not load") }
        try #require(page.cards.count == 12)
        return (performer, page.cards)
    }

    private func location(_ harness: GlueHarness) -> CacheLocation {
        CacheLocation(folder: harness.folder.path("cache"))
    }

    /// The early read of `server`'s cache , as the interface makes it.
    private func earlyRead(_ harness: GlueHarness, server: String) -> EarlyWallet? {
        EarlyWallet.read(server: server, tokenStore: harness.store, location: location(harness), logger: Self.logger)
    }

    @Test func theEarlyReadIsTheFirstFrameAndItsCacheIsKeptNotOpenedAgain() async throws {
        try await GlueHarness.with { harness in
            let (performer, cards) = try await cachedByAnEarlierStart(harness)
            let server = performer.accounts.backend.server
            let early = try #require(
                earlyRead(harness, server: server))
            #expect(early.account == GlueHarness.email)
            guard case .cachedWallet(let page, _) = try #require(early.firstFrame) else {
                Issue.record("not a cached wallet: \(String(describing: early.firstFrame))")
                return
            }
            #expect(page.cards == cards)

            // The interface's calls come together: the first frame and the list's own call.
            let accounts = harness.accounts(cache: location(harness), logger: Self.logger, early: Task { early })
            async let frame = accounts.firstFrame()
            async let wallet = accounts.cachedWallet()
            #expect(await frame == early.firstFrame)
            let kept = try #require(await wallet?.cache)
            #expect(kept === early.cache, "the early cache became the account's cache, not opened again")
            #expect(try early.cache.list()?.cards == cards, "and it is still open")
            #expect(await accounts.firstFrame() == early.firstFrame, "a later first frame reads it again")
        }
    }

    @Test func anEarlyReadOfAnotherAccountIsClosedAndNotShown() async throws {
        try await GlueHarness.with { harness in
            let (performer, cards) = try await cachedByAnEarlierStart(harness)
            let server = performer.accounts.backend.server
            // Read for another account than the session turns out to be (the token file changed
            // between the read and the session's restore, say).
            let theirs = try CardCache.open(
                server: server, account: "someone@cardwallet.dev", location: location(harness), logger: Self.logger)
            let early = EarlyWallet(server: server, account: "someone@cardwallet.dev", cache: theirs, list: nil)
            // Nobody logged in at another server: nothing to decide yet, nothing shown.
            let elsewhere = harness.accounts(
                server: URL(string: "http://127.0.0.1:9/v1")!, cache: location(harness), logger: Self.logger,
                early: Task { early })
            #expect(await elsewhere.firstFrame() == nil)
            let accounts = harness.accounts(cache: location(harness), logger: Self.logger, early: Task { early })
            // The session's account: its own cache, read as before; the other one closed.
            guard case .cachedWallet(let page, _) = try #require(await accounts.firstFrame()) else {
                Issue.record("no cached wallet for the account")
                return
            }
            #expect(page.cards == cards)
            #expect(throws: CacheError.self, "closed") { try theirs.list() }
        }
    }

    @Test func theLoginScreenClosesTheEarlyReadAndALaterLoginOpensItsOwn() async throws {
        try await GlueHarness.with { harness in
            let (performer, _) = try await cachedByAnEarlierStart(harness)
            let early = try #require(
                earlyRead(harness, server: performer.accounts.backend.server))
            let accounts = harness.accounts(cache: location(harness), logger: Self.logger, early: Task { early })
            await accounts.discardEarly()
            #expect(throws: CacheError.self, "closed") { try early.cache.list() }
            let wallet = try #require(await accounts.cachedWallet())
            #expect(wallet.cache !== early.cache)
            #expect(try wallet.cache?.list()?.cards.count == 12)
        }
    }

    @Test func anEndedSessionBeforeTheEarlyReadWasKeptClosesIt() async throws {
        try await GlueHarness.with { harness in
            let (performer, _) = try await cachedByAnEarlierStart(harness)
            let server = performer.accounts.backend.server
            let early = try #require(
                earlyRead(harness, server: server))
            let accounts = harness.accounts(cache: location(harness), logger: Self.logger, early: Task { early })
            // E06 on the first call, before any wallet was asked for: the account's cache is wiped.
            let ended = await accounts.handleSessionEnd(
                CardAPIError.sessionExpired(server: server, account: GlueHarness.email))
            #expect(ended)
            #expect(throws: CacheError.self, "closed") { try early.cache.list() }
            let wallet = try #require(await accounts.cachedWallet())
            #expect(wallet.cache !== early.cache, "a new cache, not the wiped one")
            #expect(try wallet.cache?.list() == nil, "and nothing in it")
        }
    }

    @Test func nothingIsReadWithoutExactlyOneStoredAccount() async throws {
        try await GlueHarness.with { harness in
            let (performer, _) = try await cachedByAnEarlierStart(harness)
            let server = performer.accounts.backend.server
            let other = TokenItem(
                server: server, account: "someone@cardwallet.dev", accessToken: "a", accessTokenExpiresAt: Date(),
                refreshToken: "r", refreshTokenExpiresAt: Date().addingTimeInterval(3600))
            try await harness.store.save(other)
            #expect(
                earlyRead(harness, server: server) == nil, "two accounts: the session restores neither by itself")
            #expect(
                earlyRead(harness, server: "http://127.0.0.1:9/v1") == nil, "no account at that server")
        }
    }
}
