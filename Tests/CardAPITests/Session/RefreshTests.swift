import CardModels
import Foundation
import Networking
import TestSupport
import Testing
import TokenStore

@testable import CardAPI

/// Pre-emptive refresh, refresh after 401, and the single refresh in flight.
@Suite struct RefreshTests {
    @Test func aTokenExpiringWithinTheMarginIsRefreshedBeforeSending() async throws {
        try await Harness.with { harness in
            let old = try await harness.seedTokens()
            await harness.fake.set(storeToCheck: harness.store)
            harness.wallClock.advance(by: .seconds(300 - 20))  // 20 s left: inside the 30 s margin
            let client = harness.client()

            _ = try await client.card(id: "card_1")

            #expect(harness.refreshRequests.count == 1)
            let refresh = try #require(harness.refreshRequests.first)
            #expect(refresh.headers["Authorization"] == nil)  // the refresh bypasses the auth interceptor
            #expect(refresh.headers[CardWalletHeader.refreshToken] == "Bearer \(old.refreshToken)")
            let sent = try #require(harness.cardRequests.first)
            let stored = try #require(
                try harness.store.read(server: Harness.server.absoluteString, account: old.account))
            #expect(bearer(sent) == stored.accessToken)
            #expect(stored.accessToken != old.accessToken)
            #expect(stored.refreshToken != old.refreshToken)
            #expect(await harness.fake.savedBeforeUseViolations == 0)
        }
    }

    @Test func aTokenOutsideTheMarginIsSentWithoutRefreshing() async throws {
        try await Harness.with { harness in
            let item = try await harness.seedTokens()
            harness.wallClock.advance(by: .seconds(300 - 45))
            _ = try await harness.client().card(id: "card_1")
            #expect(harness.refreshRequests.isEmpty)
            #expect(harness.cardRequests.map(bearer) == [item.accessToken])
        }
    }

    @Test func theAuthorizationHeaderIsReplacedNeverAppended() async throws {
        try await Harness.with { harness in
            let item = try await harness.seedTokens()
            let client = harness.client()
            _ = try await client.card(id: "card_1")
            _ = try await client.card(id: "card_2")
            for request in harness.cardRequests {
                #expect(request.headers.values(for: "Authorization") == ["Bearer \(item.accessToken)"])
            }
        }
    }

    @Test(arguments: ["E04", "E03"])
    func a401RefreshesAndRetriesOnce(code: String) async throws {
        try await Harness.with { harness in
            let old = try await harness.seedTokens()
            await harness.fake.set(storeToCheck: harness.store)
            let oldToken = old.accessToken
            await harness.fake.set(cardOverride: { request in
                bearer(request) == oldToken
                    ? FakeCardServer.failure(code, status: 401, message: "Rejected.") : nil
            })
            let card = try await harness.client().card(id: "card_1")

            #expect(card.id == "card_1")
            #expect(harness.refreshRequests.count == 1)
            let tokens = harness.cardRequests.map(bearer)
            #expect(tokens.count == 2)
            #expect(tokens.first == oldToken)
            #expect(tokens.last != oldToken)
            #expect(await harness.fake.savedBeforeUseViolations == 0)
        }
    }

    @Test func aSecond401AfterTheRefreshIsNotRetriedAgain() async throws {
        try await Harness.with { harness in
            try await harness.seedTokens()
            await harness.fake.set(cardOverride: { _ in FakeCardServer.failure("E04", status: 401, message: "No.") })
            await #expect(throws: CardAPIError.self) { _ = try await harness.client().card(id: "card_1") }
            #expect(harness.refreshRequests.count == 1)
            #expect(harness.cardRequests.count == 2)
        }
    }

    @Test func a401ForAnotherCodeIsNotRetried() async throws {
        try await Harness.with { harness in
            try await harness.seedTokens()
            await harness.fake.set(cardOverride: { _ in FakeCardServer.failure("E02", status: 401, message: "No.") })
            let error = await #expect(throws: CardAPIError.self) { _ = try await harness.client().card(id: "card_1") }
            #expect(error?.errorCode == .loginFailed)
            #expect(harness.refreshRequests.isEmpty)
        }
    }

    @Test func twoHundredConcurrentRequestsWithAnExpiredTokenShareOneRefresh() async throws {
        try await Harness.with { harness in
            let old = try await harness.seedTokens(expired: true)
            await harness.fake.set(storeToCheck: harness.store)
            let client = harness.client()
            let successes = try await withThrowingTaskGroup(of: Card.self) { group in
                for index in 0..<200 { group.addTask { try await client.card(id: "card_\(index)") } }
                return try await group.reduce(0) { count, _ in count + 1 }
            }
            #expect(successes == 200)
            #expect(await harness.fake.refreshCalls == 1)
            #expect(await client.session.flightsStarted == 1)  // one in-process flight, not 200 lock waits
            #expect(harness.cardRequests.count == 200)
            #expect(!harness.cardRequests.contains { bearer($0) == old.accessToken })
            #expect(await harness.fake.savedBeforeUseViolations == 0)
            #expect(client.interceptor.markedRequestCount == 0)
        }
    }

    @Test func twoHundredLate401sShareOneRefresh() async throws {
        try await Harness.with { harness in
            let old = try await harness.seedTokens()  // fresh by our clock, but the server disagrees
            await harness.fake.expireAccessTokens()
            let client = harness.client()
            let successes = try await withThrowingTaskGroup(of: Card.self) { group in
                for index in 0..<200 { group.addTask { try await client.card(id: "card_\(index)") } }
                return try await group.reduce(0) { count, _ in count + 1 }
            }
            #expect(successes == 200)
            #expect(await harness.fake.refreshCalls == 1)
            #expect(await client.session.flightsStarted == 1)
            #expect(await harness.fake.refreshTokensPresented == [old.refreshToken])
        }
    }

    @Test func a401ForATokenAlreadyReplacedRetriesWithTheCurrentOneWithoutRefreshing() async throws {
        try await Harness.with { harness in
            let old = try await harness.seedTokens()
            await harness.fake.expireAccessTokens()
            let slow = Gate()
            await harness.fake.set(gate: slow, forPath: "/v1/card/slow")
            let client = harness.client()

            let late = Task { try await client.card(id: "slow") }
            try await waitUntil("the slow request to reach the server") { slow.waiterCount == 1 }
            _ = try await client.card(id: "fast")  // 401 → refresh → retry
            #expect(await harness.fake.refreshCalls == 1)

            slow.open()  // its 401 for the old token arrives after the refresh
            let card = try await late.value
            #expect(card.id == "slow")
            #expect(await harness.fake.refreshCalls == 1)
            let slowTokens = harness.requests(to: "/card/slow").map(bearer)
            #expect(slowTokens.count == 2)
            #expect(slowTokens.first == old.accessToken)
            #expect(slowTokens.last == harness.requests(to: "/card/fast").last.flatMap(bearer))
        }
    }

    @Test func theOldRefreshTokenIsNeverSentAgain() async throws {
        try await Harness.with { harness in
            try await harness.seedTokens(expired: true)
            let client = harness.client()
            for round in 0..<4 {
                _ = try await client.card(id: "card_\(round)")
                harness.wallClock.advance(by: .seconds(301))
            }
            let presented = await harness.fake.refreshTokensPresented
            #expect(presented.count == 4)
            #expect(Set(presented).count == presented.count)
        }
    }

    @Test func shortLivedTokensAreRefreshedATenthOfTheirLifetimeBeforeExpiry() async throws {
        try await Harness.with { harness in
            await harness.fake.set(accessTTL: 20)  // shorter than the 30 s margin: 2 s instead
            let client = harness.client()
            try await client.login(email: FakeCardServer.demoUser.email, password: FakeCardServer.password)
            for _ in 0..<5 { _ = try await client.card(id: "card_1") }
            #expect(await harness.fake.refreshCalls == 0)
            harness.wallClock.advance(by: .seconds(15))  // 5 s left: not yet due
            _ = try await client.card(id: "card_1")
            #expect(await harness.fake.refreshCalls == 0)
            harness.wallClock.advance(by: .seconds(3))  // 2 s left: due
            _ = try await client.card(id: "card_1")
            #expect(await harness.fake.refreshCalls == 1)
        }
    }
}
