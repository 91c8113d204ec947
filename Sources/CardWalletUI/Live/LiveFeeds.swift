import CardAPI
import Networking
import Synchronization

/// Turns the live layers' streams into the ``AppAction``s ``AppRunner/listen(to:)`` takes:
/// network events become log lines, session states become status changes (and log lines for
/// refreshes and E06). Every line also goes to the log file when there is one.
///
/// ```swift
/// runner.listen(to: LiveFeeds.logActions(from: logger.events(), lines: maker, file: logFile))
/// runner.listen(to: LiveFeeds.sessionActions(from: performer.sessionStates(), lines: maker, file: logFile))
/// ```
public enum LiveFeeds {
    /// `.log` actions for `events`. The stream ends when `events` does, and stops reading
    /// `events` when its own reader goes away.
    public static func logActions(
        from events: AsyncStream<NetworkEvent>, lines: LogLineMaker, file: LogFileWriter? = nil
    ) -> AsyncStream<AppAction> {
        relay(events) { event, yield in
            guard let line = lines.line(for: event) else { return }
            file?.write(line)
            yield(.log(line))
        }
    }

    /// `.session` actions for `states`, each preceded by a `.log` line when the change is worth
    /// one (a refresh starting, E06, a login or logout).
    public static func sessionActions(
        from states: AsyncStream<SessionState>, lines: LogLineMaker, file: LogFileWriter? = nil
    ) -> AsyncStream<AppAction> {
        let previous = Mutex<SessionState?>(nil)
        return relay(states) { state, yield in
            let before = previous.withLock { previous in
                defer { previous = state }
                return previous
            }
            if let line = lines.line(from: before, to: state) {
                file?.write(line)
                yield(.log(line))
            }
            yield(.session(SessionStatus(state)))
        }
    }

    /// A stream fed by a task that reads `source` and maps each element through `transform`.
    private static func relay<Element: Sendable>(
        _ source: AsyncStream<Element>,
        _ transform: @escaping @Sendable (Element, (AppAction) -> Void) -> Void
    ) -> AsyncStream<AppAction> {
        let (stream, continuation) = AsyncStream.makeStream(of: AppAction.self)
        let task = Task {
            for await element in source {
                transform(element) { continuation.yield($0) }
            }
            continuation.finish()
        }
        continuation.onTermination = { _ in task.cancel() }
        return stream
    }
}
