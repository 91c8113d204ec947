import CardBackend
import CardCache
import CardModels
import CardWalletLive
import Foundation
import Networking
import OAuth
import OAuthTestSupport
import Secrets
import TestSupport
import Testing
import TokenStore

/// The tokens after the login, against the same real peers: refreshed once when they expire in
/// the middle of a sync, E06's path when the refresh token is revoked (the outbox sent after the
/// next login), Google's shape of discovery, Google's back-off.
@Suite(.serialized) struct OAuthSessionLiveTests {
    @Test func anAccessTokenThatExpiresInTheMiddleOfASyncIsRefreshedOnceAndTheSyncGoesOn() async throws {
        try await OAuthWallet.with { wallet in
            try await wallet.logIn()
            let cards = await wallet.accounts.wallet()
            for index in 1...12 {
                _ = try await cards.create(CardFields(name: "Person \(index)", email: "p\(index)@example.com"))
            }
            // Another computer's cache: a first sync of the book, whose first request is answered
            // before the server expires every access token; the next request meets a 401.
            let other = try OAuthWallet(wallet.peers, folder: try TemporaryFolder("oauth-other"))
            defer { other.folder.remove() }
            try await other.logIn()
            let before = try await wallet.peers.refreshes()
            let expire = wallet.peers
            other.network.afterNextRequest { try? await expire.expireAccessTokens() }
            let synced = await other.accounts.wallet()
            let listed = try await synced.list(.online).value
            #expect(listed.count == 12)
            #expect(try await wallet.peers.refreshes() == before + 1)
            // The refreshed token is the stored one, and the next call uses it without a refresh.
            _ = try await synced.list(.online)
            #expect(try await wallet.peers.refreshes() == before + 1)
            try? await other.live.shutdown()
        }
    }

    @Test func manyCallsAtExpiryMakeOneRefresh() async throws {
        try await OAuthWallet.with { wallet in
            try await wallet.logIn()
            let cards = await wallet.accounts.wallet()
            let first = try await cards.create(CardFields(name: "Grace Hopper")).value
            try await wallet.peers.expireAccessTokens()
            let before = try await wallet.peers.refreshes()
            let sentBefore = wallet.network.requestCount
            let backend = wallet.accounts.backend
            let calls = 30
            try await withThrowingTaskGroup(of: Void.self) { group in
                for _ in 0..<calls {
                    group.addTask { _ = try await backend.card(id: first.id) }
                }
                try await group.waitForAll()
            }
            #expect(try await wallet.peers.refreshes() == before + 1)
            // The backend's clients share one gate per host: at most K requests went out with the
            // stale token (each answered 401 and sent again), the others waited for the new one.
            let limit = try #require(wallet.network.connectionsPerHost)
            #expect(limit < calls)
            let sent = wallet.network.requestCount - sentBefore
            #expect(sent <= calls + limit + 1, "\(sent) requests for \(calls) calls (K = \(limit))")
        }
    }

    @Test func aRevokedRefreshTokenTakesE06sPathAndTheOutboxIsSentAfterTheNextLogin() async throws {
        try await OAuthWallet.with { wallet in
            let first = try await wallet.logIn()
            let record = try #require(first.record)
            var cards = await wallet.accounts.wallet()
            _ = try await cards.create(CardFields(name: "Kept Online"))
            _ = try await cards.list(.online)
            #expect(try await cards.list(.offline).value.map(\.name).contains("Kept Online"), "cached")
            // Offline: a change waits in the outbox.
            wallet.network.setOffline(true)
            let queued = try await cards.create(CardFields(name: "Made Offline"), offline: .queue)
            guard case .queued = queued else {
                Issue.record("the change was not queued")
                return
            }
            wallet.network.setOffline(false)
            // Consent withdrawn, and the access token gone: the next call refreshes, and the server
            // says invalid_grant.
            try await wallet.peers.revokeUser()
            try await wallet.peers.expireAccessTokens()
            var ended: (any Error)?
            do {
                _ = try await wallet.accounts.backend.card(id: "anything")
            } catch {
                ended = error
            }
            let failure = try #require(ended as? any BackendFailure)
            #expect(failure.endedSession?.account == wallet.peers.email, "\(failure)")
            #expect(failure.description.contains("log in again") || failure.description.contains("Log in again"))
            #expect(await wallet.accounts.handleSessionEnd(failure))
            // E06's path: the token gone, the secret forgotten, the record kept; the outbox kept.
            #expect(try wallet.storedItems().isEmpty)
            #expect(wallet.keyring.count == 0)
            #expect(try wallet.store.accountRecord(named: record.name)?.secret == nil)
            let outbox = CardCache.waitingOutboxes(
                server: wallet.accounts.backend.server, location: CacheLocation(folder: wallet.folder.path("cache")))
            #expect(outbox.map(\.changes) == [1])
            #expect(wallet.accounts.backend.sessionState.account == nil)
            // The cards kept for the account are wiped.
            let afterEnd = await wallet.accounts.wallet()
            let left = (try? await afterEnd.list(.offline))?.value.map(\.name) ?? []
            #expect(!left.contains("Kept Online"), "\(left)")

            // The next login, as the same account: the change made offline reaches the server.
            try await wallet.logIn()
            let sent = try #require(await wallet.accounts.sendWaitingChanges())
            #expect(sent.sent == 1)
            #expect(try await wallet.peers.cardsInBook().contains { $0.contains("Made Offline") })
            cards = await wallet.accounts.wallet()
            #expect(try await cards.list(.online).value.map(\.name).sorted() == ["Kept Online", "Made Offline"])
        }
    }

    @Test func googlesShapeOfDiscoveryTakesTheRedirectTargetAsTheOneBook() async throws {
        try await OAuthWallet.with { wallet in
            let start = wallet.peers.google.appending(path: ".well-known/carddav")
            let report = try await wallet.logIn(server: start)
            let record = try #require(report.record)
            #expect(record.book?.hasSuffix("/lists/default/") == true, "\(record.book ?? "-")")
            let cards = await wallet.accounts.wallet()
            let made = try await cards.create(CardFields(name: "Alan Turing", email: "alan@example.com")).value
            #expect(
                try await wallet.peers.cardsInBook().contains {
                    $0.contains("Alan Turing") && $0.contains("VERSION:3.0")
                })
            _ = try await cards.update(id: made.id, fields: CardFields(name: "Alan M. Turing"), revision: made.revision)
            #expect(try await cards.list(.online).value.map(\.name) == ["Alan M. Turing"])
            let seen = try await wallet.peers.googleRequests()
            #expect(seen.contains { $0.hasPrefix("PROPFIND /.well-known/carddav 301") })
            #expect(seen.contains { $0.hasPrefix("PROPFIND /carddav/v1/principals/alice%40example.com/ 404") })
        }
    }

    @Test func a503WithRetryAfterIsWaitedOutOnceAndShowsInTheLog() async throws {
        try await OAuthWallet.with { wallet in
            try await wallet.logIn(server: wallet.peers.google.appending(path: ".well-known/carddav"))
            let cards = await wallet.accounts.wallet()
            try await wallet.peers.throttleGoogle(count: 1, status: 503, retry: 1)
            _ = try await cards.create(CardFields(name: "Slow Down"))
            #expect(try await wallet.peers.cardsInBook().contains { $0.contains("Slow Down") })
            #expect(wallet.log.recent().contains { $0.retryDelay != nil })
            // A wait longer than the client takes is not waited out: the call fails with the server's answer.
            try await wallet.peers.throttleGoogle(count: 1, status: 429, retry: 3600)
            await #expect(throws: (any Error).self) { _ = try await cards.create(CardFields(name: "Too Slow")) }
        }
    }
}
