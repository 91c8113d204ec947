public import Foundation
import NIOCore
import NIOHTTP1
import NIOPosix
import Synchronization

/// The loopback redirect of RFC 8252 §7.3: a listener on `127.0.0.1`, on a port the system
/// picks, that waits for the browser to come back from the authorization server with the
/// redirect's query (`code` and `state`, or `error`), answers the browser with a short page,
/// and hands the query over once.
///
/// Requests without any of `code`, `state` or `error` (a browser's `/favicon.ico`) get a 404 and
/// are otherwise ignored; the first redirect that has one ends the wait, right or wrong, so a
/// forged redirect cannot be followed by a real one (the login then fails and stores nothing).
public final class LoopbackReceiver: Sendable {
    /// `http://127.0.0.1:PORT/`, the `redirect_uri` of the authorization request.
    public let redirectURI: URL
    private let channel: any Channel
    private let answers: AsyncStream<[String: String]>
    private let delivered: Mutex<Bool>
    private let serving: Mutex<Task<Void, Never>?>

    private init(redirectURI: URL, channel: any Channel, answers: AsyncStream<[String: String]>) {
        self.redirectURI = redirectURI
        self.channel = channel
        self.answers = answers
        self.delivered = Mutex(false)
        self.serving = Mutex(nil)
    }

    /// Starts listening on `127.0.0.1` on a free port.
    ///
    /// - Parameter expectedState: the `state` this login sent, so the page shown in the browser
    ///   can say whether the answer was this login's (the caller checks it again).
    /// - Throws: ``OAuthError/listenerFailed(_:)``.
    public static func start(expectedState: String) async throws(OAuthError) -> LoopbackReceiver {
        let (answers, continuation) = AsyncStream<[String: String]>.makeStream(bufferingPolicy: .bufferingOldest(1))
        let server: NIOAsyncChannel<NIOAsyncChannel<HTTPServerRequestPart, HTTPServerResponsePart>, Never>
        do {
            server = try await ServerBootstrap(group: MultiThreadedEventLoopGroup.singleton)
                .serverChannelOption(.backlog, value: 16)
                .bind(host: "127.0.0.1", port: 0) { channel in
                    channel.eventLoop.makeCompletedFuture {
                        try channel.pipeline.syncOperations.configureHTTPServerPipeline()
                        return try NIOAsyncChannel<HTTPServerRequestPart, HTTPServerResponsePart>(
                            wrappingChannelSynchronously: channel)
                    }
                }
        } catch {
            throw .listenerFailed(String(describing: error))
        }
        guard let port = server.channel.localAddress?.port, let uri = URL(string: "http://127.0.0.1:\(port)/") else {
            try? await server.channel.close()
            throw .listenerFailed("the system gave no port")
        }
        let receiver = LoopbackReceiver(redirectURI: uri, channel: server.channel, answers: answers)
        let task = Task<Void, Never> {
            try? await server.executeThenClose { connections in
                try await withThrowingDiscardingTaskGroup { group in
                    for try await connection in connections {
                        group.addTask {
                            try? await Self.serve(connection, expectedState: expectedState) { query in
                                receiver.deliver(query, to: continuation)
                            }
                        }
                    }
                }
            }
        }
        receiver.serving.withLock { $0 = task }
        return receiver
    }

    /// The redirect's query, once it comes, within `deadline`.
    ///
    /// - Throws: ``OAuthError/redirectTimedOut(after:)``, or ``OAuthError/cancelled`` when the
    ///   waiting task is cancelled.
    public func answer(within deadline: Duration) async throws(OAuthError) -> [String: String] {
        let answers = self.answers
        let result: [String: String]?
        do {
            result = try await withThrowingTaskGroup(of: [String: String]?.self) { group in
                group.addTask {
                    for await answer in answers { return answer }
                    return nil
                }
                group.addTask {
                    try await Task.sleep(for: deadline)
                    return nil
                }
                defer { group.cancelAll() }
                return try await group.next() ?? nil
            }
        } catch {
            throw .cancelled
        }
        if Task.isCancelled { throw .cancelled }
        guard let result else { throw .redirectTimedOut(after: deadline) }
        return result
    }

    /// Stops listening (idempotent).
    public func close() {
        let task = serving.withLock { task -> Task<Void, Never>? in
            defer { task = nil }
            return task
        }
        task?.cancel()
        channel.close(promise: nil)
    }

    deinit {
        serving.withLock { $0?.cancel() }
        channel.close(promise: nil)
    }

    private func deliver(_ query: [String: String], to continuation: AsyncStream<[String: String]>.Continuation) {
        let first = delivered.withLock { delivered -> Bool in
            defer { delivered = true }
            return !delivered
        }
        guard first else { return }
        continuation.yield(query)
        continuation.finish()
    }

    /// Serves one connection: each request gets its page; the first redirect is delivered once
    /// its page is written (or could not be).
    private static func serve(
        _ connection: NIOAsyncChannel<HTTPServerRequestPart, HTTPServerResponsePart>, expectedState: String,
        deliver: @Sendable ([String: String]) -> Void
    ) async throws {
        try await connection.executeThenClose { inbound, outbound in
            var head: HTTPRequestHead?
            for try await part in inbound {
                switch part {
                case .head(let received):
                    head = received
                case .body:
                    continue
                case .end:
                    guard let request = head else { continue }
                    let (status, page, query) = Self.page(for: request, expectedState: expectedState)
                    // Delivered once the page is written, or its writing failed: a browser that
                    // has read the page and closed the connection makes the last write throw,
                    // and the answer must not be lost with it (it was: the login then waited out
                    // its deadline). Not before: the login would end and close this listener
                    // while the browser still waits for its page.
                    defer { if let query { deliver(query) } }
                    var headers = HTTPHeaders()
                    headers.add(name: "Content-Type", value: "text/html; charset=utf-8")
                    headers.add(name: "Content-Length", value: String(page.utf8.count))
                    headers.add(name: "Cache-Control", value: "no-store")
                    headers.add(name: "Connection", value: "close")
                    try await outbound.write(
                        .head(HTTPResponseHead(version: request.version, status: status, headers: headers)))
                    try await outbound.write(.body(.byteBuffer(ByteBuffer(string: page))))
                    try await outbound.write(.end(nil))
                    return
                }
            }
        }
    }

    /// The page a request gets, and the query to deliver when it is the redirect.
    static func page(
        for request: HTTPRequestHead, expectedState: String
    ) -> (HTTPResponseStatus, String, [String: String]?) {
        // RFC 6749 §4.1.2: the query is application/x-www-form-urlencoded, where `+` is a space.
        let formDecoded: (String?) -> String = {
            let text = ($0 ?? "").replacingOccurrences(of: "+", with: " ")
            return text.removingPercentEncoding ?? text
        }
        let items = URLComponents(string: request.uri)?.percentEncodedQueryItems ?? []
        var query: [String: String] = [:]
        for item in items where query[formDecoded(item.name)] == nil {
            query[formDecoded(item.name)] = formDecoded(item.value)
        }
        guard request.method == .GET, query["code"] != nil || query["state"] != nil || query["error"] != nil else {
            return (
                .notFound, html("cardwallet", "This address only waits for the authorization server's answer."), nil
            )
        }
        if query["state"] != expectedState {
            return (
                .badRequest,
                html(
                    "Not this login's answer",
                    "This answer is not for the login cardwallet is waiting for. Nothing was stored: start the login "
                        + "again in the terminal."), query
            )
        }
        if let error = query["error"] {
            return (
                .ok,
                html(
                    "Login refused",
                    "The authorization server refused the login (\(escaped(error))). Nothing was stored: you can close "
                        + "this window and go back to the terminal."), query
            )
        }
        return (
            .ok,
            html(
                "cardwallet has the answer",
                "You can close this window and go back to the terminal, where cardwallet finishes the login."), query
        )
    }

    private static func html(_ title: String, _ text: String) -> String {
        "<!doctype html><html><head><meta charset=\"utf-8\"><title>\(escaped(title))</title></head>"
            + "<body><h1>\(escaped(title))</h1><p>\(text)</p></body></html>\n"
    }

    /// Text for HTML: the five characters that matter escaped.
    static func escaped(_ text: String) -> String {
        var out = ""
        for character in text {
            switch character {
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            case "\"": out += "&quot;"
            case "'": out += "&#39;"
            default: out.append(character)
            }
        }
        return out
    }
}
