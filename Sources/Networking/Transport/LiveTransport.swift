public import AsyncHTTPClient
import Foundation
import NIOCore
import NIOFoundationCompat
import NIOHTTP1
import Synchronization

/// The transport that speaks HTTP/1.1 and HTTP/2 through one shared AsyncHTTPClient: pooled
/// connections, connect and read timeouts, streamed uploads and downloads.
///
/// Create one per program and share it between providers; call ``shutdown()`` when done (or use
/// ``withTransport(configuration:_:)``). A transport dropped without `shutdown()` shuts its
/// client down in the background rather than leaking it. Cancelling the calling task cancels
/// the exchange on the wire.
public final class LiveTransport: Transport {
    /// Timeouts, pool size and limits.
    public struct Configuration: Sendable {
        /// The most time to open a connection. Default: 10 s.
        public var connectTimeout: Duration = .seconds(10)
        /// The most time to wait for the next bytes from the server. Default: 30 s.
        public var readTimeout: Duration = .seconds(30)
        /// The most time a whole exchange may take when the request sets no timeout. Default: 120 s.
        public var requestTimeout: Duration = .seconds(120)
        /// The connections kept per host. Default: 8.
        public var maximumConnectionsPerHost: Int = 8
        /// How long an idle pooled connection is kept. Default: 60 s.
        public var idleConnectionTimeout: Duration = .seconds(60)
        /// The largest response body kept in memory (downloads to a file are not limited). Default: 32 MiB.
        public var maximumResponseBodySize: Int = 32 * 1024 * 1024
        /// The chunk size for streaming file uploads. Default: 64 KiB.
        public var uploadChunkSize: Int = 64 * 1024
        /// Whether to follow redirects (at most 5, no cycles). Default: `false`, so credentials are
        /// never replayed to another URL behind the caller's back; a 3xx is then a response.
        public var followsRedirects: Bool = false
        /// Whether a refused or failed connection is retried until the request's deadline.
        /// Default: `false`, so "connection refused" is reported at once.
        public var retriesConnectionEstablishment: Bool = false

        /// The defaults.
        public init() {}
    }

    /// The configuration this transport was made with.
    public let configuration: Configuration
    /// The connections kept per host: ``Configuration/maximumConnectionsPerHost`` (for a client
    /// you own, give the configuration your client's pool size). A ``Provider`` admits that many
    /// requests per host at once by default. (An HTTP/2 server multiplexes more on one connection; give such a
    /// provider a larger ``Admission`` of its own.)
    public let connectionsPerHost: Int?
    let client: HTTPClient
    private let ownsClient: Bool
    private let isShutDown = Atomic(false)

    /// A transport with its own client on NIO's shared event loops.
    public init(configuration: Configuration = Configuration()) {
        var settings = HTTPClient.Configuration()
        settings.timeout = .init(
            connect: .init(configuration.connectTimeout), read: .init(configuration.readTimeout))
        settings.connectionPool = .init(
            idleTimeout: .init(configuration.idleConnectionTimeout),
            concurrentHTTP1ConnectionsPerHostSoftLimit: configuration.maximumConnectionsPerHost)
        settings.connectionPool.retryConnectionEstablishment = configuration.retriesConnectionEstablishment
        settings.redirectConfiguration =
            configuration.followsRedirects ? .follow(max: 5, allowCycles: false) : .disallow
        settings.decompression = .disabled
        self.client = HTTPClient(eventLoopGroup: HTTPClient.defaultEventLoopGroup, configuration: settings)
        self.configuration = configuration
        self.connectionsPerHost = configuration.maximumConnectionsPerHost
        self.ownsClient = true
    }

    /// A transport over a client you own; ``shutdown()`` leaves that client running.
    /// Only ``Configuration/requestTimeout``, ``Configuration/maximumResponseBodySize`` and
    /// ``Configuration/uploadChunkSize`` apply, and ``Configuration/maximumConnectionsPerHost`` as
    /// what ``connectionsPerHost`` reports; the rest is the client's own configuration.
    public init(client: HTTPClient, configuration: Configuration = Configuration()) {
        self.client = client
        self.configuration = configuration
        self.connectionsPerHost = configuration.maximumConnectionsPerHost
        self.ownsClient = false
    }

    /// Runs `body` with a new transport and shuts it down afterwards, whatever happens.
    @discardableResult
    public static func withTransport<Result: Sendable>(
        configuration: Configuration = Configuration(),
        _ body: (LiveTransport) async throws -> Result
    ) async throws -> Result {
        let transport = LiveTransport(configuration: configuration)
        do {
            let result = try await body(transport)
            try await transport.shutdown()
            return result
        } catch {
            try? await transport.shutdown()
            throw error
        }
    }

    /// Closes pooled connections and stops the client (when this transport created it).
    /// Requests still in flight fail; call once, when no more requests will be made.
    public func shutdown() async throws {
        guard ownsClient, !isShutDown.exchange(true, ordering: .relaxed) else { return }
        try await client.shutdown()
    }

    deinit {
        guard ownsClient, !isShutDown.load(ordering: .relaxed) else { return }
        // The task keeps the client alive until it has closed its connections.
        Task { [client] in try? await client.shutdown() }
    }

    /// Sends `request` over HTTP and returns the response, whatever its status.
    ///
    /// - Throws: ``NetworkError`` — `.transport` for connection failures and timeouts,
    ///   `.cancelled` if the task was cancelled, `.invalidRequest` for a bad URL or upload file.
    public func send(_ request: Request) async throws -> Response {
        let deadline = NIODeadline.now() + TimeAmount(request.timeout ?? configuration.requestTimeout)
        do {
            let files = request.body.filePaths
            if files.isEmpty, request.downloadDestination == nil {
                return try await collect(request, deadline: deadline)
            }
            var outgoing = HTTPClientRequest(url: request.url.absoluteString)
            outgoing.method = NIOHTTP1.HTTPMethod(rawValue: request.method.rawValue)
            outgoing.headers = request.headers.storage
            if files.isEmpty {
                if let buffer = request.body.inMemoryBuffer, buffer.readableBytes > 0 { outgoing.body = .bytes(buffer) }
                return try await exchange(outgoing, for: request, deadline: deadline)
            }
            return try await FileStreaming.withReadHandles(files) { handles in
                var streamed = outgoing
                streamed.body = .stream(
                    SegmentedBody(
                        segments: request.body.segments, handles: handles, chunkSize: configuration.uploadChunkSize),
                    length: .known(request.body.length))
                return try await exchange(streamed, for: request, deadline: deadline)
            }
        } catch {
            throw Self.networkError(for: error, request: request, configuration: configuration, phase: .head)
        }
    }

    /// Sends a request with an in-memory body (or none) and keeps the answer in memory: the
    /// usual case, on AsyncHTTPClient's delegate API, whose deadline bounds the whole exchange,
    /// body included, with no task of ours (see ``ResponseCollector``).
    private func collect(_ request: Request, deadline: NIODeadline) async throws -> Response {
        let method = NIOHTTP1.HTTPMethod(rawValue: request.method.rawValue)
        var body: HTTPClient.Body?
        if let buffer = request.body.inMemoryBuffer, buffer.readableBytes > 0 { body = .byteBuffer(buffer) }
        let outgoing = try HTTPClient.Request(
            url: request.url, method: method, headers: request.headers.storage, body: body)
        let collector = ResponseCollector(limit: configuration.maximumResponseBodySize, checksLength: method != .HEAD)
        let task = client.execute(request: outgoing, delegate: collector, deadline: deadline)
        let answer: ResponseCollector.Answer
        do {
            answer = try await withTaskCancellationHandler {
                try await task.futureResult.get()
            } onCancel: {
                task.cancel()
            }
        } catch {
            // Without a head, the outer mapping describes it (connecting, sending, waiting).
            guard let statusCode = collector.statusCode else { throw error }
            let cause = (error as? HTTPClientError) == .deadlineExceeded ? BodyDeadlineExceeded() : error
            throw Self.networkError(
                for: cause, request: request, configuration: configuration, phase: .body(statusCode: statusCode))
        }
        return Response(
            statusCode: Int(answer.head.status.code), headers: Headers(storage: answer.head.headers),
            body: answer.body.map { Data(buffer: $0, byteTransferStrategy: .automatic) } ?? Data(), request: request)
    }

    /// Sends a request that streams a file up or an answer down to a file.
    private func exchange(_ outgoing: HTTPClientRequest, for request: Request, deadline: NIODeadline) async throws
        -> Response
    {
        // AsyncHTTPClient's deadline covers the exchange only until the response head arrives;
        // the body is read under the same deadline here, so a server that sends its headers and
        // then one byte a second cannot hold the request (or a token refresh, and the token
        // file's lock with it) past its timeout.
        let answer = try await client.execute(outgoing, deadline: deadline)
        let statusCode = Int(answer.status.code)
        let headers = Headers(storage: answer.headers)
        do {
            if let destination = request.downloadDestination, (200..<300).contains(statusCode) {
                let written = try await beforeDeadline(deadline) {
                    try await FileStreaming.write(answer.body, to: destination)
                }
                return Response(
                    statusCode: statusCode, headers: headers, request: request,
                    download: DownloadedFile(url: destination.url, byteCount: written))
            }
            let limit = configuration.maximumResponseBodySize
            let buffer = try await beforeDeadline(deadline) { try await answer.body.collect(upTo: limit) }
            return Response(
                statusCode: statusCode, headers: headers, body: Data(buffer: buffer, byteTransferStrategy: .automatic),
                request: request)
        } catch {
            throw Self.networkError(
                for: error, request: request, configuration: configuration, phase: .body(statusCode: statusCode))
        }
    }

    /// Runs `operation`; when `deadline` passes first, cancels it (which closes the connection)
    /// and throws ``BodyDeadlineExceeded``.
    ///
    /// The deadline is a timer on one of the client's event loops (a heap entry, cancelled when
    /// the body is in), not a racing child task sleeping on Swift's clock. Only the streamed
    /// exchanges (upload files, downloads) pay for the task this needs: it cost about 25 µs per
    /// request, 8 % of a `GET /card` on loopback, before in-memory answers moved to
    /// ``collect(_:deadline:)`` (docs/BENCHMARKS.md §1).
    func beforeDeadline<Value: Sendable>(
        _ deadline: NIODeadline, _ operation: @escaping @Sendable () async throws -> Value
    ) async throws -> Value {
        let work = Task { try await operation() }
        let expired = DeadlineFlag()
        let timer = client.eventLoopGroup.any().scheduleTask(deadline: deadline) {
            expired.passed.store(true, ordering: .releasing)
            work.cancel()
        }
        defer { timer.cancel() }
        do {
            return try await withTaskCancellationHandler {
                try await work.value
            } onCancel: {
                work.cancel()
            }
        } catch {
            if expired.passed.load(ordering: .acquiring) { throw BodyDeadlineExceeded() }
            throw error
        }
    }
}

/// Whether a body's deadline timer fired.
private final class DeadlineFlag: Sendable {
    let passed = Atomic<Bool>(false)
}

/// The response body was still arriving when the request's deadline passed.
struct BodyDeadlineExceeded: Error {}

extension TimeAmount {
    init(_ duration: Duration) {
        let (seconds, attoseconds) = duration.components
        let nanoseconds = seconds.multipliedReportingOverflow(by: 1_000_000_000)
        self =
            nanoseconds.overflow
            ? .nanoseconds(.max) : .nanoseconds(nanoseconds.partialValue + attoseconds / 1_000_000_000)
    }
}
