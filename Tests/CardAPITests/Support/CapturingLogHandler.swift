import Logging
import Synchronization

/// Collects every log line (message and metadata) so tests can search them.
final class LogSink: Sendable {
    private let lines = Mutex<[String]>([])

    func append(_ line: String) { lines.withLock { $0.append(line) } }

    var all: [String] { lines.withLock { $0 } }

    /// A logger at `trace` writing here.
    func logger(label: String = "test") -> Logger {
        Logger(label: label) { _ in CapturingLogHandler(sink: self) }
    }
}

struct CapturingLogHandler: LogHandler {
    let sink: LogSink
    var metadata: Logger.Metadata = [:]
    var logLevel: Logger.Level = .trace

    subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }

    func log(event: LogEvent) {
        let merged = metadata.merging(event.metadata ?? [:]) { $1 }
        sink.append("\(event.level) \(event.message) \(merged)")
    }
}
