import Foundation
import NIOCore
import NIOPosix
import Networking
import TestSupport
import Testing

/// The live transport against a real HTTP server on 127.0.0.1.
@Suite struct LiveTransportTests {
    struct Echo: Decodable {
        var method: String
        var path: String
        var query: String
        var headers: [String: [String]]
        var body: String
        var bodyBytes: Int
        var bodyData: Data { Data(base64Encoded: body) ?? Data() }
    }

    @Test func statusCodesHeadersAndBodies() async throws {
        try await TestServer.run { port, _ in
            try await LiveTransport.withTransport { transport in
                let provider = Provider<Endpoint>(transport: transport)
                let ok = try await provider.request(Endpoint(port: port, .status(200)))
                #expect(ok.statusCode == 200)
                #expect(ok.text == #"{"ok":true}"#)
                #expect(ok.headers["content-type"] == "application/json")

                let created = try await provider.request(Endpoint(port: port, .status(201)))
                #expect(created.statusCode == 201)

                do {
                    _ = try await provider.request(Endpoint(port: port, .status(404)))
                    Issue.record("expected 404 to fail validation")
                } catch let error as NetworkError {
                    #expect(error.statusCode == 404)
                    #expect(error.response?.text == #"{"errorCode":"E404","message":"status 404"}"#)
                    #expect(error.description.hasPrefix("The server answered 404 Not Found to GET /status/404."))
                }

                let headers = try await provider.request(Endpoint(port: port, .headers))
                #expect(headers.headers["X-Custom"] == "custom value")
                #expect(headers.headers.values(for: "set-cookie") == ["a=1", "b=2"])
                #expect(headers.text == "hello")
            }
        }
    }

    @Test func requestBodiesArriveExactly() async throws {
        try await TestServer.run { port, probe in
            try await LiveTransport.withTransport { transport in
                let provider = Provider<Endpoint>(transport: transport)
                let binary = Data((0...255).map { UInt8($0) })
                let target = Endpoint(
                    port: port,
                    .echo(
                        .put,
                        .composite(.data(binary, contentType: "application/octet-stream"), query: ["a": ["b": "c d"]])))
                let echo = try await provider.request(target, as: Echo.self)
                #expect(echo.method == "PUT")
                #expect(echo.query == "a%5Bb%5D=c%20d")
                #expect(echo.bodyData == binary)
                #expect(echo.headers["content-type"] == ["application/octet-stream"])
                #expect(echo.headers["content-length"] == ["256"])

                var form = MultipartFormData()
                form.append("Ada", name: "card.name")
                form.append(binary, name: "image", fileName: "i.png", mimeType: "image/png")
                let sent = try await provider.request(Endpoint(port: port, .echo(.post, .multipart(form))))
                let server = try #require(probe.requests.last)
                #expect(server.body == (try await sent.request.body.collect()))
                #expect(server.header("Content-Type") == sent.request.headers["Content-Type"])
            }
        }
    }

    @Test func multipartRetryIsByteIdenticalOnTheWire() async throws {
        try await TestServer.run { port, probe in
            try await LiveTransport.withTransport { transport in
                let folder = try TemporaryFolder("networking")
                defer { folder.remove() }
                let file = folder.url("img.png")
                try Data((0..<5000).map { UInt8($0 % 256) }).write(to: file)
                var form = MultipartFormData()
                form.append("Ada", name: "card.name")
                form.append(fileAt: file, name: "image")
                // Validation rejects the echo's 200, so the interceptor retries once.
                let provider = Provider<ValidatedEndpoint>(transport: transport, interceptors: [RetryFirstFailure()])
                await #expect(throws: NetworkError.self) {
                    _ = try await provider.request(
                        Endpoint(port: port, .echo(.post, .multipart(form))).withValidation(.customCodes([418])))
                }
                let bodies = probe.requests.filter { $0.path == "/echo" }.map(\.body)
                #expect(bodies.count == 2)
                #expect(bodies.first == bodies.last)
                #expect(bodies.first?.count ?? 0 > 5000)
            }
        }
    }

    @Test func readTimeout() async throws {
        try await TestServer.run { port, probe in
            var configuration = LiveTransport.Configuration()
            // Long enough for a loaded machine's server to read the request before the client
            // gives up on the answer: what is checked is the order (sent once, then timed out).
            configuration.readTimeout = .seconds(2)
            try await LiveTransport.withTransport(configuration: configuration) { transport in
                do {
                    _ = try await Provider<Endpoint>(transport: transport).request(Endpoint(port: port, .hang))
                    Issue.record("expected a timeout")
                } catch let error as NetworkError {
                    guard case .transport(let failure) = error else {
                        Issue.record("unexpected \(error)")
                        return
                    }
                    #expect(failure.kind == .timedOut)
                    #expect(error.description.contains("timed out"))
                }
                try await waitUntil("the server to have seen the request") { probe.requests.count >= 1 }
                #expect(probe.requests.count == 1, "sent once, never retried")
            }
        }
    }

    @Test func targetTimeoutBoundsTheWholeExchange() async throws {
        try await TestServer.run { port, _ in
            try await LiveTransport.withTransport { transport in
                await #expect {
                    _ = try await Provider<Endpoint>(transport: transport).request(
                        Endpoint(port: port, .withTimeout(.milliseconds(300))))
                } throws: { error in
                    guard case .transport(let failure) = error as? NetworkError else { return false }
                    return failure.kind == .timedOut && failure.reason == "no complete answer within 300 ms"
                }
            }
        }
    }

    @Test func connectionRefused() async throws {
        let port = try await Self.closedPort()
        try await LiveTransport.withTransport { transport in
            do {
                _ = try await Provider<Endpoint>(transport: transport).request(Endpoint(port: port, .status(200)))
                Issue.record("expected connection refused")
            } catch let error as NetworkError {
                guard case .transport(let failure) = error else {
                    Issue.record("unexpected \(error)")
                    return
                }
                #expect(failure.kind == .cannotConnect)
                #expect(
                    error.description
                        == "Could not connect to 127.0.0.1:\(port): connection refused. Is the server running?")
            }
        }
    }

    @Test func cancellationWhileWaitingForTheResponse() async throws {
        try await TestServer.run { port, probe in
            try await LiveTransport.withTransport { transport in
                let provider = Provider<Endpoint>(transport: transport)
                let call = Task { try await provider.request(Endpoint(port: port, .hang)) }
                try await waitUntil("the server to hold the request") { probe.stalledCount == 1 }
                call.cancel()
                await #expect { _ = try await call.value } throws: { ($0 as? NetworkError)?.isCancelled == true }
            }
        }
    }

    @Test func cancellationWhileTheBodyStreams() async throws {
        try await TestServer.run { port, probe in
            try await LiveTransport.withTransport { transport in
                let provider = Provider<Endpoint>(transport: transport)
                let call = Task { try await provider.request(Endpoint(port: port, .drip)) }
                try await waitUntil("the server to send the first chunk") { probe.stalledCount == 1 }
                call.cancel()
                await #expect { _ = try await call.value } throws: { ($0 as? NetworkError)?.isCancelled == true }
                // The transport still works afterwards.
                probe.openGate()
                #expect(try await provider.request(Endpoint(port: port, .status(200))).statusCode == 200)
            }
        }
    }

    @Test func downloadStreamsToAFile() async throws {
        try await TestServer.run { port, _ in
            try await LiveTransport.withTransport { transport in
                let folder = try TemporaryFolder("networking")
                defer { folder.remove() }
                let destination = DownloadDestination(folder.url("big.bin"))
                let size = 300_000
                let response = try await Provider<Endpoint>(transport: transport).request(
                    Endpoint(port: port, .download(size, destination)))
                #expect(response.body.isEmpty)
                #expect(response.download?.byteCount == Int64(size))
                let data = try Data(contentsOf: destination.url)
                #expect(data.count == size)
                #expect(data.prefix(300) == Data((0..<300).map { UInt8($0 % 251) }))
            }
        }
    }

    @Test func shutDownTransportExplainsItself() async throws {
        let transport = LiveTransport()
        try await transport.shutdown()
        await #expect {
            _ = try await Provider<Endpoint>(transport: transport).request(Endpoint(port: 9, .status(200)))
        } throws: { "\($0)".contains("shut down") }
    }

    /// A port nothing listens on: bound, then closed.
    /// A loopback port that refuses connections: bound (so no other test's server can take it)
    /// but never listening. The socket stays open for the rest of the test process.
    static func closedPort() async throws -> Int {
        try RefusingPort.reserve()
    }
}

extension Endpoint {
    /// The same endpoint with another validation.
    func withValidation(_ validation: Validation) -> ValidatedEndpoint {
        ValidatedEndpoint(base: self, validation: validation)
    }
}

struct ValidatedEndpoint: TargetType, AccessTokenAuthorizable {
    var base: Endpoint
    var validation: Validation
    var baseURL: URL { base.baseURL }
    var path: String { base.path }
    var method: HTTPMethod { base.method }
    var body: RequestBody { base.body }
    var authorizationType: AuthorizationType? { .bearer }
}

/// Retries the first failure, whatever it is.
struct RetryFirstFailure: Interceptor {
    func retry(_ request: Request, for target: any TargetType, dueTo error: NetworkError, attempt: Int) async throws
        -> RetryDecision
    { attempt == 1 ? .retry : .doNotRetry }
}

/// Failures before any byte reaches a server, or when what answers is not the HTTP server
/// the address promised.
@Suite struct LiveTransportConnectionTests {
    @Test func httpsToAServerWithoutTLSIsExplained() async throws {
        try await TestServer.run { port, _ in
            try await LiveTransport.withTransport { transport in
                let target = Endpoint(base: URL(string: "https://127.0.0.1:\(port)")!, .status(200))
                do {
                    _ = try await Provider<Endpoint>(transport: transport).request(target)
                    Issue.record("expected a failure")
                } catch let error as NetworkError {
                    guard case .transport(let failure) = error else {
                        Issue.record("unexpected \(error)")
                        return
                    }
                    #expect(failure.kind == .cannotConnect)
                    #expect(
                        error.description
                            == "Could not connect to 127.0.0.1:\(port): the secure (TLS) connection failed: the server "
                            + "does not speak TLS on that port; for a server without TLS use an http:// address. "
                            + "Check the address and your network.")
                }
            }
        }
    }

    @Test func anAnswerThatIsNotHTTPIsExplained() async throws {
        let junk = try JunkServer()
        defer { junk.stop() }
        try await LiveTransport.withTransport { transport in
            do {
                _ = try await Provider<Endpoint>(transport: transport).request(Endpoint(port: junk.port, .status(200)))
                Issue.record("expected a failure")
            } catch let error as NetworkError {
                guard case .transport(let failure) = error else {
                    Issue.record("unexpected \(error)")
                    return
                }
                #expect(failure.reason.hasPrefix("the answer is not valid HTTP ("), "\(failure.reason)")
                #expect(error.description.contains("check that the address and port are those of the HTTP server"))
            }
        }
    }

    @Test func unknownHostIsExplained() async throws {
        var configuration = LiveTransport.Configuration()
        configuration.connectTimeout = .seconds(5)
        try await LiveTransport.withTransport(configuration: configuration) { transport in
            let target = Endpoint(base: URL(string: "http://host.invalid:8080")!, .status(200))
            do {
                _ = try await Provider<Endpoint>(transport: transport).request(target)
                Issue.record("expected a failure")
            } catch let error as NetworkError {
                guard case .transport(let failure) = error else {
                    Issue.record("unexpected \(error)")
                    return
                }
                switch failure.kind {
                case .cannotConnect:
                    #expect(
                        error.description
                            == "Could not connect to host.invalid:8080: could not find the host host.invalid. Check the address and your network."
                    )
                case .connectTimedOut:  // a resolver that never answers
                    #expect(error.description.hasPrefix("Timed out connecting to host.invalid:8080."))
                default:
                    Issue.record("unexpected \(error)")
                }
            }
        }
    }
}
