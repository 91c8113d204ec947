public import CardBackend
import OAuth
import TextSafety

extension CardDAVError: BackendFailure {
    /// The kind of failure above the backend seam. A refused stored password is CardDAV's
    /// "session ended" (the card API's E06): ``CardDAVBackend`` says so with its own failure.
    public var failureKind: BackendFailureKind {
        switch self {
        case .cannotConnect(let server, _, let reason): .cannotConnect(server: server, reason: reason)
        case .timedOut, .connectionFailed: .noAnswer
        case .credentialRefused: .loginFailed
        case .credentialUnavailable: .notLoggedIn
        case .forbidden: .server(status: 403)
        case .notFound: .notFound
        case .conflict: .conflict
        case .insecureServer: .insecureServer
        case .invalidServerURL: .badAddress
        case .foreignLocation: .badAddress
        case .notCardDAV: .wrongAddress
        case .badAnswer(_, let status, _), .serverFailure(_, let status, _): .server(status: status)
        case .invalidRequest: .other
        case .cancelled: .cancelled
        case .authorization(let error): error.failureKind
        }
    }
}

/// A failure of the CardDAV backend itself (not of one request).
public struct CardDAVBackendFailure: BackendFailure, Equatable {
    public let failureKind: BackendFailureKind
    public let description: String

    init(_ kind: BackendFailureKind, _ description: String) {
        self.failureKind = kind
        self.description = description
    }

    /// No password is stored for this server: log in first.
    static func notLoggedIn(_ server: String) -> CardDAVBackendFailure {
        CardDAVBackendFailure(
            .notLoggedIn,
            "Not logged in at \(TerminalText.escaped(server)). Log in with `cardwallet login --server "
                + "\(TerminalText.escaped(server)) --email USER` (an app password, where the server offers them).")
    }

    /// The server refused the stored password: it is forgotten here.
    static func passwordRefused(_ server: String, _ account: String) -> CardDAVBackendFailure {
        CardDAVBackendFailure(
            .sessionEnded(server: server, account: account),
            "The server refused the stored password of \(TerminalText.escaped(account)) (401): it was removed from "
                + "this computer. Log in again (an app password may have been revoked).")
    }
}
