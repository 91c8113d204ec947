import Testing

@testable import cardwallet_bench

/// The first-frame rule: the marker, then a quiet window; bytes and times as they arrived.
@Suite struct FrameWatchTests {
    @Test func aFrameIsCompleteOnlyAfterTheMarkerAndAQuietWindow() {
        var watch = FrameWatch(marker: "Kim Min-ji", quiet: 0.4)
        watch.record(Array("\u{1B}[H\u{1B}[2J Loading cards…".utf8), at: 0.010)
        #expect(!watch.isComplete(at: 5))
        watch.record(Array(" Kim Min-ji  Acme".utf8), at: 0.100)
        #expect(watch.markerSeen)
        #expect(!watch.isComplete(at: 0.300))
        #expect(watch.isComplete(at: 0.500))
        #expect(watch.firstByteAt == 0.010)
        #expect(watch.markerAt == 0.100)
        #expect(watch.lastByteAt == 0.100)
    }

    @Test func moreOutputWithinTheWindowMovesTheEndOfTheFrame() {
        var watch = FrameWatch(marker: "ready", quiet: 0.2)
        watch.record(Array("ready".utf8), at: 1.0)
        watch.record(Array("\u{1B}[1;1H⠋".utf8), at: 1.1)
        #expect(!watch.isComplete(at: 1.25))
        #expect(watch.isComplete(at: 1.31))
        #expect(watch.lastByteAt == 1.1)
        #expect(abs(watch.timeToWait(at: 1.15) - 0.15) < 1e-9)
    }

    @Test func aMarkerSplitAcrossReadsIsFound() {
        var watch = FrameWatch(marker: "Kim Min-ji", quiet: 0.1)
        watch.record(Array("xx Kim M".utf8), at: 0.1)
        #expect(!watch.markerSeen)
        watch.record(Array("in".utf8), at: 0.2)
        #expect(!watch.markerSeen)
        watch.record(Array("-ji yy".utf8), at: 0.3)
        #expect(watch.markerSeen)
        #expect(watch.markerAt == 0.3)
    }

    @Test func bytesAreCountedAcrossChunksAndEmptyChunksAreIgnored() {
        var watch = FrameWatch(marker: "", quiet: 0.1)
        #expect(!watch.isComplete(at: 10))
        watch.record([], at: 0.5)
        #expect(watch.byteCount == 0)
        #expect(watch.firstByteAt == nil)
        watch.record([1, 2, 3], at: 1)
        watch.record(Array(repeating: 65, count: 300), at: 1.05)
        #expect(watch.byteCount == 303)
        #expect(watch.tail.count == FrameWatch.tailLimit)
        #expect(watch.markerAt == 1)
        #expect(watch.isComplete(at: 1.2))
    }

    @Test func withoutOutputTheWholeWindowIsWaited() {
        let watch = FrameWatch(marker: "x", quiet: 0.25)
        #expect(watch.timeToWait(at: 3) == 0.25)
    }

    @Test func byteSearchFindsNeedlesAtEveryPosition() {
        let bytes = Array("abcabd".utf8)
        #expect(FrameWatch.contains(bytes, Array("abd".utf8)))
        #expect(FrameWatch.contains(bytes, Array("abc".utf8)))
        #expect(!FrameWatch.contains(bytes, Array("abe".utf8)))
        #expect(!FrameWatch.contains(Array("ab".utf8), Array("abc".utf8)))
        #expect(FrameWatch.contains(bytes, []))
    }

    @Test func terminalOutputPrintsWithEveryControlByteEscaped() {
        let text = FrameWatch.printable(Array("\u{1B}[2J\r\nok\\".utf8) + [0x07, 0xC3, 0xA9])
        #expect(text == "\\e[2J\\r\\nok\\\\\\x07\\xC3\\xA9")
    }
}
