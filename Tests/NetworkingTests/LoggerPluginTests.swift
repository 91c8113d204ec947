import Foundation
import InMemoryLogging
import Logging
import Networking
import TestSupport
import Testing

/// The logger plugin's events, streams, ring buffer, tags, formatter and swift-log bridge.
@Suite struct LoggerPluginTests {
    static let fixedDate = Date(timeIntervalSince1970: 1_790_000_000.5)

    func plugin(_ configure: (inout LoggerPlugin.Configuration) -> Void = { _ in }) -> LoggerPlugin {
        var configuration = LoggerPlugin.Configuration(now: { Self.fixedDate })
        configure(&configuration)
        return LoggerPlugin(configuration: configuration)
    }

    @Test func recordsCreatedSentReceived() async throws {
        let logger = plugin()
        let stub = StubTransport(.json(#"{"name":"Ada"}"#, headers: ["X-Trace": "t"]))
        let provider = Provider<Endpoint>(transport: stub, plugins: [logger])
        let response = try await provider.request(Endpoint(TestAPI.echo(.post, .json(["a": 1] as Parameters))))
        let events = logger.recent()
        #expect(events.map(\.kind) == [.created, .sent, .received])
        #expect(Set(events.map(\.requestID)) == [response.request.id])
        #expect(events.map(\.id) == events.map(\.id).sorted())
        let sent = events[1]
        #expect(sent.method == .post)
        #expect(sent.url == "http://stub.invalid/echo")
        #expect(sent.path == "/echo")
        #expect(sent.bodyPreview == #"{"a":1}"#)
        #expect(sent.byteCount == 7)
        #expect(sent.timestamp == Self.fixedDate)
        let received = events[2]
        #expect(received.statusCode == 200)
        #expect(received.byteCount == 14)
        #expect(received.duration != nil)
        #expect(received.headers["X-Trace"] == "t")
        #expect(received.bodyPreview == #"{"name":"Ada"}"#)
    }

    @Test func failuresAndRetriesAreRecorded() async throws {
        let logger = plugin()
        let server = FakeAuthServer()
        let provider = Provider<Endpoint>(
            transport: StubTransport { await server.handle($0) }, plugins: [logger],
            interceptors: [RetryOnceInterceptor()])
        _ = try await provider.request(Endpoint(TestAPI.status(200)))
        #expect(logger.recent().map(\.kind) == [.created, .sent, .received, .retrying, .sent, .received])
        #expect(logger.recent().map(\.attempt) == [1, 1, 1, 1, 2, 2])
        #expect(logger.recent().compactMap(\.statusCode) == [401, 401, 200])

        let refused = Provider<Endpoint>.stubbed(
            .immediate, plugins: [logger],
            stubResponse: { _, _ in
                .networkFailure(.cannotConnect, reason: "connection refused")
            })
        await #expect(throws: NetworkError.self) { _ = try await refused.request(Endpoint(TestAPI.headers)) }
        let failed = try #require(logger.recent().last)
        #expect(failed.kind == .failed)
        #expect(
            failed.errorDescription
                == "Could not connect to stub.invalid:80: connection refused. Is the server running?")
    }

    @Test func theSinkGetsEveryEventBeforeTheRequestReturns() async throws {
        let sink = RecordingSink()
        let logger = LoggerPlugin(configuration: .init(now: { Self.fixedDate }), sink: sink)
        let provider = Provider<Endpoint>.stubbed(.immediate, plugins: [logger])
        _ = try await provider.request(Endpoint(TestAPI.status(200)))
        // Handed over on the request's own task: nothing is left for later.
        #expect(sink.entries.map(\.kind) == [.created, .sent, .received])
        #expect(sink.events.map(\.kind) == [.created, .sent, .received])
        #expect(sink.entries.map(\.id) == [1, 2, 3])
    }

    @Test func theRingIsBoundedAndTheSinkMissesNothing() async throws {
        let sink = RecordingSink()
        var configuration = LoggerPlugin.Configuration(now: { Self.fixedDate })
        configuration.recentCapacity = 5
        let logger = LoggerPlugin(configuration: configuration, sink: sink)
        let provider = Provider<Endpoint>.stubbed(.immediate, plugins: [logger])
        for _ in 0..<10 { _ = try await provider.request(Endpoint(TestAPI.status(200))) }
        #expect(sink.entries.map(\.id) == Array(1...30))
        #expect(logger.recent().map(\.id) == [26, 27, 28, 29, 30])
        logger.clearRecent()
        #expect(logger.recent().isEmpty)
    }

    @Test func withoutARingTheSinkStillGetsEverything() async throws {
        let sink = RecordingSink()
        let logger = LoggerPlugin(configuration: .init(recentCapacity: 0), sink: sink)
        let provider = Provider<Endpoint>.stubbed(.immediate, plugins: [logger])
        async let requests: Void = {
            for _ in 0..<50 { _ = try await provider.request(Endpoint(TestAPI.status(200))) }
        }()
        try await requests
        #expect(logger.recent().isEmpty)
        #expect(sink.entries.map(\.id) == Array(1...150))
    }

    @Test func tagFromJSONFieldOnFailures() async throws {
        let logger = plugin { $0.tagExtractor = .jsonField("errorCode") }
        let provider = Provider<Endpoint>.stubbed(
            .immediate, plugins: [logger],
            stubResponse: { target, _ in
                if case .status(let code) = target.target {
                    StubResponse(statusCode: code, body: target.sampleData)
                } else {
                    .json(#"{"errorCode":"E99"}"#)
                }
            })
        await #expect(throws: NetworkError.self) { _ = try await provider.request(Endpoint(TestAPI.status(401))) }
        _ = try await provider.request(Endpoint(TestAPI.headers))
        let received = logger.recent().filter { $0.kind == .received }
        #expect(received.map(\.tag) == ["E401", nil])
    }

    @Test func customTagExtractorIsSanitised() async throws {
        let logger = plugin {
            $0.tagExtractor = TagExtractor { _ in "\u{1B}[31mred" + String(repeating: "x", count: 50) }
        }
        _ = try await Provider<Endpoint>.stubbed(.immediate, plugins: [logger]).request(Endpoint(TestAPI.status(200)))
        let tag = try #require(logger.recent().last?.tag)
        #expect(!tag.contains("\u{1B}"))
        #expect(tag.hasPrefix("^[[31mred"))
    }

    @Test func binaryBodiesAreSummarisedAndLongOnesTruncated() async throws {
        let logger = plugin { $0.bodyPreviewLimit = 10 }
        let provider = Provider<Endpoint>.stubbed(
            .immediate, plugins: [logger],
            stubResponse: { target, _ in
                if case .headers = target.target {
                    StubResponse(headers: ["Content-Type": "image/png"], body: Data([0x89, 0x50, 0x00, 0x01]))
                } else {
                    .json(#"{"name":"Ada Lovelace, Countess"}"#)
                }
            })
        _ = try await provider.request(Endpoint(TestAPI.headers))
        _ = try await provider.request(Endpoint(TestAPI.status(200)))
        let previews = logger.recent().filter { $0.kind == .received }.map(\.bodyPreview)
        #expect(previews == ["‹binary 4 B image/png›", #"{"name":"A… (33 B in all)"#])
    }

    @Test func formatterLines() {
        let formatter = NetworkEventFormatter()
        func event(
            _ kind: NetworkEvent.Kind, status: Int? = nil, attempt: Int = 1, tag: String? = nil, error: String? = nil,
            delay: Duration? = nil
        ) -> NetworkEvent {
            NetworkEvent(
                requestID: RequestID(rawValue: 7), kind: kind, timestamp: Self.fixedDate, attempt: attempt,
                method: .get,
                url: "http://h/v1/card/abc", path: "/v1/card/abc", statusCode: status,
                duration: kind == .received || kind == .failed ? .milliseconds(12) : nil,
                byteCount: kind == .received ? 1234 : nil, errorDescription: error, tag: tag, retryDelay: delay)
        }
        #expect(formatter.line(event(.created)) == "+ GET /v1/card/abc")
        #expect(formatter.line(event(.sent)) == "→ GET /v1/card/abc")
        #expect(formatter.line(event(.sent, attempt: 2)) == "→ GET /v1/card/abc (attempt 2)")
        #expect(formatter.line(event(.received, status: 200)) == "← 200 GET /v1/card/abc 12 ms 1.2 kB")
        #expect(
            formatter.line(event(.received, status: 401, tag: "E06")) == "← 401 GET /v1/card/abc 12 ms 1.2 kB [E06]")
        #expect(formatter.line(event(.failed, error: "Boom.\nline")) == "✗ GET /v1/card/abc 12 ms: Boom.^Jline")
        #expect(
            formatter.line(event(.retrying, status: 401, delay: .seconds(2)))
                == "↻ GET /v1/card/abc retry 2 in 2.00 s, after 401")
        #expect(NetworkEventFormatter.format(.microseconds(400)) == "0.4 ms")
        #expect(NetworkEventFormatter.format(.seconds(125)) == "2 min 5 s")
        #expect(NetworkEventFormatter.format(bytes: 999) == "999 B")
        #expect(NetworkEventFormatter.format(bytes: 1_250_000) == "1.3 MB")
    }

    @Test func formatterDetail() {
        let event = NetworkEvent(
            requestID: RequestID(rawValue: 7), kind: .received, timestamp: Self.fixedDate, method: .get,
            url: "http://h/v1/card/abc?token=<private>", path: "/v1/card/abc", statusCode: 200,
            duration: .milliseconds(3),
            byteCount: 20, headers: ["Content-Type": "application/json"], bodyPreview: "{\n \"a\": \"\u{1B}x\"\n}")
        let detail = NetworkEventFormatter().detail(event)
        #expect(
            detail == """
                ← 200 GET /v1/card/abc 3 ms 20 B
                URL: http://h/v1/card/abc?token=<private>
                Request #7, attempt 1, 2026-09-21T14:13:20.500Z
                Response headers:
                  Content-Type: application/json
                Body:
                  {
                   "a": "^[x"
                  }
                """)
    }

    @Test func swiftLogBridgeLogsLinesWithMetadata() async throws {
        let handler = InMemoryLogHandler()
        var swiftLogger = Logger(label: "net", factory: { _ in handler })
        swiftLogger.logLevel = .trace
        let logger = LoggerPlugin(configuration: .init(), logger: swiftLogger)
        await #expect(throws: NetworkError.self) {
            _ = try await Provider<Endpoint>.stubbed(
                .immediate, plugins: [logger],
                stubResponse: { _, _ in
                    .json("{}", statusCode: 503)
                }
            ).request(Endpoint(TestAPI.status(503)))
        }
        let entries = handler.entries
        #expect(entries.map(\.level) == [.debug, .debug, .warning])
        #expect(entries.last?.message.description.hasPrefix("← 503 GET /status/503") == true)
        #expect(entries.last?.metadata["status"] == "503")
        #expect(entries.last?.metadata["request-id"] != nil)
    }
}
