import Foundation
import Testing

@testable import Networking

/// Attempt durations when the hooks are called by hand, and the ring buffer handing back what
/// it pushes out (so the logger can free it outside its lock).
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
}
