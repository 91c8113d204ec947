import Foundation

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
        let resource = "\(event.method) \(event.path)"
        let text: String
        switch event.kind {
        case .created:
            text = "+ \(resource)"
        case .sent:
            text = "→ \(resource)" + (event.attempt > 1 ? " (attempt \(event.attempt))" : "")
        case .received:
            var parts = ["←", event.statusCode.map(String.init) ?? "???", resource]
            if let duration = event.duration { parts.append(Self.format(duration)) }
            if let bytes = event.byteCount { parts.append(Self.format(bytes: bytes)) }
            if let tag = event.tag { parts.append("[\(tag)]") }
            text = parts.joined(separator: " ")
        case .failed:
            let timing = event.duration.map { " " + Self.format($0) } ?? ""
            text = "✗ \(resource)\(timing): \(event.errorDescription ?? "failed")"
        case .retrying:
            let delay = event.retryDelay.map { $0 > .zero ? "in \(Self.format($0))" : "now" } ?? "now"
            let cause = event.statusCode.map { ", after \($0)" } ?? ""
            text = "↻ \(resource) retry \(event.attempt + 1) \(delay)\(cause)"
        }
        return TerminalText.escaped(text)
    }

    /// The multi-line form: the line, then URL, request id and attempt, time, headers and body.
    public func detail(_ event: NetworkEvent) -> String {
        var lines = [line(event)]
        lines.append("URL: \(TerminalText.escaped(event.url))")
        lines.append("Request \(event.requestID), attempt \(event.attempt), \(Self.timestamp(event.timestamp))")
        if let error = event.errorDescription, event.kind != .failed {
            lines.append("Error: \(TerminalText.escaped(error))")
        }
        if !event.headers.isEmpty {
            lines.append(event.kind == .received ? "Response headers:" : "Request headers:")
            for field in event.headers {
                lines.append("  \(TerminalText.escaped(field.name)): \(TerminalText.escaped(field.value))")
            }
        }
        if let body = event.bodyPreview {
            lines.append("Body:")
            for bodyLine in body.split(separator: "\n", omittingEmptySubsequences: false) {
                lines.append("  " + TerminalText.escaped(String(bodyLine)))
            }
        }
        return lines.joined(separator: "\n")
    }

    /// `0.4 ms`, `12 ms`, `1.25 s`, `2 min 5 s`.
    public static func format(_ duration: Duration) -> String {
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

    /// `512 B`, `1.2 kB`, `3.4 MB`.
    public static func format(bytes: Int64) -> String { ByteCountText.format(bytes) }

    /// `2026-11-21T09:30:00.123Z`.
    public static func timestamp(_ date: Date) -> String {
        date.formatted(Date.ISO8601FormatStyle(includingFractionalSeconds: true))
    }
}
