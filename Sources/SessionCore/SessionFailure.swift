import Foundation
public import TokenStore

/// The error type a ``TokenSession`` throws: each backend's own (the card API's `CardAPIError`,
/// OAuth's `OAuthError`), so that callers see the same errors they always did, whoever keeps
/// the tokens fresh. The session needs only these few cases of it; enum cases of the same names
/// satisfy the requirements.
public protocol SessionFailure: Error, Sendable {
    /// The server ended the session (E06, `invalid_grant`): every later call fails fast until
    /// the next login.
    static func sessionExpired(server: String, account: String?) -> Self
    /// No tokens are stored for `server` (and `account`, when one was asked for).
    static func notLoggedIn(server: String, account: String?) -> Self
    /// Several accounts are stored for `server` and none was chosen.
    static func multipleAccounts(server: String, accounts: [String]) -> Self
    /// The token file could not be read or written.
    static func tokenStore(_ error: TokenStoreError) -> Self
    /// The loop guard refused a refresh (``RefreshGuard``).
    static func excessiveRefresh(count: Int, window: Duration) -> Self
    /// The waiting task was cancelled.
    static var cancelled: Self { get }

    /// Any error met on the way (a token store's, a cancellation, this type's own), as this type.
    static func converting(_ error: any Error) -> Self

    /// Whether this is ``cancelled``.
    var isCancellation: Bool { get }
}
