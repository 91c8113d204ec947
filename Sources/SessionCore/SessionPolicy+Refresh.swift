public import Foundation
public import TokenStore

/// When to refresh, and the loop guard's window: pure functions of the policy and a token, so
/// every process (and every test) computes the same dates from the same token file.
extension SessionPolicy {
    /// When `tokens`' access token is due for a refresh before sending, by this computer's
    /// clock; `distantFuture` when it never is (the server's E04 then says when).
    ///
    /// - Lifetime known and positive: `expiry − margin`, with the margin ``refreshMarginFraction``
    ///   of the lifetime, at most ``refreshMargin`` — but never before the token is
    ///   ``minimumTokenAge`` old, so a token another process received a moment ago is used, not
    ///   refreshed again.
    /// - Lifetime zero or less: the token arrived already expired by this computer's clock (the
    ///   clock is ahead of the server's). Refreshing by the clock would refresh on every request,
    ///   so the token is used until the server rejects it.
    /// - Lifetime unknown (a token file written before it was kept): `expiry − refreshMargin`.
    public func refreshDate(for tokens: TokenItem) -> Date {
        let expiry = tokens.accessTokenExpiresAt
        guard let lifetime = tokens.accessTokenLifetime, let received = tokens.accessTokenIssuedAt else {
            return expiry.addingTimeInterval(-refreshMargin.timeInterval)
        }
        guard lifetime > 0 else { return .distantFuture }
        let byMargin = expiry.addingTimeInterval(-margin(forLifetime: lifetime))
        return max(byMargin, received.addingTimeInterval(minimumTokenAge.timeInterval))
    }

    /// The refresh margin in seconds for a token that lives `lifetime` seconds (`nil`: unknown).
    public func margin(forLifetime lifetime: TimeInterval?) -> TimeInterval {
        let longest = max(0, refreshMargin.timeInterval)
        guard let lifetime else { return longest }
        return min(longest, max(0, lifetime * refreshMarginFraction))
    }

    /// The loop guard's window for tokens that live `lifetime` seconds: ten lifetimes, at least
    /// ``refreshWindow`` and at most ``longestRefreshWindow``.
    public func guardWindow(forLifetime lifetime: TimeInterval?) -> Duration {
        let shortest = refreshWindow.timeInterval
        let longest = max(shortest, longestRefreshWindow.timeInterval)
        var seconds = shortest
        if let lifetime, lifetime > 0 { seconds = min(longest, max(shortest, 10 * lifetime)) }
        return .milliseconds(Int64((seconds * 1000).rounded()))
    }
}

extension Duration {
    /// The duration in seconds, as `Date` arithmetic counts time.
    package var timeInterval: TimeInterval {
        let (seconds, attoseconds) = components
        return TimeInterval(seconds) + TimeInterval(attoseconds) / 1e18
    }
}
