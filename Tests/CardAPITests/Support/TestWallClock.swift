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

    func advance(by duration: Duration) {
        current.withLock { $0 = $0.addingTimeInterval(Double(duration.components.seconds)) }
    }
}

/// Something with a `now` (the mock server's `ManualWallClock`) as a session clock.
struct BorrowedWallClock: SessionClock {
    let read: @Sendable () -> Date
    var now: Date { read() }
}
