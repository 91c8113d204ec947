import Foundation
import Networking
import Synchronization

/// A fake server for a `StubTransport` that keeps every request until the test lets it answer,
/// and remembers the order requests arrived in and how many it held at once.
final class HoldingServer: Sendable {
    private struct Parked {
        let path: String
        let continuation: CheckedContinuation<Void, Never>
    }

    private struct State {
        var arrived: [String] = []
        var parked: [Parked] = []
        var released = 0
        var inside = 0
        var mostInside = 0
        var passThrough = false
    }

    private let state = Mutex(State())
    private let answer: @Sendable (Request) async -> StubResponse

    /// A server answering with `answer` once a request is let through (200 `{}` by default).
    init(answer: @escaping @Sendable (Request) async -> StubResponse = { _ in .json("{}") }) {
        self.answer = answer
    }

    /// The paths of the requests that reached the server, in arrival order.
    var arrived: [String] { state.withLock { $0.arrived } }
    /// How many requests wait for ``release(_:)`` now.
    var parkedCount: Int { state.withLock { $0.parked.count } }
    /// The most requests the server held at once.
    var mostInside: Int { state.withLock { $0.mostInside } }

    /// Lets the `count` requests that arrived first (of those still parked) answer.
    func release(_ count: Int = 1) {
        let released = state.withLock { state -> [Parked] in
            let taken = Array(state.parked.prefix(count))
            state.parked.removeFirst(taken.count)
            return taken
        }
        for parked in released { parked.continuation.resume() }
    }

    /// Lets everything parked answer, and every later request answer at once.
    func openAll() {
        let released = state.withLock { state -> [Parked] in
            state.passThrough = true
            defer { state.parked.removeAll() }
            return state.parked
        }
        for parked in released { parked.continuation.resume() }
    }

    /// The transport's closure.
    func handle(_ request: Request) async -> StubResponse {
        await withCheckedContinuation { continuation in
            let pass = state.withLock { state -> Bool in
                state.arrived.append(request.path)
                state.inside += 1
                state.mostInside = max(state.mostInside, state.inside)
                if state.passThrough { return true }
                state.parked.append(Parked(path: request.path, continuation: continuation))
                return false
            }
            if pass { continuation.resume() }
        }
        let response = await answer(request)
        state.withLock { $0.inside -= 1 }
        return response
    }
}

/// Records the paths an interceptor adapted, in order.
struct AdaptRecorder: Interceptor {
    let log = SharedLog()

    func adapt(_ request: Request, for target: any TargetType) async throws -> Request {
        log.append(request.path)
        return request
    }
}

/// A target of the stub host with any path.
struct PathTarget: TargetType, AccessTokenAuthorizable {
    var baseURL: URL = URL(string: "http://stub.invalid")!
    var path: String
    var method: HTTPMethod { .get }
    var body: RequestBody { .plain }
    var authorizationType: AuthorizationType? { .bearer }

    init(_ path: String, base: String = "http://stub.invalid") {
        self.path = path
        self.baseURL = URL(string: base)!
    }
}

/// A thread-safe counter: `next()` returns 1, 2, 3, …
final class Counter: Sendable {
    private let value = Mutex(0)

    func next() -> Int {
        value.withLock { value in
            value += 1
            return value
        }
    }

    var count: Int { value.withLock { $0 } }
}
