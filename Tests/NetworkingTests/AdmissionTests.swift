import Foundation
import Networking
import TestSupport
import Testing

/// A provider lets at most K requests per host be adapted and sent at once; the others wait in
/// arrival order, cancellable, and are adapted only when admitted.
@Suite struct AdmissionTests {
    /// Starts `provider.request(target)` in its own task, so the test can cancel it.
    private func start<T: TargetType>(_ provider: Provider<T>, _ target: T) -> Task<Response, any Error> {
        Task { try await provider.request(target) }
    }

    @Test func atMostKRequestsAreAdaptedAndSentAtOnce() async throws {
        let server = HoldingServer()
        let adapter = AdaptRecorder()
        let provider = Provider<PathTarget>(
            transport: StubTransport(connectionsPerHost: 3) { await server.handle($0) }, interceptors: [adapter])
        let calls = (0..<10).map { start(provider, PathTarget("/\($0)")) }
        let probe = PathTarget("/").baseURL
        try await waitUntil("3 requests at the server, 7 waiting") {
            server.parkedCount == 3 && provider.admission.status(for: probe).waiting == 7
        }
        #expect(adapter.log.all.count == 3)  // the waiting 7 have not taken their token yet
        #expect(provider.admission.status(for: probe) == .init(running: 3, waiting: 7, holds: 0))
        server.openAll()
        for call in calls { #expect(try await call.value.statusCode == 200) }
        #expect(server.arrived.count == 10)
        #expect(server.mostInside == 3)
        #expect(adapter.log.all.count == 10)
        #expect(provider.admission.status(for: probe) == .init(running: 0, waiting: 0, holds: 0))
    }

    @Test func withOneConnectionRequestsGoOneByOneInArrivalOrder() async throws {
        let server = HoldingServer()
        let adapter = AdaptRecorder()
        let provider = Provider<PathTarget>(
            transport: StubTransport(connectionsPerHost: 1) { await server.handle($0) }, interceptors: [adapter])
        let probe = PathTarget("/").baseURL
        var calls = [start(provider, PathTarget("/0"))]
        try await waitUntil("the first request at the server") { server.parkedCount == 1 }
        for index in 1...6 {
            calls.append(start(provider, PathTarget("/\(index)")))
            try await waitUntil("request \(index) in line") { provider.admission.status(for: probe).waiting == index }
        }
        for index in 0...6 {
            try await waitUntil("request \(index) at the server") { server.parkedCount == 1 }
            #expect(server.arrived == (0...index).map { "/\($0)" })
            server.release()
            #expect(try await calls[index].value.request.path == "/\(index)")
        }
        #expect(server.mostInside == 1)
        #expect(adapter.log.all == (0...6).map { "/\($0)" })
    }

    @Test func aCancelledWaiterLeavesTheLineAndNeverTakesASlot() async throws {
        let server = HoldingServer()
        let adapter = AdaptRecorder()
        let plugin = RecordingPlugin("P")
        let provider = Provider<PathTarget>(
            transport: StubTransport(connectionsPerHost: 1) { await server.handle($0) }, plugins: [plugin],
            interceptors: [adapter])
        let probe = PathTarget("/").baseURL
        let first = start(provider, PathTarget("/first"))
        try await waitUntil("the first request at the server") { server.parkedCount == 1 }
        var waiters: [Task<Response, any Error>] = []
        for (index, path) in ["/a", "/b", "/c"].enumerated() {
            waiters.append(start(provider, PathTarget(path)))
            try await waitUntil("\(path) in line") { provider.admission.status(for: probe).waiting == index + 1 }
        }

        waiters[1].cancel()
        await #expect {
            _ = try await waiters[1].value
        } throws: { ($0 as? NetworkError)?.isCancelled == true }
        #expect(provider.admission.status(for: probe) == .init(running: 1, waiting: 2, holds: 0))

        server.openAll()
        _ = try await first.value
        #expect(try await waiters[0].value.statusCode == 200)
        #expect(try await waiters[2].value.statusCode == 200)
        #expect(server.arrived == ["/first", "/a", "/c"])
        #expect(adapter.log.all == ["/first", "/a", "/c"])
        #expect(plugin.calls.filter { $0 == "willSend#1" }.count == 3)
        #expect(plugin.calls.filter { $0 == "didReceive#1:error" }.count == 1)  // the cancelled one, logged as failed
        #expect(provider.admission.status(for: probe) == .init(running: 0, waiting: 0, holds: 0))
    }

    @Test func cancellingEveryWaiterLeavesNothingBehind() async throws {
        let server = HoldingServer()
        let provider = Provider<PathTarget>(transport: StubTransport(connectionsPerHost: 1) { await server.handle($0) })
        let probe = PathTarget("/").baseURL
        let first = start(provider, PathTarget("/first"))
        try await waitUntil("the first request at the server") { server.parkedCount == 1 }
        let waiters = (0..<20).map { start(provider, PathTarget("/\($0)")) }
        try await waitUntil("20 in line") { provider.admission.status(for: probe).waiting == 20 }
        for waiter in waiters { waiter.cancel() }
        for waiter in waiters { await #expect(throws: NetworkError.self) { _ = try await waiter.value } }
        #expect(provider.admission.status(for: probe) == .init(running: 1, waiting: 0, holds: 0))
        server.release()
        _ = try await first.value
        #expect(server.arrived == ["/first"])
        #expect(provider.admission.status(for: probe) == .init(running: 0, waiting: 0, holds: 0))
        // The slot is free again: the next request goes straight through.
        server.openAll()
        #expect(try await provider.request(PathTarget("/after")).statusCode == 200)
    }

    @Test func eachHostHasItsOwnSlots() async throws {
        let server = HoldingServer()
        let provider = Provider<PathTarget>(transport: StubTransport(connectionsPerHost: 1) { await server.handle($0) })
        let busy = start(provider, PathTarget("/busy", base: "http://one.invalid"))
        try await waitUntil("host one's request at the server") { server.parkedCount == 1 }
        let other = start(provider, PathTarget("/other", base: "http://two.invalid"))
        try await waitUntil("host two's request at the server too") { server.parkedCount == 2 }
        server.openAll()
        _ = try await busy.value
        _ = try await other.value
        #expect(server.mostInside == 2)
    }

    @Test func aTransportWithoutALimitAdmitsEveryone() async throws {
        let server = HoldingServer()
        let provider = Provider<PathTarget>(transport: StubTransport { await server.handle($0) })
        #expect(provider.admission.limit == nil)
        let calls = (0..<25).map { start(provider, PathTarget("/\($0)")) }
        try await waitUntil("all 25 at the server") { server.parkedCount == 25 }
        server.openAll()
        for call in calls { _ = try await call.value }
    }

    @Test func theLimitComesFromTheTransportUnlessGiven() async throws {
        var configuration = LiveTransport.Configuration()
        configuration.maximumConnectionsPerHost = 3
        try await LiveTransport.withTransport(configuration: configuration) { transport in
            #expect(transport.connectionsPerHost == 3)
            #expect(Provider<PathTarget>(transport: transport).admission.limit == 3)
            #expect(Provider<PathTarget>(transport: transport, admission: Admission(limit: 5)).admission.limit == 5)
            #expect(Provider<PathTarget>(transport: transport, admission: Admission(limit: nil)).admission.limit == nil)
        }
        try await LiveTransport.withTransport { #expect($0.connectionsPerHost == 8) }
        #expect(Admission(limit: 0).limit == 1)
    }

    @Test func providersSharingAnAdmissionShareItsLimit() async throws {
        let server = HoldingServer()
        let stub = StubTransport { await server.handle($0) }
        let admission = Admission(limit: 2)
        let one = Provider<PathTarget>(transport: stub, admission: admission)
        let two = Provider<PathTarget>(transport: stub, admission: admission)
        let calls = [start(one, PathTarget("/1")), start(two, PathTarget("/2")), start(one, PathTarget("/3"))]
        let probe = PathTarget("/").baseURL
        try await waitUntil("two at the server, one waiting") {
            server.parkedCount == 2 && admission.status(for: probe).waiting == 1
        }
        server.openAll()
        for call in calls { _ = try await call.value }
        #expect(server.mostInside == 2)
    }

    /// Answers 429 with a retry delay the first time, as a rate-limited server would.
    struct WaitAfter429: Interceptor {
        func retry(_ request: Request, for target: any TargetType, dueTo error: NetworkError, attempt: Int) async throws
            -> RetryDecision
        {
            error.statusCode == 429 && attempt == 1 ? .retryAfter(.seconds(30)) : .doNotRetry
        }
    }

    @Test func aRequestWaitingOutARetryDelayGivesItsSlotBack() async throws {
        let clock = TestClock()
        let limited = Counter()
        let server = HoldingServer { request in
            request.path == "/limited" && limited.next() == 1
                ? .json(#"{"errorCode":"E10"}"#, statusCode: 429) : .json("{}")
        }
        server.openAll()
        let provider = Provider<PathTarget>(
            transport: StubTransport(connectionsPerHost: 1) { await server.handle($0) },
            interceptors: [WaitAfter429()], clock: clock)
        let probe = PathTarget("/").baseURL
        let waiting = start(provider, PathTarget("/limited"))
        try await waitUntil("the 429's retry delay") { clock.sleeperCount == 1 }
        #expect(provider.admission.status(for: probe).running == 0)
        // Its slot is free while it waits: another request goes through meanwhile.
        #expect(try await provider.request(PathTarget("/other")).statusCode == 200)
        clock.advance(by: .seconds(30))
        let response = try await waiting.value
        #expect(response.statusCode == 200 && response.request.attempt == 2)
        #expect(server.arrived == ["/limited", "/other", "/limited"])
    }
}
