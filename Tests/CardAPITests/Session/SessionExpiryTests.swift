import CardModels
import Foundation
import Networking
import TestSupport
import Testing
import TokenStore

@testable import CardAPI

/// E06 from the refresh or from any call: tokens wiped, every waiter fails, one event, fail fast.
@Suite struct SessionExpiryTests {
    @Test func e06FromTheRefreshWipesTheTokensAndFailsEveryWaiterOnce() async throws {
        try await Harness.with { harness in
            let old = try await harness.seedTokens(expired: true)
            await harness.fake.revokeRefreshToken()
            let gate = Gate()
            await harness.fake.set(refreshGate: gate)
            let client = harness.client()
            let recorder = StateRecorder(client)

            let errors = try await withThrowingTaskGroup(of: CardAPIError?.self) { group in
                for index in 0..<20 {
                    group.addTask {
                        do throws(CardAPIError) {
                            _ = try await client.card(id: "card_\(index)")
                            return nil
                        } catch { return error }
                    }
                }
                try await waitUntil("twenty waiters") { (await client.session.flight?.waiterCount) == 20 }
                gate.open()
                return try await group.reduce(into: [CardAPIError?]()) { $0.append($1) }
            }

            let expired = CardAPIError.sessionExpired(server: Harness.server.absoluteString, account: old.account)
            #expect(errors == Array(repeating: expired, count: 20))
            #expect(await harness.fake.refreshCalls == 1)
            #expect(try harness.store.items().isEmpty)
            #expect(client.session.state.isExpired)
            // Reported once, from the refresh's own task, before any waiter got its error.
            #expect(recorder.states.last?.isExpired == true)
            #expect(recorder.count(where: \.isExpired) == 1)

            try await expectFailsFast(client, harness)
        }
    }

    @Test func e06FromANormalCallWipesTheTokensAndFailsFastAfterwards() async throws {
        try await Harness.with { harness in
            let old = try await harness.seedTokens()
            await harness.fake.set(cardOverride: { _ in FakeCardServer.failure("E06", status: 401, message: "Ended.") })
            let client = harness.client()
            let recorder = StateRecorder(client)

            let error = await #expect(throws: CardAPIError.self) { _ = try await client.card(id: "card_1") }
            #expect(error == .sessionExpired(server: Harness.server.absoluteString, account: old.account))
            #expect(error?.isSessionExpired == true)
            #expect(error?.requiresLogin == true)
            #expect(harness.refreshRequests.isEmpty)
            #expect(try harness.store.items().isEmpty)
            try await waitUntil("the expiry to be published") { recorder.states.last?.isExpired == true }
            #expect(recorder.count(where: \.isExpired) == 1)

            try await expectFailsFast(client, harness)
            #expect(recorder.count(where: \.isExpired) == 1)
        }
    }

    @Test func e06ForAPairAnotherProcessReplacedKeepsTheNewPair() async throws {
        try await Harness.with { harness in
            let old = try await harness.seedTokens()
            let client = harness.client()
            _ = try await client.card(id: "card_0")  // the session now holds the old pair
            let oldToken = old.accessToken
            await harness.fake.set(cardOverride: { request in
                bearer(request) == oldToken ? FakeCardServer.failure("E06", status: 401, message: "Ended.") : nil
            })
            // Another process logs in again meanwhile.
            let newer = try await harness.seedTokens()

            let card = try await client.card(id: "card_1")
            #expect(card.id == "card_1")
            #expect(harness.requests(to: "/card/card_1").map(bearer) == [old.accessToken, newer.accessToken])
            #expect(try harness.store.items() == [newer])
            #expect(client.session.state.isLoggedIn)
        }
    }

    @Test func aTokenFileEmptiedByAnotherProcessEndsTheSessionWithoutNetwork() async throws {
        try await Harness.with { harness in
            try await harness.seedTokens(expired: true)
            let client = harness.client()
            try await harness.store.deleteAll()  // `cardwallet logout` in another shell
            await #expect(throws: CardAPIError.self) { _ = try await client.card(id: "card_1") }
            #expect(harness.stub.requests.isEmpty)
            #expect(client.session.state.isExpired)
        }
    }

    @Test func aLoginEndsTheExpiredState() async throws {
        try await Harness.with { harness in
            try await harness.seedTokens()
            await harness.fake.set(cardOverride: { request in
                request.path.hasSuffix("/card/gone") ? FakeCardServer.failure("E06", status: 401, message: "x") : nil
            })
            let client = harness.client()
            await #expect(throws: CardAPIError.self) { _ = try await client.card(id: "gone") }
            #expect(client.session.state.isExpired)

            try await client.login(email: "demo@cardwallet.dev", password: FakeCardServer.password)
            #expect(client.session.state.isLoggedIn)
            _ = try await client.card(id: "card_1")
            #expect(try harness.store.items().count == 1)
        }
    }

    private func expectFailsFast(
        _ client: CardAPIClient, _ harness: Harness, sourceLocation: SourceLocation = #_sourceLocation
    ) async throws {
        let before = harness.stub.requests.count
        for _ in 0..<3 {
            let error = await #expect(throws: CardAPIError.self, sourceLocation: sourceLocation) {
                _ = try await client.listCards()
            }
            #expect(error?.isSessionExpired == true, sourceLocation: sourceLocation)
        }
        #expect(harness.stub.requests.count == before, sourceLocation: sourceLocation)
    }
}
