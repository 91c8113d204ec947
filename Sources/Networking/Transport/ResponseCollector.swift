import AsyncHTTPClient
import NIOCore
import NIOHTTP1
import Synchronization

/// Collects one response in memory as AsyncHTTPClient hands it over on the connection's event
/// loop: the head, then the body up to a limit.
///
/// This is how ``LiveTransport`` reads an answer it keeps in memory (the usual case: no upload
/// file, no download). Through this delegate API the request's deadline is AsyncHTTPClient's own
/// timer for the whole exchange, body included, so the request needs no task of its own to
/// bound the body (the `HTTPClientRequest` API's deadline ends when the head arrives). It also
/// takes the request's `URL` as it is rather than parsing its text again.
final class ResponseCollector: HTTPClientResponseDelegate {
    /// The head and the body (`nil` for an empty one) of a complete answer.
    struct Answer: Sendable {
        var head: HTTPResponseHead
        var body: ByteBuffer?
    }

    private struct State {
        var head: HTTPResponseHead?
        var body: ByteBuffer?
    }

    private let limit: Int
    private let checksLength: Bool
    private let state = Mutex(State())

    /// A collector keeping at most `limit` body bytes; `checksLength` says whether an announced
    /// `Content-Length` above the limit fails at once (not for `HEAD`, whose answer has no body).
    init(limit: Int, checksLength: Bool) {
        self.limit = limit
        self.checksLength = checksLength
    }

    /// The status of the answer once its head arrived: the exchange failed while the body was
    /// being read. `nil` before.
    var statusCode: Int? {
        state.withLock { $0.head.map { Int($0.status.code) } }
    }

    func didReceiveHead(task: HTTPClient.Task<Answer>, _ head: HTTPResponseHead) -> EventLoopFuture<Void> {
        state.withLock { $0.head = head }
        if checksLength, let announced = head.headers.first(name: "Content-Length").flatMap({ Int($0) }),
            announced > limit
        {
            return task.eventLoop.makeFailedFuture(NIOTooManyBytesError(maxBytes: limit))
        }
        return task.eventLoop.makeSucceededVoidFuture()
    }

    func didReceiveBodyPart(task: HTTPClient.Task<Answer>, _ buffer: ByteBuffer) -> EventLoopFuture<Void> {
        let fits = state.withLock { state -> Bool in
            guard var body = state.body else {
                guard buffer.readableBytes <= limit else { return false }
                state.body = buffer  // the first part is kept as it is, not copied
                return true
            }
            guard body.readableBytes + buffer.readableBytes <= limit else { return false }
            state.body = nil  // so appending does not copy the storage
            var part = buffer
            body.writeBuffer(&part)
            state.body = body
            return true
        }
        guard fits else { return task.eventLoop.makeFailedFuture(NIOTooManyBytesError(maxBytes: limit)) }
        return task.eventLoop.makeSucceededVoidFuture()
    }

    func didFinishRequest(task: HTTPClient.Task<Answer>) throws -> Answer {
        try state.withLock { state in
            guard let head = state.head else { throw HTTPClientError.remoteConnectionClosed }
            return Answer(head: head, body: state.body)
        }
    }
}
