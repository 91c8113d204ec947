import CardModels
import Foundation
import Networking
import TestSupport
import Testing
import TokenStore

@testable import CardAPI

/// Card requests take their token when admitted (at most the transport's connections per host at
/// once), and the session holds the gate while a 401's refresh runs: a storm after a server-side
/// expiry sends at most K stale tokens, not N.
@Suite struct AdmissionStormTests {
    /// Runs `count` `card(id:)` calls at once (each its own id, or all `id`); returns how many
    /// succeeded and the errors of the others.
    private func storm(_ client: CardAPIClient, _ count: Int, id: String? = nil) async
        -> (succeeded: Int, errors: [CardAPIError])
    {
        await withTaskGroup(of: Result<Card, CardAPIError>.self) { group in
            for index in 0..<count {
                group.addTask {
                    do throws(CardAPIError) {
                        return .success(try await client.card(id: id ?? "card_\(index)"))
                    } catch {
                        return .failure(error)
                    }
                }
            }
            var succeeded = 0
            var errors: [CardAPIError] = []
            for await result in group {
                switch result {
                case .success: succeeded += 1
                case .failure(let error): errors.append(error)
                }
            }
            return (succeeded, errors)
        }
    }

    @Test func fiftyCallsAfterAServerSideExpirySendExactlyEightStaleTokens() async throws {
        try await Harness.with(connectionsPerHost: 8) { harness in
            let old = try await harness.seedTokens()  // fresh by our clock; the server disagrees
            await harness.fake.expireAccessTokens()
            await harness.fake.set(storeToCheck: harness.store)
            // Card requests wait at the server until the test opens the door, so the 8 admitted
            // are all on the wire with the old token before the first 401 comes back.
            let door = Gate()
            await harness.fake.set(gate: door, forPath: "/v1/card/storm")
            let client = harness.client()
            #expect(client.cards.admission.limit == 8)

            let running = Task { await storm(client, 50, id: "storm") }
            try await waitUntil("8 requests at the server, 42 in line") {
                door.waiterCount == 8 && client.cards.admission.status(for: Harness.server).waiting == 42
            }
            #expect(harness.cardRequests.count == 8)  // the 42 have not taken a token yet
            door.open()
            let (succeeded, errors) = await running.value

            #expect(succeeded == 50 && errors.isEmpty)
            #expect(await harness.fake.refreshCalls == 1)
            #expect(await client.session.flightsStarted == 1)
            #expect(harness.cardRequests.filter { bearer($0) == old.accessToken }.count == 8)
            #expect(harness.cardRequests.count == 58)
            #expect(await harness.fake.savedBeforeUseViolations == 0)
            #expect(client.interceptor.markedRequestCount == 0)
            #expect(client.cards.admission.status(for: Harness.server) == .init(running: 0, waiting: 0, holds: 0))
        }
    }

    @Test func withOneRequestAtATimeExactlyOneStaleTokenIsSent() async throws {
        try await Harness.with { harness in
            let old = try await harness.seedTokens()
            await harness.fake.expireAccessTokens()
            let client = harness.client(requestsPerHost: 1)
            #expect(client.cards.admission.limit == 1)

            let (succeeded, errors) = await storm(client, 20)

            #expect(succeeded == 20 && errors.isEmpty)
            #expect(await harness.fake.refreshCalls == 1)
            #expect(harness.cardRequests.filter { bearer($0) == old.accessToken }.count == 1)
            #expect(harness.cardRequests.count == 21)
        }
    }

    @Test func aRevokedSessionEndsAfterAtMostEightCardRequests() async throws {
        try await Harness.with(connectionsPerHost: 8) { harness in
            try await harness.seedTokens()
            await harness.fake.expireAccessTokens()
            await harness.fake.revokeRefreshToken()  // the refresh answers E06
            let client = harness.client()

            let (succeeded, errors) = await storm(client, 50)

            #expect(succeeded == 0)
            #expect(errors.count == 50 && errors.allSatisfy(\.isSessionExpired))
            #expect(await harness.fake.refreshCalls == 1)
            #expect((1...8).contains(harness.cardRequests.count))  // the others failed fast, no network
            #expect(try harness.store.items().isEmpty)
            #expect(client.session.state.isExpired)
        }
    }

    @Test func aCallCancelledWhileWaitingForAdmissionSendsNothing() async throws {
        try await Harness.with(connectionsPerHost: 1) { harness in
            try await harness.seedTokens()
            let slow = Gate()
            await harness.fake.set(gate: slow, forPath: "/v1/card/slow")
            let client = harness.client()
            let busy = Task { try await client.card(id: "slow") }
            try await waitUntil("the slow request at the server") { slow.waiterCount == 1 }
            let waiting = Task { () async throws(CardAPIError) -> Card in try await client.card(id: "queued") }
            try await waitUntil("the second call in line") {
                client.cards.admission.status(for: Harness.server).waiting == 1
            }
            waiting.cancel()
            let result = await waiting.result
            #expect(throws: CardAPIError.cancelled) { try result.get() }
            slow.open()
            #expect(try await busy.value.id == "slow")
            #expect(harness.cardRequests.map(\.path) == ["/v1/card/slow"])
        }
    }
}
