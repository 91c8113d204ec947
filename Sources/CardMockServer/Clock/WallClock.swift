public import Foundation
import Synchronization

/// A source of wall-clock time for the mock server: token expiry, rate-limit windows and card
/// timestamps all read it, so tests can move time forward instead of sleeping.
public protocol WallClock: Sendable {
    /// The current date.
    var now: Date { get }
}

/// The real clock: `Date()`.
public struct SystemWallClock: WallClock {
    /// Creates the system clock.
    public init() {}

    /// The current date, from the system.
    public var now: Date { Date() }
}

/// A clock that only moves when told to, for tests.
///
/// ```swift
/// let clock = ManualWallClock()
/// let server = try await MockServer.start(configuration: configuration, clock: clock)
/// clock.advance(by: .seconds(301))  // every 5-minute access token is now expired
/// ```
public final class ManualWallClock: WallClock {
    private let current: Mutex<Date>

    /// Creates a clock that reads `start` until it is advanced or set.
    ///
    /// - Parameter start: the first date it reads. By default the current time rounded down
    ///   to a whole second, so expiry dates a client compares with its own clock look right,
    ///   and dates survive the contract's millisecond JSON format unchanged.
    public init(start: Date = Date(timeIntervalSince1970: Date().timeIntervalSince1970.rounded(.down))) {
        current = Mutex(start)
    }

    /// The clock's current date.
    public var now: Date { current.withLock { $0 } }

    /// Moves the clock forward (or backward, with a negative duration).
    /// - Parameter duration: how far to move it.
    public func advance(by duration: Duration) {
        current.withLock { $0 = $0.addingTimeInterval(duration.timeInterval) }
    }

    /// Sets the clock to a date.
    /// - Parameter date: the date it reads from now on.
    public func set(to date: Date) {
        current.withLock { $0 = date }
    }
}

extension Duration {
    /// The duration in seconds, as Foundation counts time.
    var timeInterval: TimeInterval {
        let (seconds, attoseconds) = components
        return TimeInterval(seconds) + TimeInterval(attoseconds) / 1e18
    }
}
