import CardModels
import Foundation
import Networking
import SessionCore
import Synchronization
import TestSupport
import Testing
import TokenStore

@testable import CardAPI

/// The session's state and its sink, and the pieces behind the refresh rules.
@Suite struct StateStreamTests {
    @Test func theSinkHearsRefreshingThenLoggedInBeforeTheCallReturns() async throws {
        try await Harness.with { harness in
            try await harness.seedTokens(expired: true)
            let client = harness.client()
            let recorder = StateRecorder(client)
            _ = try await client.card(id: "card_1")
            let account = SessionAccount(
                server: Harness.server.absoluteString, email: "demo@cardwallet.dev", name: "Demo User",
                userID: "user-demo")
            #expect(recorder.states == [.loggedIn(account), .refreshing(account), .loggedIn(account)])
        }
    }

    @Test func aReplacedSinkHearsNothingMoreAndTheNewOneNoReplay() async throws {
        try await Harness.with { harness in
            try await harness.seedTokens(expired: true)
            let client = harness.client()
            let first = StateRecorder(client)
            let second = RecordingStateSink()
            client.session.report(to: second)
            _ = try await client.card(id: "card_1")
            #expect(first.states.count == 1, "only the state when it was attached")
            #expect(second.states.map(\.isRefreshing) == [true, false])
            client.session.report(to: nil)
            try await client.logout()
            #expect(second.states.count == 2)
            #expect(client.session.state.description == "logged out of http://cards.test/v1")
        }
    }

    @Test func theStateIsReadableAtOnce() async throws {
        try await Harness.with { harness in
            let client = harness.client()
            try await client.login(email: "demo@cardwallet.dev", password: FakeCardServer.password)
            #expect(client.session.state.isLoggedIn)
            #expect(client.session.state.description == "logged in as demo@cardwallet.dev at http://cards.test/v1")
        }
    }

    @Test func aFlightAnswersLateWaitersAndCancelledOnes() async throws {
        let flight = RefreshFlight<CardAPIError>()
        let waiter = Task { try await flight.wait() }
        try await waitUntil("the waiter") { flight.waiterCount == 1 }
        waiter.cancel()
        await #expect(throws: CardAPIError.cancelled) { try await waiter.value }
        #expect(flight.waiterCount == 0)
        flight.finish(.failure(.excessiveRefresh(count: 3, window: .seconds(30))))
        await #expect(throws: CardAPIError.excessiveRefresh(count: 3, window: .seconds(30))) { try await flight.wait() }
    }

    @Test func oneSinkHearsTheLoginExchangeBeforeTheStateItCaused() async throws {
        try await Harness.with { harness in
            let sink = OrderSink()
            let log = LoggerPlugin(sink: sink)
            let client = harness.client(plugins: [log])
            client.session.report(to: sink)
            try await client.login(email: "demo@cardwallet.dev", password: FakeCardServer.password)
            #expect(sink.items == ["created", "sent", "received", "logged in"])
        }
    }
}

/// A session sink that keeps what it hears (and nothing of the state before).
final class RecordingStateSink: SessionStateSink {
    private let storage = Mutex<[SessionState]>([])
    func sessionChanged(_ state: SessionState) { storage.withLock { $0.append(state) } }
    var states: [SessionState] { storage.withLock { $0 } }
}

/// One channel for both network events and session news, as the interface's sink is.
final class OrderSink: NetworkEventSink, SessionStateSink {
    private let storage = Mutex<[String]>([])
    func record(_ event: RecordedEvent) { storage.withLock { $0.append(event.kind.rawValue) } }
    func sessionChanged(_ state: SessionState) {
        storage.withLock { $0.append(state.isLoggedIn ? "logged in" : "\(state)") }
    }
    var items: [String] { storage.withLock { $0 } }
}
