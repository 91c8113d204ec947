public import Foundation
import TextSafety

/// Turns events into text: one line for a log pane, or a multi-line detail view. Control
/// characters in untrusted text are escaped, so the output is safe to paint on a terminal.
///
/// ```text
/// + POST /v1/auth/login
/// → GET /v1/card/abc
/// ← 200 GET /v1/card/abc 12 ms 1.2 kB
/// ← 401 GET /v1/cards 3 ms 96 B [E04]
/// ↻ GET /v1/cards retry 2 now, after 401
/// ✗ GET /v1/cards 2 ms: Could not connect to 127.0.0.1:8080: connection refused. Is the server running?
/// ```
public struct NetworkEventFormatter: Sendable {
    /// A formatter.
    public init() {}

    /// The one-line form.
    public func line(_ event: NetworkEvent) -> String {
        // Escaping works scalar by scalar, so escaping each piece gives what escaping the
        // whole line would.
        var text = ""
        text.reserveCapacity(48 + event.method.rawValue.utf8.count + event.path.utf8.count)
        func appendResource() {
            text += TerminalText.escaped(event.method.rawValue)
            text += " "
            text += TerminalText.escaped(event.path)
        }
        switch event.kind {
        case .created:
            text += "+ "
            appendResource()
        case .sent:
            text += "→ "
            appendResource()
            if event.attempt > 1 { text += " (attempt \(event.attempt))" }
        case .received:
            text += "← "
            text += event.statusCode.map(String.init) ?? "???"
            text += " "
            appendResource()
            if let duration = event.duration { text += " " + Self.format(duration) }
            if let bytes = event.byteCount { text += " " + Self.format(bytes: bytes) }
            if let tag = event.tag { text += " [" + TerminalText.escaped(tag) + "]" }
        case .failed:
            text += "✗ "
            appendResource()
            if let duration = event.duration { text += " " + Self.format(duration) }
            text += ": "
            text += TerminalText.escaped(event.errorDescription ?? "failed")
        case .retrying:
            let delay = event.retryDelay.map { $0 > .zero ? "in \(Self.format($0))" : "now" } ?? "now"
            let cause = event.statusCode.map { ", after \($0)" } ?? ""
            text += "↻ "
            appendResource()
            text += " retry \(event.attempt + 1) \(delay)\(cause)"
        }
        return text
    }

    /// The multi-line form: the line, then URL, request id and attempt, time, headers and body.
    public func detail(_ event: NetworkEvent) -> String {
        var output = JoinedLines()
        output.text.reserveCapacity(256 + (event.bodyPreview?.utf8.count ?? 0))
        writeDetail(event, to: &output)
        return output.text
    }

    /// The lines of ``detail(_:)``, the one-line form first: `detail(event)` is these joined
    /// with `"\n"`, and no line holds a line feed (free text is escaped), so a view that shows
    /// the detail line by line can take them as they are instead of splitting the text again.
    public func detailLines(_ event: NetworkEvent) -> [String] {
        detailLines(event, includingLine: true)
    }

    /// The lines of ``detail(_:)``; without `includingLine`, all but the first (the one-line
    /// form), for a view that shows that line already and should not pay for it twice.
    public func detailLines(_ event: NetworkEvent, includingLine: Bool) -> [String] {
        var output = SeparateLines()
        output.lines.reserveCapacity(8 + event.headers.count)
        writeDetail(event, to: &output, includingLine: includingLine)
        return output.lines
    }

    private func writeDetail(_ event: NetworkEvent, to output: inout some DetailOutput, includingLine: Bool = true) {
        if includingLine {
            output.startLine()
            output.append(line(event))
        }
        output.startLine()
        output.append("URL: ")
        output.append(TerminalText.escaped(event.url))
        output.startLine()
        output.append("Request \(event.requestID), attempt \(event.attempt), ")
        output.append(Self.timestamp(event.timestamp))
        if let error = event.errorDescription, event.kind != .failed {
            output.startLine()
            output.append("Error: ")
            output.append(TerminalText.escaped(error))
        }
        if !event.headers.isEmpty {
            output.startLine()
            output.append(event.kind == .received ? "Response headers:" : "Request headers:")
            for field in event.headers.storage {
                output.startLine()
                output.append("  ")
                output.append(TerminalText.escaped(field.name))
                output.append(": ")
                output.append(TerminalText.escaped(field.value))
            }
        }
        if let body = event.bodyPreview {
            output.startLine()
            output.append("Body:")
            for bodyLine in Self.lines(of: body) {
                output.startLine()
                output.append("  ")
                output.append(TerminalText.escaped(String(bodyLine)))
            }
        }
    }

    /// `text` split at every line feed that is a character of its own (not the end of a CR LF
    /// pair), empty lines kept: what `text.split(separator: "\n", omittingEmptySubsequences: false)`
    /// gives, found on the UTF-8 bytes instead of by walking characters.
    static func lines(of text: String) -> [Substring] {
        let utf8 = text.utf8
        let found = utf8.withContiguousStorageIfAvailable { bytes -> [Int] in
            var breaks: [Int] = []
            var offset = 0
            while let found = ByteSearch.firstOffset(of: UInt8(ascii: "\n"), in: bytes, from: offset) {
                if found == 0 || bytes[found - 1] != UInt8(ascii: "\r") { breaks.append(found) }
                offset = found + 1
            }
            return breaks
        }
        // Text without contiguous UTF-8 (none on Linux): the same split, by characters.
        guard let breaks = found else { return text.split(separator: "\n", omittingEmptySubsequences: false) }
        var lines: [Substring] = []
        lines.reserveCapacity(breaks.count + 1)
        var start = utf8.startIndex
        for offset in breaks {
            let end = utf8.index(utf8.startIndex, offsetBy: offset)
            lines.append(text[start..<end])
            start = utf8.index(after: end)
        }
        lines.append(text[start...])
        return lines
    }

    /// `0.4 ms`, `12 ms`, `1.25 s`, `2 min 5 s`.
    public static func format(_ duration: Duration) -> String {
        let milliseconds = Double(duration.components.seconds) * 1000 + Double(duration.components.attoseconds) / 1e15
        switch milliseconds {
        case ..<1: return tenthsOfMilliseconds(max(0, milliseconds))
        case ..<1000: return "\(Int(milliseconds.rounded())) ms"
        case ..<60_000: return String(format: "%.2f s", milliseconds / 1000)
        default:
            let seconds = Int(milliseconds / 1000)
            return "\(seconds / 60) min \(seconds % 60) s"
        }
    }

    /// `String(format: "%.1f ms", milliseconds)` for 0 ≤ `milliseconds` < 1, the usual duration
    /// on a fast network, without the C formatter: a value near a tie between two tenths is
    /// still left to it, so the result is the same to the last digit.
    static func tenthsOfMilliseconds(_ milliseconds: Double) -> String {
        let scaled = milliseconds * 10
        let fraction = scaled - scaled.rounded(.down)
        guard abs(fraction - 0.5) > 1e-6 else { return String(format: "%.1f ms", milliseconds) }
        let tenths = Int(scaled.rounded())
        return "\(tenths / 10).\(tenths % 10) ms"
    }

    /// `512 B`, `1.2 kB`, `3.4 MB`.
    public static func format(bytes: Int64) -> String { ByteCountText.format(bytes) }

    /// `2026-11-21T09:30:00.123Z`.
    public static func timestamp(_ date: Date) -> String {
        UTCTimestamp.format(date)
    }
}

/// Where ``NetworkEventFormatter`` writes a detail view: line by line, piece by piece.
private protocol DetailOutput {
    /// Starts the next line.
    mutating func startLine()
    /// Appends `piece` to the current line.
    mutating func append(_ piece: String)
}

/// The lines as one text, separated by `"\n"`.
private struct JoinedLines: DetailOutput {
    var text = ""
    private var started = false

    mutating func startLine() {
        if started { text += "\n" }
        started = true
    }

    mutating func append(_ piece: String) { text += piece }
}

/// The lines as separate strings.
private struct SeparateLines: DetailOutput {
    var lines: [String] = []

    mutating func startLine() { lines.append("") }

    mutating func append(_ piece: String) { lines[lines.count - 1] += piece }
}
