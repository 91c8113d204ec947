import Foundation

/// Counts events per key over a sliding window (one minute) and says when a key is over its limit.
///
/// A pure value that takes `now`, so tests move time instead of sleeping. A limit of 0 turns it off.
struct SlidingWindowLimiter<Key: Hashable & Sendable>: Sendable {
    let limit: Int
    let window: TimeInterval
    private var events: [Key: [Date]] = [:]
    private var lastSweep = Date.distantPast

    init(limit: Int, window: TimeInterval = 60) {
        self.limit = limit
        self.window = window
    }

    /// Whole seconds until `key` may act again, or `nil` when it is under the limit now.
    mutating func retryAfter(_ key: Key, now: Date) -> Int? {
        guard limit > 0 else { return nil }
        sweepIfDue(now: now)
        let recent = trimmed(key, now: now)
        guard recent.count >= limit, let oldest = recent.first else { return nil }
        return max(1, Int((oldest.addingTimeInterval(window).timeIntervalSince(now)).rounded(.up)))
    }

    /// Records one event for `key`.
    mutating func record(_ key: Key, now: Date) {
        guard limit > 0 else { return }
        var recent = trimmed(key, now: now)
        recent.append(now)
        // Only the newest `limit` events matter for the decision.
        if recent.count > limit { recent.removeFirst(recent.count - limit) }
        events[key] = recent
    }

    /// Checks and records in one step: `nil` (and the event counted) when allowed.
    mutating func attempt(_ key: Key, now: Date) -> Int? {
        if let wait = retryAfter(key, now: now) { return wait }
        record(key, now: now)
        return nil
    }

    /// How many events `key` had within the window before `now`.
    mutating func count(_ key: Key, now: Date) -> Int {
        trimmed(key, now: now).count
    }

    /// Forgets `key`'s events.
    mutating func reset(_ key: Key) {
        events[key] = nil
    }

    private mutating func trimmed(_ key: Key, now: Date) -> [Date] {
        let start = now.addingTimeInterval(-window)
        let recent = (events[key] ?? []).filter { $0 > start && $0 <= now }
        events[key] = recent.isEmpty ? nil : recent
        return recent
    }

    private mutating func sweepIfDue(now: Date) {
        guard abs(now.timeIntervalSince(lastSweep)) >= window else { return }
        let start = now.addingTimeInterval(-window)
        events = events.compactMapValues { dates in
            let recent = dates.filter { $0 > start }
            return recent.isEmpty ? nil : recent
        }
        lastSweep = now
    }
}
