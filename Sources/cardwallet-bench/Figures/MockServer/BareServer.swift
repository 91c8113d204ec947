import HTTPTypes
import Hummingbird
import Logging
import NIOCore
import ServiceLifecycle

/// The baseline for the mock server: a plain Hummingbird router on 127.0.0.1 that answers
/// fixed paths with fixed bytes from memory. No middleware, no authentication, no JSON work —
/// the most this machine's Hummingbird can do for the same responses.
final class BareServer: Sendable {
    /// A fixed answer.
    struct Reply: Sendable {
        /// `Content-Type` of the answer.
        var contentType: String
        /// The body, sent as is.
        var body: ByteBuffer
    }

    /// The port it listens on.
    let port: Int
    private let group: ServiceGroup
    private let task: Task<Void, any Error>

    private init(port: Int, group: ServiceGroup, task: Task<Void, any Error>) {
        self.port = port
        self.group = group
        self.task = task
    }

    /// Starts a server answering `GET path` with `replies[path]`, on a free port.
    ///
    /// - Throws: ``BenchError`` when it does not start listening.
    static func start(replies: [String: Reply]) async throws -> BareServer {
        let router = Router()
        for (path, reply) in replies {
            var headers = HTTPFields()
            headers[.contentType] = reply.contentType
            let response = Response(status: .ok, headers: headers, body: ResponseBody(byteBuffer: reply.body))
            router.get(RouterPath(path)) { _, _ in response }
        }
        let (ports, continuation) = AsyncStream<Int>.makeStream()
        let logger = Logger(label: "cardwallet-bench.bare", factory: { _ in SwiftLogNoOpLogHandler() })
        let application = Application(
            router: router,
            configuration: ApplicationConfiguration(address: .hostname("127.0.0.1", port: 0)),
            onServerRunning: { channel in
                continuation.yield(channel.localAddress?.port ?? 0)
                continuation.finish()
            },
            logger: logger)
        let group = ServiceGroup(
            configuration: ServiceGroupConfiguration(
                services: [application], gracefulShutdownSignals: [], logger: logger))
        let task = Task {
            defer { continuation.finish() }
            try await group.run()
        }
        var iterator = ports.makeAsyncIterator()
        guard let port = await iterator.next(), port > 0 else {
            await group.triggerGracefulShutdown()
            _ = await task.result
            throw BenchError("the bare Hummingbird server did not start listening on 127.0.0.1")
        }
        return BareServer(port: port, group: group, task: task)
    }

    /// Stops it and waits until it is down.
    func stop() async {
        await group.triggerGracefulShutdown()
        _ = await task.result
    }
}
