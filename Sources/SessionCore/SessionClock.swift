public import Foundation

/// Where the session reads the wall-clock time it compares token expiry dates with.
///
/// Injected so tests move time forward instead of sleeping; any type with a `now` works (the
/// mock server's `ManualWallClock` has the same shape).
public protocol SessionClock: Sendable {
    /// The current date.
    var now: Date { get }
}

/// The system's clock: `Date()`.
public struct SystemSessionClock: SessionClock {
    /// The system clock.
    public init() {}

    /// The current date.
    public var now: Date { Date() }
}
