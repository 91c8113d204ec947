import Foundation
import Networking
import Synchronization
import Testing

@testable import CardWalletLive
@testable import CardWalletUI

/// A log line's detail is kept as a builder over its event and built when read (once): it must
/// read what building it up front gave, cut the same way in the pane, and compare by identity.
struct LogDetailTests {
    static func received(body: String?, headers: Headers = ["Authorization": "<private>"]) -> NetworkEvent {
        NetworkEvent(
            requestID: Networking.RequestID(rawValue: 3), kind: .received, timestamp: LogLineTests.time,
            method: "GET", url: "http://127.0.0.1:8080/v1/cards?limit=5", path: "/v1/cards", statusCode: 200,
            duration: .milliseconds(4), byteCount: 12, headers: headers, bodyPreview: body)
    }

    @Test("An event's line reads the formatter's detail lines, without the one-line form")
    func readsTheFormattersLines() throws {
        let event = Self.received(body: #"{"items":[]}"#)
        let line = try #require(LogLineMaker().line(for: event))
        #expect(line.detail == NetworkEventFormatter().detailLines(event, includingLine: false))
        #expect(line.detail.contains("  Authorization: <private>"))
        let copy = line
        #expect(copy.lazyDetail == line.lazyDetail)
    }

    @Test("The pane cuts a built-on-demand detail as it cuts given lines")
    func paneCutsLazyDetail() throws {
        let body = String(repeating: "b", count: 3_000)
        let headers = Headers((0..<100).map { ("X-Field-\($0)", "value") })
        let event = Self.received(body: body, headers: headers)
        let full = NetworkEventFormatter().detailLines(event, includingLine: false)
        #expect(full.count > LogBuffer.maxDetailLines)

        var lazyBuffer = LogBuffer(capacity: 2)
        lazyBuffer.append(try #require(LogLineMaker().line(for: event)))
        var eagerBuffer = LogBuffer(capacity: 2)
        eagerBuffer.append(LogLine(id: 1, time: LogLineTests.time, kind: .response, detail: full))

        let cut = lazyBuffer[0].detail
        #expect(cut == eagerBuffer[0].detail)
        #expect(cut.count == LogBuffer.maxDetailLines + 1)
        #expect(cut.last == "… \(full.count - LogBuffer.maxDetailLines) more lines")
        #expect(cut.allSatisfy { $0.count <= LogBuffer.maxTextLength + 1 })
    }

    @Test("Details compare by identity or by lines; a builder runs once, when first read")
    func equality() throws {
        let first = Self.received(body: "a")
        let builds = Mutex(0)
        let detail = LogDetail {
            builds.withLock { $0 += 1 }
            return ["built"]
        }
        var buffer = LogBuffer(capacity: 2)
        buffer.append(LogLine(id: 1, time: LogLineTests.time, kind: .response, lazyDetail: detail))
        #expect(builds.withLock { $0 } == 0, "appending to the pane builds nothing")
        #expect(buffer[0].detail == ["built"])
        #expect(buffer[0].detail == ["built"])
        #expect(builds.withLock { $0 } == 1)
        #expect(detail == detail)
        #expect(LogDetail { ["built"] } != LogDetail { ["built"] })
        #expect(LogDetail(lines: ["x"]) == LogDetail(lines: ["x"]))

        var line = try #require(LogLineMaker().line(for: first))
        line.detail = ["replaced"]
        #expect(line.detail == ["replaced"])
        #expect(line.lazyDetail == LogDetail(lines: ["replaced"]))
    }
}
