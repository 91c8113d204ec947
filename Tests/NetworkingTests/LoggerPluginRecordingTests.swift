import Foundation
import Synchronization
import TestSupport
import Testing

@testable import Networking

/// Attempt durations when the hooks are called by hand, the ring buffer handing back what it
/// pushes out (so the logger can free it outside its lock), immediate delivery (every event,
/// in order, equal to the one kept for `recent()`) and flushing batched delivery.
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

    @Test func immediateDeliveryFromManyTasksKeepsOrderAndLosesNothing() async throws {
        let logger = LoggerPlugin(configuration: .init(subscriberBufferSize: 10_000, deliveryInterval: .zero))
        let stream = logger.events()
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
        // Every event was handed over before the last request returned.
        var events: [NetworkEvent] = []
        for await event in stream {
            events.append(event)
            if events.count == tasks * perTask * 3 { break }
        }
        #expect(events.map(\.id) == Array(1...UInt64(tasks * perTask * 3)))
        for exchange in Dictionary(grouping: events, by: \.requestID).values {
            #expect(exchange.map(\.kind) == [.created, .sent, .received])
        }
    }

    @Test func eventsBuiltForSubscribersEqualEventsBuiltLater() async throws {
        let now = Date(timeIntervalSince1970: 1_790_000_000)
        func plugin() -> LoggerPlugin {
            LoggerPlugin(
                configuration: .init(tagExtractor: .jsonField("errorCode"), deliveryInterval: .zero, now: { now }))
        }
        // Two plugins see the same exchanges; only the first has a subscriber, so only it
        // builds events on the request path; the second builds them when asked.
        let heard = plugin()
        let quiet = plugin()
        let stream = heard.events()
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
        var delivered: [NetworkEvent] = []
        for await event in stream {
            delivered.append(event)
            if delivered.count == 6 { break }
        }
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

    @Test func flushHandsOverBatchedEventsAtOnce() async throws {
        // A delivery interval far longer than the test may wait: only flush() can deliver.
        let logger = LoggerPlugin(configuration: .init(deliveryInterval: .seconds(3600)))
        let received = Mutex<[NetworkEvent.Kind]>([])
        let stream = logger.events()
        let reader = Task {
            for await event in stream { received.withLock { $0.append(event.kind) } }
        }
        defer { reader.cancel() }
        logger.flush()  // nothing waits: a no-op
        _ = try await Provider<Endpoint>.stubbed(.immediate, plugins: [logger]).request(Endpoint(TestAPI.status(200)))
        #expect(logger.state.withLock { $0.undelivered.count } == 3)
        logger.flush()
        #expect(logger.state.withLock { $0.undelivered.isEmpty })
        try await waitUntil("the flushed events") { received.withLock { $0 } == [.created, .sent, .received] }
    }

    @Test func flushesMeetingTheScheduledDeliveryKeepOrder() async throws {
        let logger = LoggerPlugin(
            configuration: .init(subscriberBufferSize: 10_000, deliveryInterval: .microseconds(200)))
        let stream = logger.events()
        let provider = Provider<Endpoint>.stubbed(.immediate, plugins: [logger])
        let requests = 150
        try await withThrowingTaskGroup(of: Void.self) { group in
            for _ in 0..<3 {
                group.addTask {
                    for _ in 0..<(requests / 3) { _ = try await provider.request(Endpoint(TestAPI.status(200))) }
                }
            }
            group.addTask {
                for _ in 0..<300 {
                    logger.flush()
                    await Task.yield()
                }
            }
            try await group.waitForAll()
        }
        logger.flush()
        var ids: [UInt64] = []
        for await event in stream {
            ids.append(event.id)
            if ids.count == requests * 3 { break }
        }
        #expect(ids == Array(1...UInt64(requests * 3)))
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
