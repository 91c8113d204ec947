import CardModels
import Foundation
import Networking
import Testing
import TokenStore

@testable import CardAPI

/// Several sessions (as in several processes) sharing one token file: one refresh in all.
@Suite struct SharedTokenFileTests {
    @Test func aSecondSessionAdoptsThePairTheFirstRefreshed() async throws {
        try await Harness.with { harness in
            try await harness.seedTokens(expired: true)
            let first = harness.client()
            let second = harness.client()  // loaded the same expired pair
            _ = try await first.card(id: "a")
            _ = try await second.card(id: "b")
            #expect(await harness.fake.refreshCalls == 1)
            #expect(bearer(harness.requests(to: "/card/a")[0]) == bearer(harness.requests(to: "/card/b")[0]))
        }
    }

    @Test func aSessionRejectedWithAnOldTokenAdoptsTheStoredPairWithoutRefreshing() async throws {
        try await Harness.with { harness in
            try await harness.seedTokens()
            let first = harness.client()
            let second = harness.client()
            await harness.fake.expireAccessTokens()
            _ = try await first.card(id: "a")  // 401 → refresh → saved
            _ = try await second.card(id: "b")  // 401 for the old token → re-read the file, no refresh
            #expect(await harness.fake.refreshCalls == 1)
            #expect(harness.requests(to: "/card/b").count == 2)
        }
    }

    @Test func tenSessionsWithTwentyRequestsEachRefreshOnce() async throws {
        try await Harness.with { harness in
            try await harness.seedTokens(expired: true)
            await harness.fake.set(storeToCheck: harness.store)
            let clients = (0..<10).map { _ in harness.client() }
            let successes = try await withThrowingTaskGroup(of: Int.self) { group in
                for client in clients {
                    group.addTask {
                        try await withThrowingTaskGroup(of: Card.self) { inner in
                            for index in 0..<20 { inner.addTask { try await client.card(id: "card_\(index)") } }
                            return try await inner.reduce(0) { count, _ in count + 1 }
                        }
                    }
                }
                return try await group.reduce(0, +)
            }
            #expect(successes == 200)
            #expect(await harness.fake.refreshCalls == 1)
            #expect(await harness.fake.savedBeforeUseViolations == 0)
        }
    }

    @Test func severalAccountsNeedAChoice() async throws {
        try await Harness.with { harness in
            try await harness.seedTokens()
            let other = TokenItem(
                server: Harness.server.absoluteString, account: "minji@cardwallet.dev", accessToken: "cwa_x",
                accessTokenExpiresAt: harness.wallClock.now.addingTimeInterval(300), refreshToken: "cwr_x",
                refreshTokenExpiresAt: harness.wallClock.now.addingTimeInterval(9000))
            try await harness.store.save(other)
            let error = await #expect(throws: CardAPIError.self) { _ = try await harness.client().card(id: "a") }
            #expect(
                error
                    == .multipleAccounts(
                        server: Harness.server.absoluteString,
                        accounts: ["demo@cardwallet.dev", "minji@cardwallet.dev"]))
            #expect(harness.stub.requests.isEmpty)

            _ = try await harness.client(account: "DEMO@cardwallet.dev").card(id: "a")
            #expect(harness.cardRequests.count == 1)
        }
    }
}
