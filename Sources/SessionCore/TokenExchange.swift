import Foundation
public import Networking
public import TokenStore

/// What a ``TokenSession`` needs of one kind of server: how its refresh goes on the wire, which
/// of its failures end the session, and how its answers to requests judge an access token. The
/// session does the rest — the single refresh in flight across processes, the margin, the loop
/// guard, the save beside the callers — for the card API (`CardTokenExchange`) and for OAuth 2.0
/// bearer tokens (`OAuthTokenExchange`) alike (docs/Session.md, "One machinery, two servers").
public protocol TokenExchange: Sendable {
    /// The errors of this kind of server.
    associatedtype Failure: SessionFailure

    /// Exchanges `held`'s refresh grant for a new pair, on the wire. Called with the token file's
    /// exclusive lock held (`file`), after the session has re-read the stored item and found that
    /// no other process refreshed it: an exchange that keeps part of its grant elsewhere (OAuth's
    /// refresh token in the keyring) reads and writes it here, under the same lock.
    ///
    /// - Parameters:
    ///   - held: the stored pair being replaced.
    ///   - file: the token file, locked.
    ///   - clock: the session's wall clock: the new item's `accessTokenIssuedAt` is its `now`
    ///     when the answer arrived.
    /// - Returns: the new item (same server and account).
    func refresh(_ held: TokenItem, in file: LockedTokenFile, clock: any SessionClock) async throws(Failure)
        -> TokenItem

    /// Whether `error`, thrown by ``refresh(_:in:clock:)``, means the grant is dead (the card
    /// API's E06, OAuth's `invalid_grant`): the session ends, the stored item goes.
    func endsSession(_ error: Failure) -> Bool

    /// Called once after the session ended because the grant is dead, with the item it held:
    /// an exchange that keeps part of the grant elsewhere forgets it there. Default: nothing.
    func sessionEnded(_ held: TokenItem) async

    /// What the server's answer to a request made with an access token says of that token.
    func verdict(on response: Response) -> BearerVerdict

    /// What the log says when the server ended the session (names the server's reason).
    var sessionEndedMessage: String { get }
}

extension TokenExchange {
    public func sessionEnded(_ held: TokenItem) async {}
}

/// What an answer says of the access token a request carried.
public enum BearerVerdict: Sendable, Equatable {
    /// The token is expired or invalid (the card API's 401 E03/E04; a 401 with
    /// `WWW-Authenticate: Bearer error="invalid_token"`): refresh, retry once.
    case accessRejected
    /// The server ended the whole session on a request (the card API's 401 E06).
    case sessionRejected
    /// Too many requests: wait `retryAfter` (a default when `nil`), retry once.
    case rateLimited(retryAfter: Duration?)
    /// Nothing about the token (a success, or another failure).
    case none
}
