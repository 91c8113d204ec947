// The in-process HTTP server the live tests talk to. This file does not import Networking:
// Hummingbird's `Request`/`Response` would clash with ours.
import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import Logging
import NIOCore
import NIOFoundationEssentialsCompat
import Synchronization

/// What the server saw, and the switches tests use to make it stall.
final class ServerProbe: Sendable {
    struct Seen: Sendable {
        var method: String
        var path: String
        var query: String
        var headers: [(name: String, value: String)]
        var body: Data

        func header(_ name: String) -> String? {
            headers.first { $0.name.lowercased() == name.lowercased() }?.value
        }
    }

    struct Upload: Sendable, Equatable {
        var bytes: Int64 = 0
        var chunks = 0
        var largestChunk = 0
        var markers: [Int64: UInt8] = [:]
    }

    private let seenRequests = Mutex<[Seen]>([])
    private let stalled = Mutex(0)
    private let gateState = Mutex<(open: Bool, waiters: [CheckedContinuation<Void, Never>])>((false, []))
    let markerOffsets: [Int64]

    init(markerOffsets: [Int64] = []) { self.markerOffsets = markerOffsets }

    var requests: [Seen] { seenRequests.withLock { $0 } }
    /// How many handlers are waiting at the gate right now.
    var stalledCount: Int { stalled.withLock { $0 } }

    func record(_ seen: Seen) { seenRequests.withLock { $0.append(seen) } }

    /// Waits until the test opens the gate.
    func waitAtGate() async {
        stalled.withLock { $0 += 1 }
        await withCheckedContinuation { continuation in
            let open = gateState.withLock { state -> Bool in
                if state.open { return true }
                state.waiters.append(continuation)
                return false
            }
            if open { continuation.resume() }
        }
        stalled.withLock { $0 -= 1 }
    }

    /// Releases every stalled handler, now and later.
    func openGate() {
        let waiters = gateState.withLock { state -> [CheckedContinuation<Void, Never>] in
            state.open = true
            defer { state.waiters = [] }
            return state.waiters
        }
        for waiter in waiters { waiter.resume() }
    }
}

enum TestServer {
    /// Runs a server on 127.0.0.1, port 0, for the duration of `body`, which gets the port.
    @discardableResult
    static func run<Value: Sendable>(
        probe: ServerProbe = ServerProbe(),
        _ body: @Sendable @escaping (_ port: Int, _ probe: ServerProbe) async throws -> Value
    ) async throws -> Value {
        let app = Application(
            router: makeRouter(probe),
            configuration: .init(address: .hostname("127.0.0.1", port: 0)),
            logger: Logger(label: "test-server", factory: { _ in SwiftLogNoOpLogHandler() }))
        return try await app.test(.live) { client in
            do {
                let value = try await body(client.port ?? 0, probe)
                probe.openGate()
                return value
            } catch {
                probe.openGate()
                throw error
            }
        }
    }

    private static func seen(_ request: Request, body: Data) -> ServerProbe.Seen {
        ServerProbe.Seen(
            method: request.method.rawValue, path: request.uri.path, query: request.uri.query ?? "",
            headers: request.headers.map { ($0.name.rawName, $0.value) }, body: body)
    }

    private static func json(_ object: Any, status: HTTPResponse.Status = .ok, headers: HTTPFields = [:]) -> Response {
        let data = (try? JSONSerialization.data(withJSONObject: object, options: [.sortedKeys])) ?? Data()
        var fields = headers
        fields[.contentType] = "application/json"
        return Response(status: status, headers: fields, body: .init(byteBuffer: ByteBuffer(bytes: data)))
    }

    static func makeRouter(_ probe: ServerProbe) -> Router<BasicRequestContext> {
        let router = Router()
        let echo: @Sendable (Request, BasicRequestContext) async throws -> Response = { request, _ in
            let body = try await request.body.collect(upTo: 16 * 1024 * 1024)
            let data = Data(buffer: body)
            probe.record(seen(request, body: data))
            var headers: [String: [String]] = [:]
            for field in request.headers { headers[field.name.canonicalName, default: []].append(field.value) }
            return json([
                "method": request.method.rawValue, "path": request.uri.path, "query": request.uri.query ?? "",
                "headers": headers, "body": data.base64EncodedString(), "bodyBytes": data.count,
            ])
        }
        for method in [HTTPRequest.Method.get, .post, .put, .patch, .delete] {
            router.on("/echo", method: method, use: echo)
        }
        router.get("/status/:code") { request, context -> Response in
            probe.record(seen(request, body: Data()))
            let code = context.parameters.get("code", as: Int.self) ?? 500
            if code >= 400 {
                return json(["errorCode": "E\(code)", "message": "status \(code)"], status: .init(code: code))
            }
            return json(["ok": true], status: .init(code: code))
        }
        router.get("/headers") { request, _ -> Response in
            probe.record(seen(request, body: Data()))
            var fields = HTTPFields()
            fields[HTTPField.Name("X-Custom")!] = "custom value"
            fields.append(HTTPField(name: .setCookie, value: "a=1"))
            fields.append(HTTPField(name: .setCookie, value: "b=2"))
            return Response(status: .ok, headers: fields, body: .init(byteBuffer: ByteBuffer(string: "hello")))
        }
        router.get("/hang") { request, _ -> Response in
            probe.record(seen(request, body: Data()))
            await probe.waitAtGate()
            return Response(status: .ok, body: .init(byteBuffer: ByteBuffer(string: "late")))
        }
        router.get("/drip") { request, _ -> Response in
            probe.record(seen(request, body: Data()))
            return Response(
                status: .ok,
                body: ResponseBody { writer in
                    try await writer.write(ByteBuffer(string: "first chunk;"))
                    await probe.waitAtGate()
                    try await writer.write(ByteBuffer(string: "second chunk"))
                    try await writer.finish(nil)
                })
        }
        router.post("/upload") { request, _ -> Response in
            var upload = ServerProbe.Upload()
            for try await chunk in request.body {
                let range = upload.bytes..<(upload.bytes + Int64(chunk.readableBytes))
                for offset in probe.markerOffsets where range.contains(offset) {
                    upload.markers[offset] = chunk.getInteger(
                        at: chunk.readerIndex + Int(offset - upload.bytes), as: UInt8.self)
                }
                upload.bytes += Int64(chunk.readableBytes)
                upload.chunks += 1
                upload.largestChunk = max(upload.largestChunk, chunk.readableBytes)
            }
            probe.record(seen(request, body: Data()))
            let markers = Dictionary(uniqueKeysWithValues: upload.markers.map { ("\($0.key)", Int($0.value)) })
            return json([
                "bytes": upload.bytes, "chunks": upload.chunks, "largestChunk": upload.largestChunk, "markers": markers,
            ])
        }
        router.get("/download") { request, _ -> Response in
            probe.record(seen(request, body: Data()))
            let size = Int(request.uri.queryParameters.get("size") ?? "0") ?? 0
            return Response(
                status: .ok, headers: [.contentType: "application/octet-stream"],
                body: ResponseBody(contentLength: size) { writer in
                    var sent = 0
                    while sent < size {
                        let count = min(64 * 1024, size - sent)
                        try await writer.write(ByteBuffer(bytes: (sent..<(sent + count)).map { UInt8($0 % 251) }))
                        sent += count
                    }
                    try await writer.finish(nil)
                })
        }
        router.post("/canary") { request, _ -> Response in
            let body = try await request.body.collect(upTo: 1024 * 1024)
            probe.record(seen(request, body: Data(buffer: body)))
            // The canary comes in as the bearer token; the server echoes it everywhere it can.
            let canary = (request.headers[.authorization] ?? "").replacingOccurrences(of: "Bearer ", with: "")
            var headers = HTTPFields()
            headers.append(HTTPField(name: .setCookie, value: "session=\(canary); HttpOnly"))
            headers[HTTPField.Name("refreshToken")!] = canary
            let status: HTTPResponse.Status = request.uri.queryParameters.get("fail") == nil ? .ok : .unauthorized
            return json(
                [
                    "accessToken": canary,
                    "data": ["refreshToken": canary, "user": ["password": canary, "name": "Ada"]],
                    "message": "token \(canary) accepted", "errorCode": "E06",
                ], status: status, headers: headers)
        }
        return router
    }
}
