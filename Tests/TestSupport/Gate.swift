import Synchronization

/// Holds tasks at `wait()` until `open()`; once open, `wait()` passes at once.
public final class Gate: Sendable {
    private struct State {
        var isOpen = false
        var waiters: [CheckedContinuation<Void, Never>] = []
    }

    private let state = Mutex(State())

    /// Tasks waiting now.
    public var waiterCount: Int { state.withLock { $0.waiters.count } }

    /// A gate, shut.
    public init() {}

    /// Returns once the gate is open.
    public func wait() async {
        await withCheckedContinuation { continuation in
            let pass = state.withLock { state -> Bool in
                if state.isOpen { return true }
                state.waiters.append(continuation)
                return false
            }
            if pass { continuation.resume() }
        }
    }

    /// Opens the gate: every waiter goes on, and so will later ones.
    public func open() {
        let waiters = state.withLock { state -> [CheckedContinuation<Void, Never>] in
            state.isOpen = true
            defer { state.waiters.removeAll() }
            return state.waiters
        }
        for waiter in waiters { waiter.resume() }
    }
}
