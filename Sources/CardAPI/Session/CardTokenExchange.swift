import CardAPIContract
import Foundation
public import Networking
@_exported public import SessionCore
public import TokenStore

/// The card API's session: the tokens of one account at one server, kept fresh by the shared
/// session machinery (``SessionCore/TokenSession``) with the card API's refresh
/// (`POST /auth/refresh`) and error codes (E03/E04 refresh, E06 ends the session). Login, logout
/// and status are the card API's own (`CardSession+Login.swift`, `CardSession+Logout.swift`).
/// `docs/Session.md` has the whole state diagram. Get one from ``CardAPIClient/session``.
public typealias CardSession = TokenSession<CardTokenExchange>

/// The card API's requests' interceptor: the shared ``SessionCore/BearerInterceptor`` on the
/// card API's verdicts.
typealias SessionInterceptor = BearerInterceptor<CardTokenExchange>

/// What the shared session machinery needs of the card API: its refresh on the wire, its E06,
/// and what its answers say of an access token.
public struct CardTokenExchange: TokenExchange {
    public typealias Failure = CardAPIError

    /// The API's base URL.
    let server: URL
    /// The auth endpoints' provider: the caller's plugins (so the log pane shows refreshes and
    /// E06), no interceptor, no retries.
    let auth: Provider<AuthService>
    /// Turns answers into data or ``CardAPIError``s.
    let judge: ResponseJudge
    /// The deadline of a login, refresh or logout.
    let authTimeout: Duration

    /// `POST /auth/refresh` with the held refresh token; the new pair is checked for its form
    /// (``SessionCore/TokenSyntax``) before anything keeps it.
    public func refresh(_ held: TokenItem, in file: LockedTokenFile, clock: any SessionClock) async throws(CardAPIError)
        -> TokenItem
    {
        let target = AuthService(
            server: server, endpoint: .refresh(refreshToken: held.refreshToken), timeout: authTimeout)
        let response: Response
        do {
            response = try await auth.request(target)
        } catch {
            throw judge.error(from: error)
        }
        let grant = try judge.grant(from: response)
        return TokenItem(
            server: held.server, account: held.account, accessToken: grant.accessToken,
            accessTokenExpiresAt: grant.accessTokenExpiresAt, refreshToken: grant.refreshToken,
            refreshTokenExpiresAt: grant.refreshTokenExpiresAt, userID: grant.user.id,
            displayName: grant.user.name, accessTokenIssuedAt: clock.now)
    }

    /// E06: the refresh token expired, was revoked or reused.
    public func endsSession(_ error: CardAPIError) -> Bool {
        error.errorCode == .refreshTokenExpired
    }

    /// 401 E03/E04: the access token; 401 E06: the session; 429: wait `Retry-After`.
    public func verdict(on response: Response) -> BearerVerdict {
        switch response.statusCode {
        case 401:
            switch ServerError.code(in: response) {
            case ErrorCode.accessTokenInvalid?, ErrorCode.accessTokenExpired?: .accessRejected
            case ErrorCode.refreshTokenExpired?: .sessionRejected
            default: .none
            }
        case 429: .rateLimited(retryAfter: ServerError.retryAfter(in: response))
        default: .none
        }
    }

    public var sessionEndedMessage: String { "The server ended the session (E06); stored tokens removed" }
}

extension CardAPIError: SessionFailure {
    public static func converting(_ error: any Error) -> CardAPIError { ResponseJudge.error(from: error) }

    public var isCancellation: Bool { self == .cancelled }
}
