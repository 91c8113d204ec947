import Foundation
import Synchronization
import TestSupport
import Testing

@testable import Networking

/// Attempt durations when the hooks are called by hand, the ring buffer handing back what it
/// pushes out (so the logger can free it outside its lock), and the sink (every event, in
/// order, equal to the one kept for `recent()`).
@Suite struct LoggerPluginRecordingTests {
    @Test func hooksCalledByHandAreTimedToo() throws {
        let logger = LoggerPlugin()
        let target = Endpoint(TestAPI.headers)
        let request = Request(method: .get, url: try #require(URL(string: "http://h/p")))
        logger.willSend(request, target: target)
        #expect(logger.state.withLock { $0.started.count } == 1)
        logger.didReceive(.success(Response(statusCode: 204, request: request)), for: request, target: target)
        let received = try #require(logger.recent().last)
        #expect(received.kind == .received)
        #expect(received.duration != nil)
        #expect(logger.state.withLock { $0.started.isEmpty })
    }

    @Test func ringBufferReturnsWhatItPushesOut() {
        var ring = RingBuffer<Int>(capacity: 3)
        #expect([1, 2, 3].map { ring.append($0) } == [nil, nil, nil])
        #expect([4, 5, 6, 7].map { ring.append($0) } == [1, 2, 3, 4])
        #expect(ring.elements == [5, 6, 7])
        var none = RingBuffer<Int>(capacity: 0)
        #expect(none.append(1) == 1)
        #expect(none.elements.isEmpty)
    }

    @Test func evictedEntriesAreReleasedOffTheRequestPath() async throws {
        let logger = LoggerPlugin(configuration: .init(recentCapacity: 2))
        let event = NetworkEvent(
            requestID: RequestID(rawValue: 1), kind: .created, timestamp: Date(), method: .get, url: "http://h/",
            path: "/")
        logger.record(.built(event))
        weak let first = logger.state.withLock { $0.recent.elements.first }
        #expect(first != nil)
        for _ in 0..<(LoggerPlugin.releaseBatchSize * 3) { logger.record(.built(event)) }
        // Released in batches by a background task, never kept: the first entry goes away.
        try await waitUntil("the first entry to be released") { first == nil }
        #expect(logger.state.withLock { $0.evicted.count } < LoggerPlugin.releaseBatchSize)
        #expect(logger.recent().count == 2)
    }

    @Test func theSinkHearsManyTasksInOrderAndLosesNothing() async throws {
        let sink = RecordingSink()
        let logger = LoggerPlugin(configuration: .init(recentCapacity: 0), sink: sink)
        let provider = Provider<Endpoint>.stubbed(.immediate, plugins: [logger])
        let tasks = 8
        let perTask = 25
        try await withThrowingTaskGroup(of: Void.self) { group in
            for _ in 0..<tasks {
                group.addTask {
                    for _ in 0..<perTask { _ = try await provider.request(Endpoint(TestAPI.status(200))) }
                }
            }
            try await group.waitForAll()
        }
        // Every event was handed over before the last request returned, in the order of its id.
        let events = sink.events
        #expect(events.map(\.id) == Array(1...UInt64(tasks * perTask * 3)))
        for exchange in Dictionary(grouping: events, by: \.requestID).values {
            #expect(exchange.map(\.kind) == [.created, .sent, .received])
        }
    }

    @Test func eventsBuiltFromTheSinkEqualEventsBuiltLater() async throws {
        let now = Date(timeIntervalSince1970: 1_790_000_000)
        let sink = RecordingSink()
        func plugin(sink: RecordingSink? = nil) -> LoggerPlugin {
            LoggerPlugin(configuration: .init(tagExtractor: .jsonField("errorCode"), now: { now }), sink: sink)
        }
        // Two plugins see the same exchanges; the first hands its entries to a sink, whose
        // reader builds them; the second builds them when asked for `recent()`.
        let heard = plugin(sink: sink)
        let quiet = plugin()
        let provider = Provider<Endpoint>.stubbed(
            .immediate, plugins: [heard, quiet], interceptors: [BearerHeader()],
            stubResponse: { target, _ in
                if case .status(let code) = target.target {
                    StubResponse(statusCode: code, body: Data(#"{"errorCode":"E04","token":"abcdefgh"}"#.utf8))
                } else {
                    .json(#"{"name":"Ada","password":"hunter22"}"#, headers: ["Set-Cookie": "session=s3cr3t"])
                }
            })
        _ = try await provider.request(
            Endpoint(TestAPI.echo(.post, .json(["password": "hunter22", "a": 1] as Parameters))))
        await #expect(throws: NetworkError.self) { _ = try await provider.request(Endpoint(TestAPI.status(401))) }
        let delivered = sink.events
        #expect(delivered.count == 6)
        // Each plugin times the attempts itself: compare everything else.
        func timeless(_ events: [NetworkEvent]) -> [NetworkEvent] {
            events.map { event in
                NetworkEvent(
                    id: event.id, requestID: event.requestID, kind: event.kind, timestamp: event.timestamp,
                    attempt: event.attempt, method: event.method, url: event.url, path: event.path,
                    statusCode: event.statusCode, duration: event.duration.map { _ in .zero },
                    byteCount: event.byteCount, headers: event.headers, bodyPreview: event.bodyPreview,
                    errorDescription: event.errorDescription, tag: event.tag, retryDelay: event.retryDelay)
            }
        }
        #expect(timeless(heard.recent()) == timeless(quiet.recent()))
        #expect(timeless(delivered) == timeless(quiet.recent()))
        #expect(delivered.allSatisfy { $0.headers["Authorization"] ?? "<private>" == "<private>" })
        #expect(delivered.compactMap(\.tag) == ["E04"])
    }

    /// A headline is its event without headers and body preview (the URL's secrets still
    /// hidden); a response with a tag gives its whole event, whose tag was scrubbed.
    @Test func headlinesAreTheEventsWithoutHeadersOrBody() async throws {
        let sink = RecordingSink()
        let logger = LoggerPlugin(configuration: .init(tagExtractor: .jsonField("errorCode")), sink: sink)
        let provider = Provider<Endpoint>.stubbed(
            .immediate, plugins: [logger], interceptors: [BearerHeader()],
            stubResponse: { target, _ in
                if case .status(let code) = target.target {
                    StubResponse(statusCode: code, body: Data(#"{"errorCode":"E04"}"#.utf8))
                } else {
                    .json(#"{"name":"Ada"}"#)
                }
            })
        _ = try await provider.request(
            Endpoint(TestAPI.echo(.get, .parameters(["token": "s3cr3t", "a": 1], encoding: .queryString))))
        await #expect(throws: NetworkError.self) { _ = try await provider.request(Endpoint(TestAPI.status(401))) }
        let entries = sink.entries
        let headlines = entries.map(\.headline)
        #expect(headlines.map(\.kind) == [.created, .sent, .received, .created, .sent, .received])
        #expect(headlines.allSatisfy { !$0.url.contains("s3cr3t") })
        for (headline, entry) in zip(headlines, entries) {
            let event = entry.event
            #expect(headline.id == event.id && headline.timestamp == event.timestamp)
            #expect(headline.url == event.url && headline.path == event.path && headline.method == event.method)
            #expect(headline.statusCode == event.statusCode && headline.byteCount == event.byteCount)
            #expect(headline.duration == event.duration && headline.attempt == event.attempt)
            #expect(headline.tag == event.tag)
        }
        // Built from the capture before `event` was read: no headers, no body.
        let fresh = RecordingSink()
        let other = LoggerPlugin(configuration: .init(tagExtractor: .jsonField("errorCode")), sink: fresh)
        let second = Provider<Endpoint>.stubbed(.immediate, plugins: [other], interceptors: [BearerHeader()])
        _ = try await second.request(Endpoint(TestAPI.echo(.post, .json(["a": 1] as Parameters))))
        let sent = try #require(fresh.entries.first { $0.kind == .sent })
        #expect(sent.headline.headers.isEmpty && sent.headline.bodyPreview == nil)
        #expect(sent.event.headers["Authorization"] == "<private>")
    }
}

/// Sets a bearer token on every attempt.
private struct BearerHeader: Interceptor {
    func adapt(_ request: Request, for target: any TargetType) async throws -> Request {
        var request = request
        request.headers["Authorization"] = "Bearer abc.def-123"
        return request
    }
}
