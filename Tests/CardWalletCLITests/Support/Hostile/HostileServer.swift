import Foundation
import NIOCore
import NIOPosix
import Synchronization

/// A small HTTP/1.1 server on 127.0.0.1 (port 0) that answers as badly as a test asks: every
/// reply is a script of raw bytes and pauses (``HostileReply``), so it can trickle a body or a
/// head one byte at a time, announce a body it never sends, repeat pages, or put control
/// characters and broken tokens anywhere. It is a server, not a mock of the client: the real
/// `cardwallet` binary talks to it over TCP.
///
/// Each connection serves one request and is closed after the reply (`Connection: close`), so
/// a client that gives up shows as a closed connection (``closedConnections``).
final class HostileServer: Sendable {
    /// The base URL the client is given: `http://127.0.0.1:PORT/v1`.
    let baseURL: String
    private let channel: any Channel
    private let handler: @Sendable (HostileRequest) async -> HostileReply
    private let state = Mutex(State())

    private struct State {
        var requests: [HostileRequest] = []
        var closedConnections = 0
        var stopped = false
        var replyTasks: [Task<Void, Never>] = []
    }

    private init(channel: any Channel, handler: @escaping @Sendable (HostileRequest) async -> HostileReply) throws {
        self.channel = channel
        self.handler = handler
        guard let port = channel.localAddress?.port else { throw HostileServerError("no port") }
        baseURL = "http://127.0.0.1:\(port)/v1"
    }

    /// Starts a server that answers each request with what `handler` returns.
    static func start(_ handler: @escaping @Sendable (HostileRequest) async -> HostileReply) async throws
        -> HostileServer
    {
        let box = Mutex<HostileServer?>(nil)
        let channel = try await ServerBootstrap(group: MultiThreadedEventLoopGroup.singleton)
            .serverChannelOption(.backlog, value: 64)
            .serverChannelOption(.socketOption(.so_reuseaddr), value: 1)
            .childChannelInitializer { child in
                child.eventLoop.makeCompletedFuture {
                    guard let server = box.withLock({ $0 }) else { throw HostileServerError("not started") }
                    try child.pipeline.syncOperations.addHandler(HostileConnection(server: server))
                }
            }
            .bind(host: "127.0.0.1", port: 0).get()
        let server = try HostileServer(channel: channel, handler: handler)
        box.withLock { $0 = server }
        return server
    }

    /// Runs `body` with a started server and always stops it.
    static func with<Result>(
        _ handler: @escaping @Sendable (HostileRequest) async -> HostileReply,
        _ body: (HostileServer) async throws -> Result
    ) async throws -> Result {
        let server = try await start(handler)
        do {
            let result = try await body(server)
            await server.stop()
            return result
        } catch {
            await server.stop()
            throw error
        }
    }

    /// Stops listening and ends every reply still running (a trickle, say).
    func stop() async {
        let tasks = state.withLock { state in
            state.stopped = true
            return state.replyTasks
        }
        for task in tasks { task.cancel() }
        try? await channel.close()
        for task in tasks { await task.value }
    }

    /// Every request received so far, in order of arrival.
    var requests: [HostileRequest] { state.withLock { $0.requests } }

    /// The requests whose path starts with `prefix` (e.g. `/v1/cards`).
    func requests(to prefix: String) -> [HostileRequest] { requests.filter { $0.path.hasPrefix(prefix) } }

    /// Connections closed so far (by either side).
    var closedConnections: Int { state.withLock { $0.closedConnections } }

    fileprivate func received(_ request: HostileRequest, on channel: any Channel) {
        let task = Task { [handler] in
            let reply = await handler(request)
            await reply.play(on: channel)
        }
        let stopped = state.withLock { state in
            state.requests.append(request)
            state.replyTasks.append(task)
            return state.stopped
        }
        if stopped { task.cancel() }
    }

    fileprivate func connectionClosed() {
        state.withLock { $0.closedConnections += 1 }
    }
}

/// A request as the server read it.
struct HostileRequest: Sendable {
    /// `GET`, `POST`, …
    var method: String
    /// The path with its query, e.g. `/v1/cards?limit=200&offset=0`.
    var target: String
    /// Header names in lower case, values as sent.
    var headers: [String: String]
    /// The body.
    var body: Data
    /// When it arrived (the test's monotonic clock).
    var arrival: ContinuousClock.Instant

    /// The path without the query.
    var path: String { String(target.prefix { $0 != "?" }) }

    /// The value of the query parameter `name`.
    func query(_ name: String) -> String? {
        URLComponents(string: "http://h" + target)?.queryItems?.first { $0.name == name }?.value
    }
}

struct HostileServerError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}

/// Reads one request from a connection and hands it to the server; notes the close.
private final class HostileConnection: ChannelInboundHandler {
    typealias InboundIn = ByteBuffer

    private let server: HostileServer
    private var buffer = ByteBuffer()
    private var served = false

    init(server: HostileServer) { self.server = server }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        var chunk = unwrapInboundIn(data)
        buffer.writeBuffer(&chunk)
        guard !served, let request = Self.parse(buffer) else { return }
        served = true
        server.received(request, on: context.channel)
    }

    func channelInactive(context: ChannelHandlerContext) {
        server.connectionClosed()
        context.fireChannelInactive()
    }

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        context.close(promise: nil)
    }

    /// A whole request (head and `Content-Length` body) from `buffer`, or `nil` for not yet.
    static func parse(_ buffer: ByteBuffer) -> HostileRequest? {
        let bytes = Array(buffer.readableBytesView)
        let marker: [UInt8] = [13, 10, 13, 10]
        guard let end = bytes.indices.dropLast(3).first(where: { Array(bytes[$0..<$0 + 4]) == marker }) else {
            return nil
        }
        let head = String(decoding: bytes[..<end], as: UTF8.self).components(separatedBy: "\r\n")
        let start = head.first?.split(separator: " ") ?? []
        guard start.count >= 2 else { return nil }
        var headers: [String: String] = [:]
        for line in head.dropFirst() {
            guard let colon = line.firstIndex(of: ":") else { continue }
            headers[line[..<colon].lowercased()] = line[line.index(after: colon)...].trimmingCharacters(
                in: .whitespaces)
        }
        let length = Int(headers["content-length"] ?? "0") ?? 0
        let bodyStart = end + 4
        guard bytes.count - bodyStart >= length else { return nil }
        return HostileRequest(
            method: String(start[0]), target: String(start[1]), headers: headers,
            body: Data(bytes[bodyStart..<bodyStart + length]), arrival: .now)
    }
}
