import Foundation

/// The failed-login limit for one key (client address and account), counting logins still
/// being checked as possible failures.
///
/// A pure value that takes `now`, so tests move time instead of sleeping. The rules:
/// - only failures are recorded, over a sliding window; a success forgets them;
/// - when the recorded failures reach the limit, every attempt is refused (E10) until the
///   window lets the oldest one go — even with the right password, or the answer would tell
///   a guesser which password was right;
/// - an attempt that would reach the limit only because others are still being checked
///   waits for them instead of being refused. So parallel guesses cannot slip past the limit,
///   and parallel logins with the right password are never refused.
struct LoginThrottle<Key: Hashable & Sendable>: Sendable {
    /// What an attempt may do now.
    enum Decision: Sendable, Equatable {
        /// Check the password; report the outcome with ``finish(_:succeeded:now:)``.
        case proceed
        /// Wait until an attempt in flight for this key finishes, then ask again.
        case wait
        /// Refuse with E10; the client may try again after this many whole seconds.
        case refuse(retryAfter: Int)
    }

    let limit: Int
    private var failures: SlidingWindowLimiter<Key>
    private var inFlight: [Key: Int] = [:]

    /// - Parameter limit: failures allowed per key in any minute; 0 turns the limit off.
    init(limit: Int, window: TimeInterval = 60) {
        self.limit = limit
        failures = SlidingWindowLimiter(limit: limit, window: window)
    }

    /// Decides about a new attempt for `key`; `.proceed` counts it as in flight.
    mutating func begin(_ key: Key, now: Date) -> Decision {
        guard limit > 0 else { return .proceed }
        if let wait = failures.retryAfter(key, now: now) { return .refuse(retryAfter: wait) }
        let pending = inFlight[key, default: 0]
        if failures.count(key, now: now) + pending >= limit { return .wait }
        inFlight[key] = pending + 1
        return .proceed
    }

    /// Records the outcome of an attempt that was allowed to proceed.
    mutating func finish(_ key: Key, succeeded: Bool, now: Date) {
        guard limit > 0 else { return }
        let pending = inFlight[key, default: 0] - 1
        inFlight[key] = pending > 0 ? pending : nil
        if succeeded {
            failures.reset(key)
        } else {
            failures.record(key, now: now)
        }
    }

    /// How many attempts for `key` are being checked now.
    func attemptsInFlight(_ key: Key) -> Int { inFlight[key, default: 0] }
}
