import Foundation

/// The session's token rules. `docs/Session.md` ("The refresh margin" and "The loop guard")
/// says why each has its value.
public struct SessionPolicy: Sendable, Equatable {
    /// The longest refresh margin. An access token is refreshed before sending once it expires
    /// within ``refreshMarginFraction`` of its lifetime, but never more than this before its
    /// expiry; a token of unknown lifetime (a token file written before the lifetime was kept)
    /// gets this margin.
    public var refreshMargin: Duration
    /// The refresh margin as a share of the access token's lifetime.
    public var refreshMarginFraction: Double
    /// A token this computer received less than this ago (in this process or another) is never
    /// refreshed before the server rejects it, whatever the clock says about its expiry.
    public var minimumTokenAge: Duration
    /// The loop guard: after this many refreshes in a row whose new access token the server
    /// rejected before accepting any request made with it, the session stops refreshing
    /// (the exchange's `excessiveRefresh` failure) until the guard's window has passed.
    public var maximumRejectedRefreshes: Int
    /// The guard's shortest window; it is ten access-token lifetimes when that is longer.
    public var refreshWindow: Duration
    /// The guard's longest window.
    public var longestRefreshWindow: Duration
    /// The longest `Retry-After` (the card API's E10, a 429) the client waits out before retrying once; longer waits
    /// fail at once with the server's error, which carries the wait.
    public var maximumRetryAfter: Duration
    /// The most time a login, refresh or logout exchange may take. Keep it below the token
    /// store's lock timeout (30 s): other processes wait on the lock while a refresh is on the wire.
    public var authTimeout: Duration

    /// The rules; every parameter has the documented default.
    public init(
        refreshMargin: Duration = .seconds(30), refreshMarginFraction: Double = 0.1,
        minimumTokenAge: Duration = .seconds(1), maximumRejectedRefreshes: Int = 3,
        refreshWindow: Duration = .seconds(30), longestRefreshWindow: Duration = .seconds(300),
        maximumRetryAfter: Duration = .seconds(30), authTimeout: Duration = .seconds(20)
    ) {
        self.refreshMargin = refreshMargin
        self.refreshMarginFraction = refreshMarginFraction
        self.minimumTokenAge = minimumTokenAge
        self.maximumRejectedRefreshes = maximumRejectedRefreshes
        self.refreshWindow = refreshWindow
        self.longestRefreshWindow = longestRefreshWindow
        self.maximumRetryAfter = maximumRetryAfter
        self.authTimeout = authTimeout
    }
}
