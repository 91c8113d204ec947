import Foundation
import Networking
import Synchronization
import TestSupport
import Testing

/// Holding a host's gate while an interceptor refreshes a token: after a server-side expiry, a
/// storm of N requests sends at most K stale tokens and makes one refresh.
@Suite struct AdmissionRefreshTests {
    /// A server whose tokens the test can expire: 401 for any token but the current one.
    actor TokenServer {
        private(set) var current = "t1"
        private var isValid = true
        private(set) var rejected = 0
        private(set) var served = 0
        private(set) var refreshes = 0

        func expire() { isValid = false }

        func handle(_ request: Request) -> StubResponse {
            let token = request.headers["Authorization"]?.replacingOccurrences(of: "Bearer ", with: "")
            guard isValid, token == current else {
                rejected += 1
                return .json(#"{"errorCode":"E04"}"#, statusCode: 401)
            }
            served += 1
            return .json("{}")
        }

        func refresh() -> String {
            refreshes += 1
            current = "t\(refreshes + 1)"
            isValid = true
            return current
        }
    }

    /// The client's token, with at most one refresh at a time, as a session keeps it.
    actor TokenKeeper {
        private(set) var token = "t1"
        private var flight: Task<String, Never>?
        private let refresh: @Sendable () async -> String

        init(refresh: @escaping @Sendable () async -> String) { self.refresh = refresh }

        /// Returns at once if `rejected` was already replaced; else joins or starts the refresh.
        func recover(rejected: String) async {
            guard token == rejected else { return }
            let flight = self.flight ?? Task { await refresh() }
            self.flight = flight
            let fresh = await flight.value
            if self.flight == flight {
                token = fresh
                self.flight = nil
            }
        }
    }

    /// Sets the keeper's token; after a 401, holds the gate while the keeper recovers, then retries once.
    struct RefreshingAuth: Interceptor {
        let keeper: TokenKeeper
        let admission: Admission
        let holdsGate: Bool

        func adapt(_ request: Request, for target: any TargetType) async throws -> Request {
            var request = request
            request.headers["Authorization"] = "Bearer \(await keeper.token)"
            return request
        }

        func retry(_ request: Request, for target: any TargetType, dueTo error: NetworkError, attempt: Int) async throws
            -> RetryDecision
        {
            guard attempt == 1, error.statusCode == 401 else { return .doNotRetry }
            let sent = request.headers["Authorization"]?.replacingOccurrences(of: "Bearer ", with: "") ?? ""
            if holdsGate {
                await admission.hold(hostOf: request.url) { await keeper.recover(rejected: sent) }
            } else {
                await keeper.recover(rejected: sent)
            }
            return .retry
        }
    }

    @Test(arguments: [1, 8])
    func fiftyCallsAfterAServerSideExpiryMakeOneRefreshAndExactlyKRejections(k: Int) async throws {
        let server = TokenServer()
        await server.expire()
        // Every request waits at the door until the test opens it, so the K admitted ones are
        // all on the wire with the old token before the first 401 comes back.
        let door = HoldingServer { await server.handle($0) }
        let keeper = TokenKeeper { await server.refresh() }
        let admission = Admission(limit: k)
        let stub = StubTransport(connectionsPerHost: k) { await door.handle($0) }
        let provider = Provider<PathTarget>(
            transport: stub, interceptors: [RefreshingAuth(keeper: keeper, admission: admission, holdsGate: true)],
            admission: admission)
        let probe = PathTarget("/").baseURL

        let storm = Task {
            try await withThrowingTaskGroup(of: Int.self) { group in
                for index in 0..<50 { group.addTask { try await provider.request(PathTarget("/\(index)")).statusCode } }
                return try await group.reduce(0) { $1 == 200 ? $0 + 1 : $0 }
            }
        }
        try await waitUntil("K requests at the server, the others in line") {
            door.parkedCount == k && admission.status(for: probe).waiting == 50 - k
        }
        #expect(stub.requests.count == k)  // the others have not even taken a token
        door.openAll()

        #expect(try await storm.value == 50)
        #expect(await server.refreshes == 1)
        #expect(await server.rejected == k)  // the K admitted first; nobody after them
        #expect(await server.served == 50)
        #expect(stub.requests.count == 50 + k)
        #expect(admission.status(for: probe) == .init(running: 0, waiting: 0, holds: 0))
    }

    @Test func requestsNotYetAdmittedWaitForTheRefreshEvenWhenASlotIsFree() async throws {
        let server = TokenServer()
        let slow = HoldingServer()
        let refreshStarted = Counter()
        let (refreshGo, letRefreshFinish) = AsyncStream<Void>.makeStream()
        let keeper = TokenKeeper {
            _ = refreshStarted.next()
            for await _ in refreshGo { break }
            return await server.refresh()
        }
        let admission = Admission(limit: 2)
        let stub = StubTransport(connectionsPerHost: 2) { request in
            request.path == "/slow" ? await slow.handle(request) : await server.handle(request)
        }
        let provider = Provider<PathTarget>(
            transport: stub, interceptors: [RefreshingAuth(keeper: keeper, admission: admission, holdsGate: true)],
            admission: admission)
        let probe = PathTarget("/").baseURL

        // One slot busy with a slow request; the other's request gets a 401 and starts the refresh.
        let slowCall = Task { try await provider.request(PathTarget("/slow")) }
        try await waitUntil("the slow request at the server") { slow.parkedCount == 1 }
        await server.expire()
        let first = Task { try await provider.request(PathTarget("/first")) }
        try await waitUntil("the refresh to start") { refreshStarted.count == 1 }
        #expect(admission.status(for: probe).holds == 1)

        // The slow request ends: a slot is free, but the gate is held, so "/late" waits instead
        // of going out with the token the server just rejected.
        slow.openAll()
        _ = try await slowCall.value
        let late = Task { try await provider.request(PathTarget("/late")) }
        try await waitUntil("/late in line") { admission.status(for: probe).waiting == 1 }
        #expect(admission.status(for: probe) == .init(running: 1, waiting: 1, holds: 1))
        #expect(!stub.requests.contains { $0.path == "/late" })

        letRefreshFinish.yield()
        #expect(try await first.value.statusCode == 200)
        #expect(try await late.value.statusCode == 200)
        #expect(await server.rejected == 1)
        #expect(await server.refreshes == 1)
        let lateTokens = stub.requests.filter { $0.path == "/late" }.map { $0.headers["Authorization"] }
        #expect(lateTokens == ["Bearer t2"])
        #expect(admission.status(for: probe) == .init(running: 0, waiting: 0, holds: 0))
        letRefreshFinish.finish()
    }

    @Test func withoutTheHoldTheSameRequestGoesOutWithTheStaleToken() async throws {
        // The control for the test above: same scene, the interceptor does not hold the gate.
        let server = TokenServer()
        let slow = HoldingServer()
        let refreshStarted = Counter()
        let (refreshGo, letRefreshFinish) = AsyncStream<Void>.makeStream()
        let keeper = TokenKeeper {
            _ = refreshStarted.next()
            for await _ in refreshGo { break }
            return await server.refresh()
        }
        let admission = Admission(limit: 2)
        let stub = StubTransport(connectionsPerHost: 2) { request in
            request.path == "/slow" ? await slow.handle(request) : await server.handle(request)
        }
        let provider = Provider<PathTarget>(
            transport: stub, interceptors: [RefreshingAuth(keeper: keeper, admission: admission, holdsGate: false)],
            admission: admission)

        let slowCall = Task { try await provider.request(PathTarget("/slow")) }
        try await waitUntil("the slow request at the server") { slow.parkedCount == 1 }
        await server.expire()
        let first = Task { try await provider.request(PathTarget("/first")) }
        try await waitUntil("the refresh to start") { refreshStarted.count == 1 }
        slow.openAll()
        _ = try await slowCall.value
        let late = Task { try await provider.request(PathTarget("/late")) }
        try await waitUntil("/late rejected and waiting for the refresh") { await server.rejected == 2 }
        letRefreshFinish.yield()
        _ = try await first.value
        _ = try await late.value
        #expect(
            stub.requests.filter { $0.path == "/late" }.map { $0.headers["Authorization"] } == [
                "Bearer t1", "Bearer t2",
            ])
        letRefreshFinish.finish()
    }

    @Test func aHoldKeepsNewRequestsOutUntilItEndsAndLetsAdmittedOnesFinish() async throws {
        let server = HoldingServer()
        let adapter = AdaptRecorder()
        let provider = Provider<PathTarget>(
            transport: StubTransport(connectionsPerHost: 4) { await server.handle($0) }, interceptors: [adapter])
        let probe = PathTarget("/").baseURL
        let admitted = Task { try await provider.request(PathTarget("/admitted")) }
        try await waitUntil("the admitted request at the server") { server.parkedCount == 1 }

        let (go, release) = AsyncStream<Void>.makeStream()
        let hold = Task {
            await provider.admission.hold(hostOf: probe) {
                for await _ in go { break }
            }
        }
        try await waitUntil("the hold") { provider.admission.status(for: probe).holds == 1 }
        let calls = (0..<3).map { index in Task { try await provider.request(PathTarget("/\(index)")) } }
        try await waitUntil("3 in line") { provider.admission.status(for: probe).waiting == 3 }
        server.openAll()
        _ = try await admitted.value  // admitted before the hold: it finishes
        #expect(provider.admission.status(for: probe) == .init(running: 0, waiting: 3, holds: 1))
        #expect(adapter.log.all == ["/admitted"])

        // Another host is not held.
        _ = try await provider.request(PathTarget("/elsewhere", base: "http://other.invalid"))

        release.yield()
        await hold.value
        for call in calls { #expect(try await call.value.statusCode == 200) }
        #expect(adapter.log.all.count == 5)
        #expect(provider.admission.status(for: probe) == .init(running: 0, waiting: 0, holds: 0))
        release.finish()
    }
}
