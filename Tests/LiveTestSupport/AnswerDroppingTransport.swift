public import Networking
import Synchronization

/// A transport that delivers every request through another one but, for the requests it is
/// told to, throws the answer away and fails as a connection lost before the answer came: the
/// server did the work, the client never heard (a timeout, a broken connection).
public final class AnswerDroppingTransport: Transport {
    private let live: any Transport
    private let drops: @Sendable (Request) -> Bool
    private let dropped = Mutex(0)

    /// Drops the answers to the requests `drops` picks (it sees each request once, in order).
    public init(_ live: any Transport, drops: @escaping @Sendable (Request) -> Bool) {
        self.live = live
        self.drops = drops
    }

    /// Drops the answers to the first `count` card creates (`POST …/card`).
    public static func droppingCreates(_ count: Int = 1, through live: any Transport) -> AnswerDroppingTransport {
        let creates = Mutex(0)
        return AnswerDroppingTransport(live) { request in
            guard request.method == .post, request.path.hasSuffix("/card") else { return false }
            return creates.withLock { seen in
                seen += 1
                return seen <= count
            }
        }
    }

    /// How many answers were dropped so far.
    public var droppedAnswers: Int { dropped.withLock { $0 } }

    /// The other transport's connections per host.
    public var connectionsPerHost: Int? { live.connectionsPerHost }

    /// Sends through the other transport; a picked request's answer is dropped.
    public func send(_ request: Request) async throws -> Response {
        let response = try await live.send(request)
        guard drops(request) else { return response }
        dropped.withLock { $0 += 1 }
        throw NetworkError.transport(
            TransportFailure(
                kind: .connectionLost, request: request, reason: "the connection was lost before the answer came",
                underlying: nil))
    }
}
