import CardModels
import Foundation
import Logging

/// swift-log's lines on standard error, as `StreamLogHandler` writes them
/// (`2026-11-21T09:30:00+0900 info cardwallet.session: account=ada@example.org [CardAPI] Logged in`),
/// but with every part that can hold someone else's text made terminal-safe.
///
/// Metadata carries what the server said (the account email a login returns, a card's name in
/// a problem), and `StreamLogHandler` writes it raw: with `--log-level info` an `account` holding
/// ESC, BEL, NUL, C1 or U+202E reached the terminal. Here the message, each metadata key and
/// value, the label and the source go through ``TextSafety/TerminalText/escaped(_:)``, so a
/// line is always one line of visible text. Writes go through ``Console/err(_:)`` (no buffer).
struct TerminalSafeLogHandler: LogHandler {
    /// The label of the logger.
    let label: String
    /// Messages below this level are dropped.
    var logLevel: Logger.Level = .info
    /// The handler's own metadata.
    var metadata: Logger.Metadata = [:]

    subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }

    func log(event: LogEvent) {
        Console.err(Self.line(for: event, label: label, metadata: metadata, timestamp: Self.timestamp()))
    }

    /// The line for `event`, newline included.
    static func line(for event: LogEvent, label: String, metadata base: Logger.Metadata, timestamp: String) -> String {
        var metadata = base
        if let explicit = event.metadata { metadata.merge(explicit) { _, explicit in explicit } }
        if let error = event.error {
            metadata["error.message"] = "\(error)"
            metadata["error.type"] = "\(String(reflecting: type(of: error)))"
        }
        let pretty =
            metadata.isEmpty
            ? ""
            : " "
                + metadata.sorted { $0.key < $1.key }
                .map { "\(TerminalText.escaped($0.key))=\(TerminalText.escaped($0.value.description))" }
                .joined(separator: " ")
        let labelText = label.isEmpty ? "" : " " + TerminalText.escaped(label)
        return "\(timestamp) \(event.level)\(labelText):\(pretty) [\(TerminalText.escaped(event.source))] "
            + "\(TerminalText.escaped(event.message.description))\n"
    }

    /// Local time as `StreamLogHandler` shows it: `2026-11-21T09:30:00+0900`.
    static func timestamp() -> String {
        var now = time(nil)
        var local = tm()
        guard localtime_r(&now, &local) != nil else { return "<unknown>" }
        var buffer = [Int8](repeating: 0, count: 64)
        let count = strftime(&buffer, buffer.count, "%Y-%m-%dT%H:%M:%S%z", &local)
        return String(decoding: buffer[..<count].map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }
}
