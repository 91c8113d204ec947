import CardAPIContract
import CardBackend
import CardModels
import Foundation
public import TokenStore

/// Everything a ``CardAPIClient`` call can fail with.
///
/// Server answers keep the HTTP status, the contract's error code, the server's message (made
/// terminal-safe), the field problems and `Retry-After` (see ``ServerError``). Every
/// description is a sentence a person can act on, and none ever contains a token or password.
///
/// ```swift
/// do { _ = try await client.card(id: id) }
/// catch .server(let error) where error.code == .cardNotFound { dropFromList(id) }
/// catch .sessionExpired { showLogin() }
/// ```
public enum CardAPIError: Error, Sendable, Equatable {
    /// The server answered with an error status (an envelope with an error code, or a body
    /// that is not the API's JSON).
    case server(ServerError)
    /// No connection could be made to the server (refused, unreachable, unknown host, connect
    /// timeout). `server` is the base URL in use; `endpoint` is `host:port`.
    case cannotConnect(server: String, endpoint: String, reason: String)
    /// The server accepted the connection but did not answer in time.
    case timedOut(url: String, reason: String)
    /// The exchange failed midway: connection lost, response too large, or another transport error.
    case connectionFailed(url: String, reason: String)
    /// There are no stored tokens for this server (and account): log in first.
    case notLoggedIn(server: String, account: String?)
    /// Several accounts are logged in at this server; the caller must say which one.
    case multipleAccounts(server: String, accounts: [String])
    /// The server ended the session (E06: the refresh token expired, was revoked or reused).
    /// The stored tokens are gone; log in again. Every call fails fast with this until then.
    case sessionExpired(server: String, account: String?)
    /// The refresh-loop guard stopped refreshing: the server rejected each of the last `count`
    /// access tokens a refresh produced before accepting any request made with it. No refresh
    /// is sent for `window` (the guard's window, which scales with the token lifetime).
    case excessiveRefresh(count: Int, window: Duration)
    /// The token store cannot be used (unreadable, unsafe mode, lock timeout, …).
    case tokenStore(TokenStoreError)
    /// An image chosen for upload cannot be used; nothing was sent.
    case invalidImage(path: String, problem: ImageProblem)
    /// The text is not a card id (ids are letters, digits, `-` and `_`, at most 64): there is
    /// no such card, and nothing was sent (an id like `../cards` must never reach another path).
    case invalidCardID(String)
    /// The server address is not an `http` or `https` URL with a host, or it holds a user
    /// name and password (`http://user:pw@host/v1`). The text is the address as given, with
    /// any password replaced by `<private>`.
    case invalidServerURL(String)
    /// The server address is plain `http://` to a host other than this computer (loopback), so
    /// passwords and tokens would cross the network unencrypted; nothing was sent. Use
    /// `https://`, or allow it with ``CardAPIConfiguration/allowsInsecureHTTP``.
    case insecureServer(String)
    /// The request could not be built or sent (for example an upload file that changed size).
    case invalidRequest(String)
    /// A success status with a body that is not what the API promises.
    case unexpectedResponse(UnexpectedResponse)
    /// The calling task was cancelled.
    case cancelled

    /// The HTTP status, when the server answered.
    public var statusCode: Int? {
        switch self {
        case .server(let error): error.statusCode
        case .unexpectedResponse(let response): response.statusCode
        default: nil
        }
    }

    /// The server's error code, when it sent one.
    public var errorCode: ErrorCode? {
        if case .server(let error) = self { return error.code }
        if case .sessionExpired = self { return .refreshTokenExpired }
        return nil
    }

    /// The field problems of a validation error (E01), by field name; empty otherwise.
    public var fieldProblems: [String: String] {
        if case .server(let error) = self { return error.fields }
        return [:]
    }

    /// How long the server asked to wait (E10, 503), when it said.
    public var retryAfter: Duration? {
        if case .server(let error) = self { return error.retryAfter }
        return nil
    }

    /// Whether the session is over and the user must log in again (E06).
    public var isSessionExpired: Bool {
        if case .sessionExpired = self { return true }
        return false
    }

    /// Whether the user must log in (again) before anything else works.
    public var requiresLogin: Bool {
        switch self {
        case .sessionExpired, .notLoggedIn: true
        default: false
        }
    }

    /// Whether there is no such card: E05, or text that cannot be a card id.
    public var isNotFound: Bool {
        if case .invalidCardID = self { return true }
        return errorCode == .cardNotFound
    }

    /// Whether the card changed since it was read (E07).
    public var isConflict: Bool { errorCode == .versionConflict }

    /// Whether the server has no such endpoint (404 E01): the server address is most likely
    /// not the API's base URL. See ``ServerError/isUnknownEndpoint``.
    public var isUnknownEndpoint: Bool {
        if case .server(let error) = self { return error.isUnknownEndpoint }
        return false
    }

    /// Whether the server could not be reached or did not answer (no HTTP status).
    public var isNetworkFailure: Bool {
        switch self {
        case .cannotConnect, .timedOut, .connectionFailed: true
        default: false
        }
    }
}

/// A success status whose body is not what the API promises (not JSON, a missing field…).
public struct UnexpectedResponse: Sendable, Equatable {
    /// The HTTP status.
    public var statusCode: Int
    /// The method and path, e.g. `GET /v1/card/abc`.
    public var request: String
    /// What was expected, e.g. `Card`.
    public var expected: String
    /// What was wrong, with a short, redacted and terminal-safe excerpt of the body.
    public var detail: String

    /// An unexpected response.
    public init(statusCode: Int, request: String, expected: String, detail: String) {
        self.statusCode = statusCode
        self.request = request
        self.expected = expected
        self.detail = detail
    }
}
