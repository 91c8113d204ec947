package import Foundation

/// The refresh-loop guard: it counts a refresh only when the access token that refresh
/// produced was then rejected (401 E03/E04) before the server accepted any request made with
/// it — what a loop looks like, as when a server rejects every token it issues. Refreshes whose
/// token worked never count, however many a short token lifetime needs; the first accepted
/// request with a refreshed token ends the streak. Time is the session's wall clock.
///
/// The session keeps it under a lock, as the verdicts arrive from the requests' own tasks (the
/// interceptor's `didReceive` hook), not through the actor.
package struct RefreshGuard: Sendable {
    /// How many rejected refreshes in a row the guard allows; at this many it refuses.
    package let limit: Int
    /// The access token this session's last refresh produced, until the server has accepted
    /// or rejected a request made with it.
    package private(set) var onProbation: String?
    /// When the server rejected refreshed tokens, in the current streak.
    package private(set) var rejections: [Date] = []

    package init(limit: Int) {
        self.limit = limit
    }

    /// A refresh produced `token`: it is on probation until the server judges it.
    package mutating func produced(_ token: String) {
        onProbation = token
    }

    /// The server accepted a request made with `token`: if a refresh produced it, the streak ends.
    package mutating func accepted(_ token: String) {
        guard onProbation != nil, token == onProbation else { return }
        onProbation = nil
        rejections.removeAll()
    }

    /// The server rejected `token` (E03/E04): if a refresh produced it and no request with it
    /// was accepted yet, that refresh counts.
    package mutating func rejected(_ token: String, at now: Date) {
        guard onProbation != nil, token == onProbation else { return }
        onProbation = nil
        rejections.append(now)
    }

    /// Whether another refresh may go on the wire at `now`: fewer than ``limit`` rejected
    /// refreshes within the last `window`.
    package mutating func admits(at now: Date, window: Duration) -> Bool {
        let seconds = window.timeInterval
        rejections.removeAll { now.timeIntervalSince($0) >= seconds || $0 > now }
        return rejections.count < limit
    }

    /// Forgets everything (a login starts afresh).
    package mutating func reset() {
        onProbation = nil
        rejections.removeAll()
    }
}
