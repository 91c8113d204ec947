import CardModels
import Foundation
import Logging

/// A swift-log handler that writes each message as a bare line to standard error, for `-v`:
/// the `LoggerPlugin`'s swift-log bridge hands it every network event as its one-line form
/// (already redacted and escaped by `NetworkEventFormatter`), synchronously, so the lines appear
/// as the exchanges happen and none is lost when the command exits. `created` events are left
/// out: the `sent` line that follows says the same.
struct EventLineLogHandler: LogHandler {
    /// The handler's level; `trace` shows every event.
    var logLevel: Logger.Level = .trace
    /// Ignored: the line is the message alone.
    var metadata: Logger.Metadata = [:]
    /// What each line starts with.
    var prefix = "cardwallet: "

    subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }

    func log(event: LogEvent) {
        // "created" is followed at once by "sent" for the same request: one line is enough.
        if case .string("created") = event.metadata?["event"] { return }
        // The formatter's lines are escaped already; escaping again costs a scan of ASCII and
        // keeps any other message that reaches this handler on one visible line.
        Console.err(prefix + TerminalText.escaped(event.message.description) + "\n")
    }
}
