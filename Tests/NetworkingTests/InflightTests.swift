import Foundation
import TestSupport
import Testing

@testable import Networking

/// Identical GETs in flight at once share one exchange.
@Suite struct InflightTests {
    actor Gate {
        private var waiters: [CheckedContinuation<Void, Never>] = []
        private var open = false
        private(set) var arrivals = 0
        func wait() async {
            arrivals += 1
            if open { return }
            await withCheckedContinuation { waiters.append($0) }
        }
        func release() {
            open = true
            for waiter in waiters { waiter.resume() }
            waiters = []
        }
    }

    @Test func identicalGetsShareOneExchange() async throws {
        let gate = Gate()
        let stub = StubTransport { _ in
            await gate.wait()
            return .json(#"{"ok":true}"#)
        }
        let plugin = RecordingPlugin("P")
        let provider = Provider<Endpoint>(transport: stub, plugins: [plugin], trackInflights: true)
        let target = Endpoint(TestAPI.headers)
        let calls = (0..<5).map { _ in Task { try await provider.request(target) } }
        try await waitUntil("the first exchange to start") { await gate.arrivals == 1 }
        try await waitUntil("all callers to be waiting") { provider.inflight?.waiterCount == 5 }
        await gate.release()
        for call in calls { #expect(try await call.value.statusCode == 200) }
        #expect(stub.requests.count == 1)
        #expect(plugin.calls == ["prepare", "willSend#1", "didReceive#1:200", "process"])

        // Once finished, the next call makes a new exchange.
        _ = try await provider.request(target)
        #expect(stub.requests.count == 2)
    }

    @Test func differentRequestsAreNotShared() async throws {
        let stub = StubTransport(StubResponse())
        let provider = Provider<Endpoint>(transport: stub, trackInflights: true)
        async let first = provider.request(Endpoint(TestAPI.headers))
        async let second = provider.request(Endpoint(TestAPI.status(200)))
        _ = try await (first, second)
        #expect(stub.requests.count == 2)
    }

    @Test func cancellingOneWaiterLeavesTheOthers() async throws {
        let gate = Gate()
        let stub = StubTransport { _ in
            await gate.wait()
            return .json("{}")
        }
        let plugin = RecordingPlugin("P")
        let provider = Provider<Endpoint>(transport: stub, plugins: [plugin], trackInflights: true)
        let target = Endpoint(TestAPI.headers)
        let first = Task { try await provider.request(target) }
        try await waitUntil("the exchange to start") { await gate.arrivals == 1 }
        let second = Task { try await provider.request(target) }
        try await waitUntil("the second caller to join") { provider.inflight?.waiterCount == 2 }
        first.cancel()
        await #expect { _ = try await first.value } throws: { ($0 as? NetworkError)?.isCancelled == true }
        #expect(provider.inflight?.waiterCount == 1)
        await gate.release()
        #expect(try await second.value.statusCode == 200)
        #expect(stub.requests.count == 1)
        #expect(provider.inflight?.count == 0)
    }

    @Test func cancellingEveryWaiterCancelsTheExchange() async throws {
        let ended = SharedLog()
        let stub = StubTransport { _ in
            do {
                try await Task.sleep(for: .seconds(600))  // a server that never answers; ends by cancellation
            } catch {
                ended.append("cancelled")
                throw error
            }
            return .json("{}")
        }
        let provider = Provider<Endpoint>(transport: stub, trackInflights: true)
        let target = Endpoint(TestAPI.headers)
        let calls = (0..<3).map { _ in Task { try await provider.request(target) } }
        try await waitUntil("all callers to wait") { provider.inflight?.waiterCount == 3 }
        try await waitUntil("the exchange to reach the server") { stub.requests.count == 1 }
        for call in calls { call.cancel() }
        for call in calls {
            await #expect { _ = try await call.value } throws: { ($0 as? NetworkError)?.isCancelled == true }
        }
        try await waitUntil("the shared exchange to be cancelled") { ended.all == ["cancelled"] }
        #expect(provider.inflight?.count == 0)
    }
}
