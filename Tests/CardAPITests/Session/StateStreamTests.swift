import CardModels
import Foundation
import Networking
import Synchronization
import TestSupport
import Testing
import TokenStore

@testable import CardAPI

/// The session's state stream, and the pieces behind the refresh rules.
@Suite struct StateStreamTests {
    @Test func everySubscriberSeesLoggedInRefreshingLoggedIn() async throws {
        try await Harness.with { harness in
            try await harness.seedTokens(expired: true)
            let client = harness.client()
            let first = StateRecorder(client.states())
            let second = StateRecorder(client.states())
            _ = try await client.card(id: "card_1")
            let account = SessionAccount(
                server: Harness.server.absoluteString, email: "demo@cardwallet.dev", name: "Demo User",
                userID: "user-demo")
            let expected: [SessionState] = [.loggedIn(account), .refreshing(account), .loggedIn(account)]
            try await waitUntil("both subscribers to see the refresh") {
                first.states == expected && second.states == expected
            }
            #expect(client.session.broadcaster.subscriberCount == 2)
        }
    }

    @Test func aLateSubscriberStartsWithTheCurrentState() async throws {
        try await Harness.with { harness in
            let client = harness.client()
            try await client.login(email: "demo@cardwallet.dev", password: FakeCardServer.password)
            var iterator = client.states().makeAsyncIterator()
            let first = await iterator.next()
            #expect(first?.isLoggedIn == true)
            #expect(first?.description == "logged in as demo@cardwallet.dev at http://cards.test/v1")
        }
    }

    @Test func theGuardAdmitsFiveInAnyThirtySeconds() {
        var guardian = RefreshGuard(limit: 5, window: .seconds(30))
        let start = Date(timeIntervalSince1970: 1_000)
        let offsets: [TimeInterval] = [0, 1, 2, 3, 4, 10, 29.9, 30, 30.5]
        let admitted = offsets.map { guardian.admit(at: start + $0) }
        // The sixth and seventh are refused; at 30 s the first leaves the window.
        #expect(admitted == [true, true, true, true, true, false, false, true, false])
    }

    @Test func aFlightAnswersLateWaitersAndCancelledOnes() async throws {
        let flight = RefreshFlight()
        let waiter = Task { try await flight.wait() }
        try await waitUntil("the waiter") { flight.waiterCount == 1 }
        waiter.cancel()
        await #expect(throws: CardAPIError.cancelled) { try await waiter.value }
        #expect(flight.waiterCount == 0)
        flight.finish(.failure(.excessiveRefresh(count: 5, window: .seconds(30))))
        await #expect(throws: CardAPIError.excessiveRefresh(count: 5, window: .seconds(30))) { try await flight.wait() }
    }

    @Test func sessionNewsComesAfterTheBatchedLogOfItsExchange() async throws {
        try await Harness.with { harness in
            // Batches far apart: the login's events reach the subscriber only because the
            // session flushes the plugin before publishing "logged in".
            let log = LoggerPlugin(configuration: .init(deliveryInterval: .seconds(3600)))
            let kinds = Mutex<[NetworkEvent.Kind]>([])
            let events = log.events()
            let reader = Task {
                for await event in events { kinds.withLock { $0.append(event.kind) } }
            }
            defer { reader.cancel() }
            let client = harness.client(plugins: [log])
            let states = StateRecorder(client.states())
            try await client.login(email: "demo@cardwallet.dev", password: FakeCardServer.password)
            try await waitUntil("logged in") { states.states.last?.isLoggedIn == true }
            try await waitUntil("the login's events") { kinds.withLock { $0 } == [.created, .sent, .received] }
            #expect(log.recent().count == 3)
        }
    }
}
