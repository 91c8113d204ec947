import Foundation
import Logging
import Synchronization
package import TokenStore

/// The loop guard's inputs and its one decision. `docs/Session.md`, "The loop guard", says why
/// it counts only refreshed tokens the server rejected.
extension TokenSession {
    /// Whether a refreshed access token is waiting for the server's first verdict; when not,
    /// responses need no further look (the hot path).
    nonisolated var awaitsVerdict: Bool {
        loopGuard.withLock { $0.onProbation != nil }
    }

    /// The server accepted a request made with `accessToken` (a 2xx).
    nonisolated func serverAccepted(_ accessToken: String) {
        loopGuard.withLock { $0.accepted(accessToken) }
    }

    /// The server rejected `accessToken` (it expired or is invalid).
    nonisolated func serverRejected(_ accessToken: String) {
        let now = wallClock.now
        loopGuard.withLock { $0.rejected(accessToken, at: now) }
    }

    /// Lets a refresh of `current` go on the wire, or refuses it with the failure's
    /// `excessiveRefresh` when the last ``SessionPolicy/maximumRejectedRefreshes`` refreshed
    /// tokens were all rejected within the guard's window (ten lifetimes of `current`, 30 s to
    /// 5 min).
    func admitRefresh(of current: TokenItem) throws(Failure) {
        let window = policy.guardWindow(forLifetime: current.accessTokenLifetime)
        let now = wallClock.now
        guard !loopGuard.withLock({ $0.admits(at: now, window: window) }) else { return }
        logger.error(
            "Refused a token refresh: the server rejected each of the last refreshed access tokens",
            metadata: [
                "server": "\(serverKey)", "rejected": "\(policy.maximumRejectedRefreshes)",
                "window": "\(SessionSeconds.text(window))",
            ])
        throw .excessiveRefresh(count: policy.maximumRejectedRefreshes, window: window)
    }

    /// Forgets the guard's streak (a login starts afresh).
    func resetLoopGuard() {
        loopGuard.withLock { $0.reset() }
    }

    /// A refresh produced `item`: its access token is watched until the server's first
    /// verdict. Called before anyone can use the token.
    func watchRefreshed(_ item: TokenItem) {
        loopGuard.withLock { $0.produced(item.accessToken) }
        warnIfArrivedExpired(item)
    }

    /// Logs the one piece of evidence this computer's clock gives: a new access token that had
    /// already expired by it when it arrived. The session then uses such tokens until the server
    /// rejects them (``SessionPolicy/refreshDate(for:)``) instead of refreshing on every request.
    package func warnIfArrivedExpired(_ item: TokenItem) {
        guard let lifetime = item.accessTokenLifetime, lifetime <= 0 else { return }
        logger.warning(
            """
            The new access token had already expired by this computer's clock when it arrived: the clock \
            is probably ahead of the server's. Tokens are refreshed when the server rejects them.
            """,
            metadata: ["server": "\(serverKey)", "late": "\(-lifetime) s"])
    }
}

/// Durations as people read them: `30 s`, `1.5 s`.
package enum SessionSeconds {
    package static func text(_ duration: Duration) -> String {
        let (seconds, attoseconds) = duration.components
        if attoseconds == 0 { return "\(seconds) s" }
        return String(format: "%.1f s", Double(seconds) + Double(attoseconds) / 1e18)
    }
}
