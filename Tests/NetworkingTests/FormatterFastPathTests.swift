import Foundation
import Testing
import TextSafety

@testable import Networking

/// The formatter's and ``TerminalText``'s byte-level fast paths give exactly what the plain
/// character-by-character code (kept here as the oracle) gives.
@Suite struct FormatterFastPathTests {
    // MARK: Oracles: the straightforward implementations.

    /// The shared escaping function: the formatter's fast paths must escape exactly as it does.
    static func referenceEscaped(_ text: String) -> String {
        TerminalText.escaped(text)
    }

    static func referenceLine(_ event: NetworkEvent) -> String {
        let resource = "\(event.method) \(event.path)"
        let text: String
        switch event.kind {
        case .created:
            text = "+ \(resource)"
        case .sent:
            text = "→ \(resource)" + (event.attempt > 1 ? " (attempt \(event.attempt))" : "")
        case .received:
            var parts = ["←", event.statusCode.map(String.init) ?? "???", resource]
            if let duration = event.duration { parts.append(referenceFormat(duration)) }
            if let bytes = event.byteCount { parts.append(NetworkEventFormatter.format(bytes: bytes)) }
            if let tag = event.tag { parts.append("[\(tag)]") }
            text = parts.joined(separator: " ")
        case .failed:
            let timing = event.duration.map { " " + referenceFormat($0) } ?? ""
            text = "✗ \(resource)\(timing): \(event.errorDescription ?? "failed")"
        case .retrying:
            let delay = event.retryDelay.map { $0 > .zero ? "in \(referenceFormat($0))" : "now" } ?? "now"
            let cause = event.statusCode.map { ", after \($0)" } ?? ""
            text = "↻ \(resource) retry \(event.attempt + 1) \(delay)\(cause)"
        }
        return referenceEscaped(text)
    }

    static func referenceDetail(_ event: NetworkEvent) -> String {
        var lines = [referenceLine(event)]
        lines.append("URL: \(referenceEscaped(event.url))")
        lines.append(
            "Request \(event.requestID), attempt \(event.attempt), "
                + event.timestamp.formatted(Date.ISO8601FormatStyle(includingFractionalSeconds: true)))
        if let error = event.errorDescription, event.kind != .failed {
            lines.append("Error: \(referenceEscaped(error))")
        }
        if !event.headers.isEmpty {
            lines.append(event.kind == .received ? "Response headers:" : "Request headers:")
            for field in event.headers {
                lines.append("  \(referenceEscaped(field.name)): \(referenceEscaped(field.value))")
            }
        }
        if let body = event.bodyPreview {
            lines.append("Body:")
            for bodyLine in body.split(separator: "\n", omittingEmptySubsequences: false) {
                lines.append("  " + referenceEscaped(String(bodyLine)))
            }
        }
        return lines.joined(separator: "\n")
    }

    static func referenceFormat(_ duration: Duration) -> String {
        let milliseconds = Double(duration.components.seconds) * 1000 + Double(duration.components.attoseconds) / 1e15
        switch milliseconds {
        case ..<1: return String(format: "%.1f ms", max(0, milliseconds))
        case ..<1000: return "\(Int(milliseconds.rounded())) ms"
        case ..<60_000: return String(format: "%.2f s", milliseconds / 1000)
        default:
            let seconds = Int(milliseconds / 1000)
            return "\(seconds / 60) min \(seconds % 60) s"
        }
    }

    // MARK: Inputs

    /// Text that exercises every branch: control bytes, DEL, C1, the bidirectional marks and
    /// their neighbours, CR LF, a line feed before a combining mark, emoji, empty lines.
    static let texts: [String] = [
        "", "plain", "\n", "\n\n", "a\nb", "a\r\nb", "a\rb", "\r\n\r\n", "trailing\n", "\nleading", "tab\there",
        "esc \u{1B}[31m", "del \u{7F}", "nul \u{0}", "c1 \u{80} \u{9F} and \u{A0} \u{FF}", "é\u{301}", "\n\u{301}x",
        "lrm \u{200D}\u{200E}\u{200F}\u{2010}", "embed \u{2029}\u{202A}\u{202E}\u{202F}",
        "iso \u{2065}\u{2066}\u{2069}\u{206A}",
        "👩‍👩‍👧‍👦 family", "한국어\n비밀번호", "{\"a\":\"\u{1B}x\"}\r\n{\"b\":1}", String(repeating: "x", count: 300) + "\u{85}",
        "ends with C2 \u{C2}", "ends with E2 \u{2000}", "\u{2028} line separator",
    ]

    /// Whether a terminal could act on `scalar` (C0, DEL, C1, bidirectional controls).
    static func isActive(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x00...0x1F, 0x7F...0x9F, 0x200E, 0x200F, 0x202A...0x202E, 0x2066...0x2069: true
        default: false
        }
    }

    @Test func escapedTextHoldsNothingATerminalActsOn() {
        for text in Self.texts {
            let escaped = TerminalText.escaped(text)
            #expect(!escaped.unicodeScalars.contains(where: Self.isActive), "\(Array(text.unicodeScalars))")
        }
    }

    @Test func everyScalarOfTheBasicPlaneIsShownSafely() {
        var scalars = (0..<0xD800).compactMap(Unicode.Scalar.init)
        scalars += (0xE000..<0x1_0000).compactMap(Unicode.Scalar.init)
        scalars += [0x1_0000, 0x1_F600, 0x10_FFFF].compactMap(Unicode.Scalar.init)
        for scalar in scalars {
            let escaped = TerminalText.escaped("a" + String(Character(scalar)) + "b")
            #expect(!escaped.unicodeScalars.contains(where: Self.isActive), "U+\(String(scalar.value, radix: 16))")
            if !Self.isActive(scalar), scalar.properties.generalCategory != .format {
                #expect(
                    escaped.unicodeScalars.contains(scalar) || escaped.contains("\\u{"),
                    "U+\(String(scalar.value, radix: 16))")
            }
        }
    }

    @Test func linesAreSplitAsCharactersAre() {
        for text in Self.texts {
            #expect(
                NetworkEventFormatter.lines(of: text).map(String.init)
                    == text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init))
        }
    }

    @Test func shortDurationsAreFormattedAsTheCFormatterDoes() {
        var durations: [Duration] = (0...2_000).map { .nanoseconds($0 * 500) }
        // Ties and near-ties between two tenths, and values around them.
        for tenths in 0..<10 {
            let tie = Int64(tenths) * 100_000 + 50_000
            for offset in [-2, -1, 0, 1, 2] as [Int64] { durations.append(.nanoseconds(tie + offset)) }
            durations.append(Duration(secondsComponent: 0, attosecondsComponent: (tie * 1_000_000_000) - 1))
            durations.append(Duration(secondsComponent: 0, attosecondsComponent: tie * 1_000_000_000))
        }
        var generator = SystemRandomNumberGenerator()
        for _ in 0..<5_000 {
            durations.append(
                Duration(
                    secondsComponent: 0,
                    attosecondsComponent: Int64.random(in: 0..<1_000_000_000_000_000, using: &generator)))
        }
        durations += [.zero, .nanoseconds(-5), .milliseconds(1), .milliseconds(12), .seconds(2), .seconds(125)]
        for duration in durations {
            #expect(NetworkEventFormatter.format(duration) == Self.referenceFormat(duration), "\(duration)")
        }
    }

    @Test func linesAndDetailsMatchTheReference() {
        let date = Date(timeIntervalSince1970: 1_790_000_000.123)
        var events: [NetworkEvent] = []
        for (index, text) in Self.texts.enumerated() {
            for kind in NetworkEvent.Kind.allCases {
                events.append(
                    NetworkEvent(
                        id: UInt64(index), requestID: RequestID(rawValue: UInt64(index)), kind: kind,
                        timestamp: date.addingTimeInterval(Double(index) * 0.37), attempt: index % 3 + 1,
                        method: index % 5 == 0 ? HTTPMethod(rawValue: "GE\u{1B}T") : .get,
                        url: "http://h/\(text)", path: "/p/\(text)", statusCode: index % 2 == 0 ? 401 : nil,
                        duration: index % 4 == 0 ? nil : .microseconds(index * 137),
                        byteCount: index % 3 == 0 ? nil : Int64(index * 999),
                        headers: index % 2 == 0 ? ["X-\(index)": text, "Accept": "a"] : Headers(),
                        bodyPreview: index % 6 == 5 ? nil : text, errorDescription: index % 2 == 1 ? text : nil,
                        tag: index % 3 == 1 ? text : nil, retryDelay: index % 4 == 1 ? .milliseconds(index) : nil))
            }
        }
        let formatter = NetworkEventFormatter()
        for event in events {
            #expect(formatter.line(event) == Self.referenceLine(event))
            let detail = formatter.detail(event)
            #expect(detail == Self.referenceDetail(event))
            #expect(
                formatter.detailLines(event)
                    == detail.split(separator: "\n", omittingEmptySubsequences: false).map(String.init))
            #expect(
                formatter.detailLines(event, includingLine: false) == Array(formatter.detailLines(event).dropFirst()))
        }
    }
}
