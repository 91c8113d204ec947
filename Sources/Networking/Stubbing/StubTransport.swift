import Foundation
import NIOCore
import Synchronization

/// A transport that answers from a closure instead of the network: a fake server for tests.
///
/// The closure may be stateful (capture an actor) and sees every ``Request`` as sent, after
/// plugins and interceptors; the transport records them in ``requests``. Responses travel back
/// through the same validation, interceptors and plugins as live ones.
///
/// ```swift
/// let server = StubTransport { request in
///     request.headers["Authorization"] == "Bearer fresh" ? .json(#"{"ok":true}"#)
///                                                          : .json(#"{"errorCode":"E04"}"#, statusCode: 401)
/// }
/// let provider = Provider<CardService>(transport: server)
/// ```
public final class StubTransport: Transport {
    private let respond: @Sendable (Request) async throws -> StubResponse
    private let delay: Duration?
    private let clock: any Clock<Duration>
    private let recorded = Mutex<[Request]>([])
    /// The connections per host this stub claims to have, so a provider on it admits that many
    /// requests per host at once (`nil`: no limit, the default).
    public let connectionsPerHost: Int?

    /// A stub answering with `respond`, after `delay` on `clock` if given.
    ///
    /// - Parameter connectionsPerHost: what the stub reports as its connections per host, for
    ///   tests of a provider's ``Admission`` (`nil`: no limit).
    public init(
        connectionsPerHost: Int? = nil,
        delay: Duration? = nil,
        clock: any Clock<Duration> = ContinuousClock(),
        respond: @escaping @Sendable (Request) async throws -> StubResponse
    ) {
        self.connectionsPerHost = connectionsPerHost
        self.respond = respond
        self.delay = delay
        self.clock = clock
    }

    /// A stub giving the same answer to every request.
    public convenience init(_ response: StubResponse) {
        self.init { _ in response }
    }

    /// Every request sent so far, in order.
    public var requests: [Request] { recorded.withLock { $0 } }

    /// Forgets the recorded requests.
    public func clearRequests() { recorded.withLock { $0.removeAll() } }

    /// Records `request`, waits the delay, and answers.
    public func send(_ request: Request) async throws -> Response {
        try Task.checkCancellation()
        recorded.withLock { $0.append(request) }
        if let delay { try await clock.sleep(for: delay) }
        let response = try await respond(request)
        try Task.checkCancellation()
        return try await response.resolve(for: request)
    }
}

/// The stub a provider uses for a stubbed target: the target's sample response, maybe delayed.
struct TargetStubTransport<Target: TargetType>: Transport {
    let target: Target
    let delay: Duration?
    let clock: any Clock<Duration>
    let response: @Sendable (Target, Request) async throws -> StubResponse

    func send(_ request: Request) async throws -> Response {
        try Task.checkCancellation()
        if let delay { try await clock.sleep(for: delay) }
        let stub = try await response(target, request)
        try Task.checkCancellation()
        return try await stub.resolve(for: request)
    }
}

/// An async sequence of one buffer.
struct AsyncSingleChunk: AsyncSequence, Sendable {
    let chunk: ByteBuffer

    struct AsyncIterator: AsyncIteratorProtocol {
        var chunk: ByteBuffer?
        mutating func next() async -> ByteBuffer? {
            defer { chunk = nil }
            return chunk
        }
    }

    func makeAsyncIterator() -> AsyncIterator { AsyncIterator(chunk: chunk) }
}
