import CardAPI
import Foundation
import Synchronization

/// A wall clock that moves only when told to.
final class TestWallClock: SessionClock {
    private let current: Mutex<Date>

    init(start: Date = Date(timeIntervalSince1970: 1_800_000_000)) {
        current = Mutex(start)
    }

    var now: Date { current.withLock { $0 } }

    /// Moves the clock on by `duration`, to the attosecond as `Date` can hold it.
    func advance(by duration: Duration) {
        let (seconds, attoseconds) = duration.components
        current.withLock { $0 = $0.addingTimeInterval(Double(seconds) + Double(attoseconds) / 1e18) }
    }
}

/// Something with a `now` (the mock server's `ManualWallClock`) as a session clock.
struct BorrowedWallClock: SessionClock {
    let read: @Sendable () -> Date
    var now: Date { read() }
}
