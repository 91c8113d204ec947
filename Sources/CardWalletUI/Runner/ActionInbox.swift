import Synchronization

/// News that becomes actions only when the main loop takes it: a producer on a hot path (a
/// request's task recording a log event) hands over what it has, and the loop does the work of
/// making actions (redacting, formatting) on its own time.
public protocol InboxItem: Sendable {
    /// Appends the actions this item stands for, in order. Runs on the main loop.
    func actions(into actions: inout [AppAction])
}

/// The one ordered channel from the rest of the program to the main loop: call results, log
/// lines and session news, in the order they were sent. Safe to use from any thread; the main
/// loop drains it every turn.
///
/// Whoever sends after something happened sends after its causes: a refresh's exchange is
/// logged (sent here by the logger plugin) before the session publishes the state it caused
/// (sent here by the session), from the same task, so the loop sees them in that order.
///
/// The inbox wakes the loop (``TerminalBackend/waker``) on the first waking entry since the loop
/// last drained it, so a loop waiting for a key paints news at once, and a burst of news costs
/// one wake-up. Entries sent with `wakes: false` (the log pane's network events, several per
/// request) wait for the loop's next turn — the next waking entry (a call's outcome, session
/// news) or the loop's poll timeout, whichever comes first — still in order with the rest.
public final class ActionInbox: Sendable {
    private enum Entry: Sendable {
        case action(AppAction)
        case item(any InboxItem)
    }

    private struct State {
        var queue: [Entry] = []
        var wake: (@Sendable () -> Void)?
        /// Whether the loop was woken since it last drained.
        var woken = false
        /// Until when waking is left to the loop's own turn (see ``ActionInbox/frame``).
        var quietUntil: ContinuousClock.Instant?
    }

    private let state: Mutex<State>

    /// At most one wake-up per frame while news keeps coming: after a drain that took
    /// something, entries sent within `frame` do not wake the loop, which promises to come back
    /// by itself within `frame` (``AppRunner`` waits at most that long after such a turn). Zero:
    /// every first entry after a drain wakes it.
    public let frame: Duration

    /// An empty inbox.
    ///
    /// - Parameter wake: Called from the sending thread when the inbox stops being empty;
    ///   usually a backend's ``TerminalBackend/waker`` (see ``setWake(_:)``). It must be cheap
    ///   and must not block.
    ///   - frame: The shortest time between two wake-ups while news keeps coming (16 ms in the
    ///     TUI: a stream of results paints at most about 60 frames a second); zero by default.
    public init(wake: (@Sendable () -> Void)? = nil, frame: Duration = .zero) {
        state = Mutex(State(wake: wake))
        self.frame = frame
    }

    /// Wakes the loop with `wake` from now on (the runner sets its backend's waker here).
    public func setWake(_ wake: (@Sendable () -> Void)?) {
        state.withLock { $0.wake = wake }
    }

    /// Queues `action` for the main loop.
    public func send(_ action: AppAction) {
        enqueue(.action(action))
    }

    /// Queues `item`, made into actions when the loop drains it.
    ///
    /// - Parameters:
    ///   - item: The news.
    ///   - wakes: Whether the loop must see it at once (`false`: at its next turn, within its
    ///     poll timeout; for news nobody waits on, such as log lines).
    public func send(_ item: some InboxItem, wakes: Bool = true) {
        enqueue(.item(item), wakes: wakes)
    }

    private func enqueue(_ entry: Entry, wakes: Bool = true) {
        let wake = state.withLock { state -> (@Sendable () -> Void)? in
            state.queue.append(entry)
            guard wakes, !state.woken else { return nil }
            if let quietUntil = state.quietUntil, ContinuousClock.now < quietUntil { return nil }
            state.woken = true
            return state.wake
        }
        wake?()
    }

    /// Whether nothing waits.
    public var isEmpty: Bool { state.withLock { $0.queue.isEmpty } }

    /// Takes everything queued, oldest first, as actions (items are made into actions here,
    /// outside the lock, so senders never wait for that).
    public func drain() -> [AppAction] {
        let entries = state.withLock { state in
            let entries = state.queue
            state.queue.removeAll(keepingCapacity: true)
            state.woken = false
            if !entries.isEmpty, frame > .zero { state.quietUntil = ContinuousClock.now + frame }
            return entries
        }
        var actions: [AppAction] = []
        actions.reserveCapacity(entries.count)
        for entry in entries {
            switch entry {
            case .action(let action): actions.append(action)
            case .item(let item): item.actions(into: &actions)
            }
        }
        return actions
    }
}
