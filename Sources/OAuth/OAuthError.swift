public import CardBackend
public import Foundation
import Networking
public import SessionCore
import TextSafety
public import TokenStore

/// Everything that can go wrong with an OAuth 2.0 login or its tokens: one closed enum whose
/// descriptions are sentences a person can act on, terminal-safe, never holding a token, a code,
/// a verifier or a client secret.
public enum OAuthError: Error, Sendable, Hashable {
    // MARK: Finding the authorization server

    /// The issuer is not an address cardwallet can use (not `https`, or plain `http` to
    /// another computer).
    case invalidIssuer(String)
    /// Neither RFC 8414 metadata nor OpenID Connect discovery answered with a usable document.
    case metadataUnavailable(issuer: String, detail: String)

    // MARK: The authorization (the browser's part)

    /// The redirect came back with another `state` than the one sent: not this login's answer.
    case stateMismatch
    /// The authorization server (or the person) refused: `access_denied`, `invalid_scope`…
    case authorizationRefused(error: String, description: String?)
    /// No redirect came back before the deadline.
    case redirectTimedOut(after: Duration)
    /// The loopback listener could not be started.
    case listenerFailed(String)

    // MARK: The token endpoint

    /// The token endpoint refused the request (400/401 with an RFC 6749 §5.2 error other than a
    /// dead grant: `invalid_client`, `unauthorized_client`, `invalid_request`…).
    case tokenRefused(status: Int, error: String, description: String?)
    /// The grant is dead (`invalid_grant`): revoked, expired, unused for too long. Ends the
    /// session like the card API's E06.
    case grantRefused(description: String?)
    /// The token endpoint failed (5xx, or an answer that is not an RFC 6749 error).
    case tokenServerFailure(status: Int, detail: String)
    /// A success whose body is not a usable token answer.
    case badTokenAnswer(String)

    // MARK: The session (SessionCore's cases)

    /// The session ended (`invalid_grant` on a refresh, or no refresh token kept any more).
    case sessionExpired(server: String, account: String?)
    /// No tokens are stored for the server.
    case notLoggedIn(server: String, account: String?)
    /// Several accounts' tokens are stored for the server and none was chosen.
    case multipleAccounts(server: String, accounts: [String])
    /// The token file could not be read or written.
    case tokenStore(TokenStoreError)
    /// The loop guard stopped refreshing.
    case excessiveRefresh(count: Int, window: Duration)
    /// The refresh token could not be read or kept where the account keeps it (the keyring).
    case secretUnavailable(String)

    // MARK: The network

    /// The authorization server could not be reached.
    case cannotConnect(server: String, reason: String)
    /// No answer in time.
    case timedOut(url: String)
    /// The connection failed during the exchange.
    case connectionFailed(url: String, reason: String)
    /// Plain `http` to another computer.
    case insecureServer(String)
    /// Not an OAuth problem: something cardwallet cannot do as asked.
    case invalidRequest(String)
    /// Cancelled (Ctrl-C, the interface's Esc).
    case cancelled
}

extension OAuthError: SessionFailure {
    public static func converting(_ error: any Error) -> OAuthError {
        switch error {
        case let error as OAuthError: error
        case let error as TokenStoreError: .tokenStore(error)
        case is CancellationError: .cancelled
        case let error as NetworkError where error.isCancelled: .cancelled
        default: .invalidRequest(TerminalText.escaped(String(describing: error)))
        }
    }

    public var isCancellation: Bool { self == .cancelled }
}

extension OAuthError: BackendFailure {
    /// The kind above the backend seam: a dead grant is "session ended" (E06's path: the cards
    /// are wiped, the outbox kept, "log in again"); a refusal at the login is a failed login.
    public var failureKind: BackendFailureKind {
        switch self {
        case .sessionExpired(let server, let account): .sessionEnded(server: server, account: account)
        case .notLoggedIn: .notLoggedIn
        case .multipleAccounts(let server, let accounts): .multipleAccounts(server: server, accounts: accounts)
        case .stateMismatch, .authorizationRefused, .redirectTimedOut, .tokenRefused, .grantRefused: .loginFailed
        case .invalidIssuer: .badAddress
        case .insecureServer: .insecureServer
        case .metadataUnavailable: .wrongAddress
        case .cannotConnect(let server, let reason): .cannotConnect(server: server, reason: reason)
        case .timedOut, .connectionFailed: .noAnswer
        case .tokenServerFailure(let status, _): .server(status: status)
        case .badTokenAnswer: .unusable
        case .tokenStore, .secretUnavailable, .excessiveRefresh, .listenerFailed, .invalidRequest: .other
        case .cancelled: .cancelled
        }
    }
}

extension OAuthError: CustomStringConvertible, LocalizedError {
    public var description: String {
        switch self {
        case .invalidIssuer(let text):
            return "“\(Self.text(text))” is not an authorization server cardwallet can use: give its https address "
                + "(http only to this computer), or `google`."
        case .metadataUnavailable(let issuer, let detail):
            return "\(Self.text(issuer)) publishes no OAuth 2.0 metadata cardwallet can use (RFC 8414 "
                + "/.well-known/oauth-authorization-server or OpenID Connect /.well-known/openid-configuration): "
                + "\(detail)"
        case .stateMismatch:
            return "The browser came back with an answer that is not this login's (its `state` differs): nothing "
                + "was stored. Start the login again, and use only the address it gives."
        case .authorizationRefused(let error, let description):
            let said = description.map { " (the server said: “\(Self.text($0))”)" } ?? ""
            if error == "access_denied" {
                return "The access was denied at the authorization server\(said): nothing was stored. Log in again "
                    + "and allow cardwallet to use the address book."
            }
            return "The authorization server refused the login with “\(Self.text(error))”\(said): nothing was stored."
        case .redirectTimedOut(let after):
            return "No answer came back from the browser within \(SessionSeconds.text(after)): nothing was stored. "
                + "Log in again and finish the steps in the browser before then."
        case .listenerFailed(let reason):
            return "cardwallet could not listen on 127.0.0.1 for the browser's answer (\(Self.text(reason)))."
        case .tokenRefused(let status, let error, let description):
            let said = description.map { ": “\(Self.text($0))”" } ?? ""
            let hint =
                error == "invalid_client" || error == "unauthorized_client"
                ? " Check --client-id and --client-secret (or the config file's \"oauth\" entry)." : ""
            return "The token endpoint refused the request (\(status) \(Self.text(error))\(said)): nothing was "
                + "stored.\(hint)"
        case .grantRefused(let description):
            let said = description.map { " (the server said: “\(Self.text($0))”)" } ?? ""
            return "The authorization server no longer accepts this login (invalid_grant\(said)): it was revoked, "
                + "expired or not used for too long. Log in again."
        case .tokenServerFailure(let status, let detail):
            return "The token endpoint failed (\(status))\(detail.isEmpty ? "" : ": \(Self.text(detail))"). "
                + "Nothing was stored; try again later."
        case .badTokenAnswer(let detail):
            return "The token endpoint's answer cannot be used: \(Self.text(detail)). Nothing was stored."
        case .sessionExpired(let server, let account):
            let who = account.map { " of \(Self.text($0))" } ?? ""
            return "The session\(who) at \(Self.text(server)) has ended (the authorization server refused its "
                + "refresh token): log in again. Changes made offline are kept and sent after the login."
        case .notLoggedIn(let server, _):
            return "Not logged in at \(Self.text(server)): log in with `cardwallet login --oauth …`."
        case .multipleAccounts(let server, let accounts):
            return "Several accounts are logged in at \(Self.text(server)) ("
                + accounts.map { Self.text($0) }.joined(separator: ", ") + "): choose one with --account."
        case .tokenStore(let error):
            return error.description
        case .excessiveRefresh(let count, let window):
            return "The server rejected each of the last \(count) access tokens it issued before accepting a single "
                + "request made with it, so cardwallet stopped refreshing for \(SessionSeconds.text(window)) "
                + "instead of looping. Try again later."
        case .secretUnavailable(let reason):
            return "The login's refresh token could not be read or kept: \(Self.text(reason))"
        case .cannotConnect(let server, let reason):
            return "Cannot reach the authorization server \(Self.text(server)) (\(Self.text(reason)))."
        case .timedOut(let url):
            return "The authorization server did not answer in time (\(Self.text(url)))."
        case .connectionFailed(let url, let reason):
            return "The connection to the authorization server failed (\(Self.text(url)): \(Self.text(reason)))."
        case .insecureServer(let server):
            return "\(Self.text(server)) is plain http to another computer: tokens go only over https (or to this "
                + "computer)."
        case .invalidRequest(let message):
            return message
        case .cancelled:
            return "The login was cancelled: nothing was stored."
        }
    }

    public var errorDescription: String? { description }

    /// Server or user text, escaped for the terminal and cut short.
    static func text(_ text: String, limit: Int = 300) -> String {
        let cut = text.count > limit ? String(text.prefix(limit)) + "…" : text
        return TerminalText.escaped(cut)
    }
}
