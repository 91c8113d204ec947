import Synchronization

/// Where actions from other threads wait for the main loop: request results, log lines,
/// session news. Safe to use from anywhere; the main loop drains it every turn.
public final class ActionInbox: Sendable {
    private let queue = Mutex<[AppAction]>([])

    /// An empty inbox.
    public init() {}

    /// Queues `action` for the main loop.
    public func send(_ action: AppAction) {
        queue.withLock { $0.append(action) }
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
