import Dispatch
import Synchronization

@testable import CardWalletUI

/// A terminal whose `nextEvent` really waits its timeout (blocking the main actor, as curses
/// does) unless its waker is called, and records how each wait ended.
@MainActor
final class WakeableBackend: TerminalBackend {
    /// How a wait with a timeout ended.
    enum WaitEnd: Equatable {
        case woken
        case timedOut
    }

    let size = (width: 80, height: 24)
    /// Scripted events, returned before any waiting.
    var events: [TerminalEvent] = []
    private(set) var frames: [Grid] = []
    private(set) var waits: [WaitEnd] = []
    /// The timeout of every wait, in order.
    private(set) var timeouts: [Int] = []
    private let wakeUps = WakeUps()

    nonisolated var waker: (@Sendable () -> Void)? {
        { [wakeUps] in wakeUps.wake() }
    }

    func nextEvent(timeoutMilliseconds: Int) -> TerminalEvent? {
        if !events.isEmpty { return events.removeFirst() }
        timeouts.append(timeoutMilliseconds)
        let woken = wakeUps.wait(milliseconds: timeoutMilliseconds)
        if timeoutMilliseconds > 0 { waits.append(woken ? .woken : .timedOut) }
        return nil
    }

    func present(_ grid: Grid) { frames.append(grid) }

    func restore() {}

    var lastText: String { frames.last?.text ?? "" }
}

/// A coalescing wake-up: a flag and a semaphore, like the curses backend's flag and pipe.
final class WakeUps: Sendable {
    private let pending = Mutex(false)
    private let semaphore = DispatchSemaphore(value: 0)

    func wake() {
        let first = pending.withLock { pending in
            defer { pending = true }
            return !pending
        }
        if first { semaphore.signal() }
    }

    /// Waits at most `milliseconds` for a wake-up and takes it; whether one came.
    func wait(milliseconds: Int) -> Bool {
        guard semaphore.wait(timeout: .now() + .milliseconds(max(0, milliseconds))) == .success else {
            return false
        }
        pending.withLock { $0 = false }
        return true
    }
}
