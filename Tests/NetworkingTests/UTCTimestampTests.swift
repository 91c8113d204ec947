import Foundation
import Testing

@testable import Networking

/// The log's hand-written timestamp against Foundation's ISO 8601 style, digit for digit.
struct UTCTimestampTests {
    static let style = Date.ISO8601FormatStyle(includingFractionalSeconds: true)

    /// SplitMix64: the same pseudo-random dates on every run.
    struct SplitMix: RandomNumberGenerator {
        var state: UInt64
        mutating func next() -> UInt64 {
            state &+= 0x9E37_79B9_7F4A_7C15
            var value = state
            value = (value ^ (value >> 30)) &* 0xBF58_476D_1CE4_E5B9
            value = (value ^ (value >> 27)) &* 0x94D0_49BB_1331_11EB
            return value ^ (value >> 31)
        }
    }

    @Test("Calendar corners: epochs, leap days, centuries, the first and last years written by hand, before 1970")
    func corners() {
        let stamps: [TimeInterval] = [
            0, -1, -0.0005, -1.5, 951_782_400, 951_868_799.999, 4_107_542_400, -2_203_891_200, 1_700_000_000.123,
            1_700_000_000.9995, 1_700_000_000.0005, -30_610_224_000, -11_676_096_000, -11_676_096_001,
            253_402_300_799.999, 978_307_200,
        ]
        for stamp in stamps {
            let date = Date(timeIntervalSince1970: stamp)
            #expect(UTCTimestamp.format(date) == date.formatted(Self.style), "at \(stamp)")
        }
    }

    @Test("Out of range dates are Foundation's")
    func outOfRange() {
        for date in [Date.distantPast, Date.distantFuture, Date(timeIntervalSince1970: -40_000_000_000)] {
            #expect(UTCTimestamp.format(date) == date.formatted(Self.style))
        }
    }

    @Test("Equal to the style over pseudo-random dates and millisecond steps")
    func randomAndSteps() {
        var generator = SplitMix(state: 42)
        var dates = (0..<20_000).map { _ in
            Date(timeIntervalSince1970: Double.random(in: -2_000_000_000...4_000_000_000, using: &generator))
        }
        dates += (0..<5_000).map { Date(timeIntervalSince1970: 1_763_700_000 + Double($0) * 0.001) }
        dates += (0..<5_000).map { Date(timeIntervalSinceReferenceDate: 785_000_000 + Double($0) * 0.0001) }
        var mismatches: [String] = []
        for date in dates where UTCTimestamp.format(date) != date.formatted(Self.style) {
            mismatches.append("\(date.timeIntervalSince1970): \(UTCTimestamp.format(date))")
        }
        #expect(mismatches.isEmpty, "\(mismatches.prefix(5))")
    }
}
