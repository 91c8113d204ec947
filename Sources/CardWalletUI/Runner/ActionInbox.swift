import Synchronization

/// Where actions from other threads wait for the main loop: request results, log lines,
/// session news. Safe to use from anywhere; the main loop drains it every turn.
///
/// An inbox made with a `wake` function calls it after each ``send(_:)``, so a loop waiting for
/// a key (``TerminalBackend/nextEvent(timeoutMilliseconds:)``) stops waiting and paints the
/// result at once instead of at the end of its key timeout.
public final class ActionInbox: Sendable {
    private let queue = Mutex<[AppAction]>([])
    private let wake: (@Sendable () -> Void)?

    /// An empty inbox.
    ///
    /// - Parameter wake: Called from the sending thread after every ``send(_:)``; usually a
    ///   backend's ``TerminalBackend/waker``. It must be cheap and must not block.
    public init(wake: (@Sendable () -> Void)? = nil) {
        self.wake = wake
    }

    /// Queues `action` for the main loop and wakes the loop.
    public func send(_ action: AppAction) {
        queue.withLock { $0.append(action) }
        wake?()
    }

    /// Takes every queued action, oldest first.
    public func drain() -> [AppAction] {
        queue.withLock { queue in
            let actions = queue
            queue.removeAll(keepingCapacity: true)
            return actions
        }
    }
}
