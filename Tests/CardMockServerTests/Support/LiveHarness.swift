import AsyncHTTPClient
import CardMockServer
import CardModels
import Foundation
import NIOCore
import NIOFoundationEssentialsCompat
import NIOHTTP1
import Testing

/// A live server on 127.0.0.1 port 0 and an HTTP client for it.
struct LiveServer: Sendable {
    let server: RunningMockServer

    static func start(
        _ configuration: MockServerConfiguration = .testing, clock: any WallClock = SystemWallClock()
    ) async throws -> LiveServer {
        LiveServer(server: try await MockServer.start(configuration: configuration, clock: clock))
    }

    /// Runs `body` against a fresh server and always stops it.
    static func with(
        _ configuration: MockServerConfiguration = .testing, clock: any WallClock = SystemWallClock(),
        _ body: (LiveServer) async throws -> Void
    ) async throws {
        let live = try await start(configuration, clock: clock)
        do {
            try await body(live)
        } catch {
            await live.server.stop()
            throw error
        }
        await live.server.stop()
    }

    struct Reply: Sendable {
        var status: Int
        var headers: [String: String]
        var body: Data

        func data<T: Codable & Sendable>(_ type: T.Type) throws -> T {
            try CardWalletJSON.decoder().decode(SuccessEnvelope<T>.self, from: body).data
        }

        func failure() throws -> ErrorEnvelope {
            try CardWalletJSON.decoder().decode(ErrorEnvelope.self, from: body)
        }
    }

    func send(
        _ method: HTTPMethod, _ path: String, token: String? = nil, headers: [String: String] = [:],
        body: HTTPClientRequest.Body? = nil, timeout: TimeAmount = .seconds(30)
    ) async throws -> Reply {
        var request = HTTPClientRequest(url: server.baseURLString + path)
        request.method = method
        if let token { request.headers.add(name: "Authorization", value: "Bearer \(token)") }
        for (name, value) in headers { request.headers.add(name: name, value: value) }
        if let body { request.body = body }
        let response = try await HTTPClient.shared.execute(request, timeout: timeout)
        let bytes = try await response.body.collect(upTo: 16 * 1024 * 1024)
        var replyHeaders: [String: String] = [:]
        for header in response.headers { replyHeaders[header.name.lowercased()] = header.value }
        return Reply(status: Int(response.status.code), headers: replyHeaders, body: Data(buffer: bytes))
    }

    func login(_ email: String = Seeds.demoEmail, _ password: String = Seeds.demoPassword) async throws -> TokenGrant {
        let body = try CardWalletJSON.encoder().encode(LoginRequest(email: email, password: password))
        let reply = try await send(
            .POST, "/auth/login", headers: ["Content-Type": "application/json"], body: .bytes(ByteBuffer(bytes: body)))
        return try reply.data(TokenGrant.self)
    }

    func upload(_ form: MultipartForm, token: String, declaredLength: Bool = true) async throws -> Reply {
        let body: HTTPClientRequest.Body =
            declaredLength
            ? .bytes(ByteBuffer(bytes: form.body))
            : .stream(ChunkedBytes(data: form.body), length: .unknown)
        return try await send(.POST, "/card", token: token, headers: ["Content-Type": form.contentType], body: body)
    }
}

/// Bytes as an async sequence of 64 KiB chunks, for uploads without a Content-Length.
struct ChunkedBytes: AsyncSequence, Sendable {
    typealias Element = ByteBuffer
    let data: Data

    struct AsyncIterator: AsyncIteratorProtocol {
        let data: Data
        var offset = 0
        mutating func next() async -> ByteBuffer? {
            guard offset < data.count else { return nil }
            let end = Swift.min(offset + 64 * 1024, data.count)
            defer { offset = end }
            return ByteBuffer(bytes: data[data.startIndex + offset..<data.startIndex + end])
        }
    }

    func makeAsyncIterator() -> AsyncIterator { AsyncIterator(data: data) }
}
