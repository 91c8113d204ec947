/// Where a ``LoggerPlugin`` hands every event it records, one by one, in the order recorded.
///
/// The plugin calls ``record(_:)`` synchronously on the thread that recorded the event (a
/// request's task), so anything the sink's owner learns later from the same task — a session
/// change the exchange caused, the request's result — reaches it after the event, as long as
/// they go into the same sink. That is how the log pane keeps causal order without flushing:
/// one ordered channel, written in the order things happen.
///
/// ```swift
/// final class Pane: NetworkEventSink {
///     let queue = Mutex<[RecordedEvent]>([])
///     func record(_ event: RecordedEvent) { queue.withLock { $0.append(event) } }
/// }
/// let logger = LoggerPlugin(sink: pane)     // the pane reads `event.event` when it draws
/// ```
public protocol NetworkEventSink: Sendable {
    /// Takes one event. It runs on the request path: keep it to an append and a wake-up, and
    /// read ``RecordedEvent/event`` (which redacts and builds the event) somewhere else.
    func record(_ event: RecordedEvent)
}
