import CardModels
import Foundation
import Networking
import TestSupport
import Testing
import TokenStore

@testable import CardAPI

/// Refreshes that fail: transient errors, the excessive-refresh guard, and cancelled waiters.
@Suite struct RefreshFailureTests {
    enum Transient: String, CaseIterable, Sendable {
        case network, serviceUnavailable, rateLimited

        var response: StubResponse {
            switch self {
            case .network: .networkFailure(.cannotConnect, reason: "connection refused")
            case .serviceUnavailable:
                FakeCardServer.failure("E99", status: 503, message: "Try later.", headers: ["Retry-After": "1"])
            case .rateLimited:
                FakeCardServer.failure("E10", status: 429, message: "Slow down.", headers: ["Retry-After": "7"])
            }
        }

        func matches(_ error: CardAPIError) -> Bool {
            switch self {
            case .network:
                if case .cannotConnect(let server, _, _) = error {
                    server == Harness.server.absoluteString
                } else {
                    false
                }
            case .serviceUnavailable: error.statusCode == 503 && error.errorCode == .internalError
            case .rateLimited: error.errorCode == .tooManyRequests && error.retryAfter == .seconds(7)
            }
        }
    }

    @Test(arguments: Transient.allCases)
    func aTransientRefreshFailureFailsItsWaitersAndKeepsTheSession(_ failure: Transient) async throws {
        try await Harness.with { harness in
            let old = try await harness.seedTokens(expired: true)
            await harness.fake.set(refreshBehavior: .respond(failure.response))
            let gate = Gate()
            await harness.fake.set(refreshGate: gate)
            let client = harness.client()

            let errors = try await withThrowingTaskGroup(of: CardAPIError?.self) { group in
                for index in 0..<20 {
                    group.addTask {
                        do throws(CardAPIError) {
                            _ = try await client.card(id: "card_\(index)")
                            return nil
                        } catch { return error }
                    }
                }
                // Hold the refresh until all twenty wait for it.
                try await waitUntil("twenty waiters") { (await client.session.flight?.waiterCount) == 20 }
                gate.open()
                return try await group.reduce(into: [CardAPIError?]()) { $0.append($1) }
            }
            await harness.fake.set(refreshGate: nil)
            #expect(errors.count == 20)
            #expect(errors.allSatisfy { $0.map(failure.matches) == true })
            #expect(await harness.fake.refreshCalls == 1)
            #expect(harness.cardRequests.isEmpty)
            #expect(client.session.state.isLoggedIn)
            #expect(try harness.store.read(server: Harness.server.absoluteString, account: old.account) == old)

            // The next request may refresh again, and succeeds.
            await harness.fake.set(refreshBehavior: .rotate)
            _ = try await client.card(id: "card_1")
            #expect(await harness.fake.refreshCalls == 2)
        }
    }

    @Test func aServerThatRejectsEveryNewTokenIsStoppedAfterThreeRefreshesWithATrueMessage() async throws {
        try await Harness.with { harness in
            try await harness.seedTokens()
            // A server that rejects every access token, even fresh ones.
            await harness.fake.set(cardOverride: { _ in FakeCardServer.failure("E04", status: 401, message: "No.") })
            let client = harness.client()
            for _ in 0..<3 {
                let error = await #expect(throws: CardAPIError.self) { _ = try await client.card(id: "card_1") }
                #expect(error?.errorCode == .accessTokenExpired)
            }
            #expect(await harness.fake.refreshCalls == 3)

            // Tokens live 300 s here, so the guard's window is ten lifetimes capped at 5 minutes.
            let error = await #expect(throws: CardAPIError.self) { _ = try await client.card(id: "card_1") }
            #expect(error == .excessiveRefresh(count: 3, window: .seconds(300)))
            let text = error?.description ?? ""
            #expect(text.contains("rejected each of the last 3 access tokens it issued"))
            #expect(text.contains("stopped refreshing for 300 s"))
            #expect(!text.contains("clock") && !text.contains("log in again"))
            #expect(await harness.fake.refreshCalls == 3)
            #expect(client.session.state.isLoggedIn)

            harness.wallClock.advance(by: .seconds(299))
            await #expect(throws: CardAPIError.excessiveRefresh(count: 3, window: .seconds(300))) {
                _ = try await client.card(id: "card_1")
            }
            #expect(await harness.fake.refreshCalls == 3)
            // Past the window the guard lets refreshes through again: the due token is refreshed
            // before sending, and the retry after its 401 refreshes once more.
            harness.wallClock.advance(by: .seconds(2))
            let after = await #expect(throws: CardAPIError.self) { _ = try await client.card(id: "card_1") }
            #expect(after?.errorCode == .accessTokenExpired)
            #expect(await harness.fake.refreshCalls == 5)
        }
    }

    @Test func aLoginStartsTheGuardAfresh() async throws {
        try await Harness.with { harness in
            try await harness.seedTokens()
            await harness.fake.set(cardOverride: { _ in FakeCardServer.failure("E04", status: 401, message: "No.") })
            let client = harness.client()
            for _ in 0..<4 { _ = try? await client.card(id: "card_1") }
            #expect(await harness.fake.refreshCalls == 3)
            await harness.fake.set(cardOverride: nil)
            try await client.login(email: FakeCardServer.demoUser.email, password: FakeCardServer.password)
            await harness.fake.expireAccessTokens()
            _ = try await client.card(id: "card_1")  // 401 → a refresh the guard lets through
            #expect(await harness.fake.refreshCalls == 4)
        }
    }

    @Test func tokensTheServerExpiresEarlyButThenAcceptsNeverTripTheGuard() async throws {
        try await Harness.with { harness in
            try await harness.seedTokens()
            let client = harness.client()
            // Twenty 401s in a few seconds, each followed by a refresh whose token works.
            for round in 0..<20 {
                await harness.fake.expireAccessTokens()
                _ = try await client.card(id: "card_\(round)")
            }
            #expect(await harness.fake.refreshCalls == 20)
        }
    }

    @Test func cancellingOneWaiterCancelsNeitherTheRefreshNorTheOthers() async throws {
        try await Harness.with { harness in
            try await harness.seedTokens(expired: true)
            let gate = Gate()
            await harness.fake.set(refreshGate: gate)
            let client = harness.client()

            let first = Task { try await client.card(id: "one") }
            let second = Task { try await client.card(id: "two") }
            let third = Task { try await client.card(id: "three") }
            try await waitUntil("three waiters on one refresh") {
                let waiters = await client.session.flight?.waiterCount
                return gate.waiterCount == 1 && waiters == 3
            }

            second.cancel()
            // The cancelled waiter returns while the refresh is still held at the gate.
            let cancelled = await second.result
            #expect(throws: CardAPIError.cancelled) { try cancelled.get() }
            #expect(gate.waiterCount == 1)

            gate.open()
            #expect(try await first.value.id == "one")
            #expect(try await third.value.id == "three")
            #expect(await harness.fake.refreshCalls == 1)
            #expect(harness.requests(to: "/card/two").isEmpty)
        }
    }

    @Test func cancellingEveryWaiterStillLetsTheRefreshFinishAndSave() async throws {
        try await Harness.with { harness in
            let old = try await harness.seedTokens(expired: true)
            let gate = Gate()
            await harness.fake.set(refreshGate: gate)
            let client = harness.client()
            let only = Task { try await client.card(id: "one") }
            try await waitUntil("the refresh to start") { gate.waiterCount == 1 }
            only.cancel()
            await #expect(throws: CardAPIError.cancelled) { try await only.value }
            gate.open()
            try await waitUntil("the refreshed pair to be saved") {
                (try? harness.store.read(server: Harness.server.absoluteString, account: old.account))?.refreshToken
                    != old.refreshToken
            }
            _ = try await client.card(id: "two")
            #expect(await harness.fake.refreshCalls == 1)
        }
    }
}
