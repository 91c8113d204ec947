import Synchronization

/// The current ``SessionState`` and its subscribers: each ``subscribe()`` gets its own stream,
/// which starts with the current state and then receives every change (repeats are dropped).
///
/// Before a change goes out, `beforePublish` runs: the session flushes its logger plugins
/// there, so the exchanges that caused the change reach their subscribers first.
final class StateBroadcaster: Sendable {
    private struct State {
        var current: SessionState
        var subscribers: [UInt64: AsyncStream<SessionState>.Continuation] = [:]
        var nextID: UInt64 = 0
    }

    private let state: Mutex<State>
    private let beforePublish: @Sendable () -> Void

    init(initial: SessionState, beforePublish: @escaping @Sendable () -> Void = {}) {
        state = Mutex(State(current: initial))
        self.beforePublish = beforePublish
    }

    deinit {
        let subscribers = state.withLock { $0.subscribers.values }
        for subscriber in subscribers { subscriber.finish() }
    }

    /// The state now.
    var current: SessionState { state.withLock { $0.current } }

    /// How many streams are subscribed.
    var subscriberCount: Int { state.withLock { $0.subscribers.count } }

    /// A new stream: the current state first, then every change. A slow reader keeps the
    /// newest 32 states.
    func subscribe() -> AsyncStream<SessionState> {
        let (stream, continuation) = AsyncStream.makeStream(
            of: SessionState.self, bufferingPolicy: .bufferingNewest(32))
        let id = state.withLock { state -> UInt64 in
            state.nextID += 1
            state.subscribers[state.nextID] = continuation
            continuation.yield(state.current)
            return state.nextID
        }
        continuation.onTermination = { [weak self] _ in
            _ = self?.state.withLock { $0.subscribers.removeValue(forKey: id) }
        }
        return stream
    }

    /// Publishes `new` unless it equals the current state.
    func publish(_ new: SessionState) {
        guard state.withLock({ $0.current != new }) else { return }
        beforePublish()
        state.withLock { state in
            guard state.current != new else { return }
            state.current = new
            for subscriber in state.subscribers.values { subscriber.yield(new) }
        }
    }
}
