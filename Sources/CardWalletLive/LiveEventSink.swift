public import CardBackend
import CardModels
public import CardWalletUI
import Foundation
public import Networking
import Synchronization

/// The one ordered channel from the live layers to the interface's main loop: the logger
/// plugin records every exchange here (as its ``Networking/NetworkEventSink``), the session
/// reports every state change here (as its ``CardBackend/SessionStateSink``), and the runner sends
/// call outcomes to the same ``CardWalletUI/ActionInbox``. Each writes from the task that made
/// the thing happen, so causal order is the order of writes: a refresh's exchange reaches the
/// log pane before the session news it caused, and both before the outcome of the call that
/// waited for the refresh.
///
/// Writing costs the writer an append. Network events do not wake the loop: their lines appear
/// at its next turn — when the call's outcome or session news wakes it, or within its poll
/// timeout (50 ms) — so a request costs the loop one wake-up (its outcome), not three. Session
/// changes and notes wake it. The work of making log lines — redacting, formatting, writing the
/// log file — happens when the loop drains the inbox.
///
/// ```swift
/// let inbox = ActionInbox()
/// let sink = LiveEventSink(inbox: inbox, lines: LogLineMaker(), file: logFile)
/// let plugin = LoggerPlugin(configuration: .init(recentCapacity: 0), sink: sink)
/// let accounts = WalletAccounts(backend: live.backend, sessionSink: sink, cacheEnvironment: nil, logger: logger) { … }
/// let runner = AppRunner(state: state, backend: terminal, inbox: inbox) { await performer.perform($0) }
/// ```
public final class LiveEventSink: NetworkEventSink, SessionStateSink {
    /// Where the actions go.
    public let inbox: ActionInbox
    /// Makes the pane's lines (its ids order every line the pane shows).
    public let lines: LogLineMaker
    private let logFile: Mutex<LogFileWriter?>

    /// Where every line is also written, if anywhere.
    public var file: LogFileWriter? { logFile.withLock { $0 } }

    /// A sink feeding `inbox`.
    ///
    /// - Parameters:
    ///   - inbox: The main loop's inbox.
    ///   - lines: Makes log lines from events, session changes and notes.
    ///   - file: The log file every line is also written to, or `nil`.
    public init(inbox: ActionInbox, lines: LogLineMaker = LogLineMaker(), file: LogFileWriter? = nil) {
        self.inbox = inbox
        self.lines = lines
        self.logFile = Mutex(file)
    }

    /// Writes every line from now on to `file` too (the log file is opened once the interface
    /// knows its state folder, after the client was built).
    public func writeLines(to file: LogFileWriter?) {
        logFile.withLock { $0 = file }
    }

    /// Takes a network event (on the request path): queued as it is, made into a line later.
    public func record(_ event: RecordedEvent) {
        // `created` is never shown: `sent` follows at once.
        guard event.kind != .created else { return }
        inbox.send(NetworkNews(event: event, sink: self), wakes: false)
    }

    /// Takes a session change: queued with its time, made into a line (for a refresh or E06)
    /// and a ``CardWalletUI/AppAction/session(_:)`` later.
    public func sessionChanged(_ state: SessionState) {
        inbox.send(SessionNews(state: state, time: Date(), sink: self))
    }

    /// A line of the app's own (the demo's address, a settings warning), in order with the rest.
    public func note(_ text: String, isFailure: Bool = false) {
        inbox.send(Note(text: text, isFailure: isFailure, time: Date(), sink: self))
    }

    /// The line saying `account`'s session was restored from the token file at start.
    public func restored(_ account: SessionAccount) {
        note("restored the session of \(account.email) at \(account.server)")
    }

    fileprivate func append(_ line: LogLine, to actions: inout [AppAction]) {
        file?.write(line)
        actions.append(.log(line))
    }
}

/// A recorded exchange, made into a log line when the loop takes it.
private struct NetworkNews: InboxItem {
    let event: RecordedEvent
    let sink: LiveEventSink

    func actions(into actions: inout [AppAction]) {
        guard let line = sink.lines.line(for: event) else { return }
        sink.append(line, to: &actions)
    }
}

/// A session change: its line first (when it is worth one), then the status.
private struct SessionNews: InboxItem {
    let state: SessionState
    let time: Date
    let sink: LiveEventSink

    func actions(into actions: inout [AppAction]) {
        if let line = sink.lines.line(for: state, at: time) { sink.append(line, to: &actions) }
        actions.append(.session(SessionStatus(state)))
    }
}

/// A note of the app's own.
private struct Note: InboxItem {
    let text: String
    let isFailure: Bool
    let time: Date
    let sink: LiveEventSink

    func actions(into actions: inout [AppAction]) {
        sink.append(sink.lines.note(text, isFailure: isFailure, at: time), to: &actions)
    }
}
