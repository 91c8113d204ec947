/// A failure of a ``CardBackend`` call, read through one small set of predicates.
///
/// Each backend's error type conforms: it says which ``BackendFailureKind`` it is, and its
/// `description` is a sentence a person can act on (terminal-safe, never a token or password).
/// The interface's failures and the scripting commands' exit statuses are decided from the kind.
public protocol BackendFailure: Error, Sendable, CustomStringConvertible {
    /// What kind of failure this is.
    var failureKind: BackendFailureKind { get }
    /// The error code the server sent with it, as it may be shown (the card API's `E07`);
    /// `nil` for a server whose protocol has none (CardDAV) and failures found here. Messages
    /// name a code only when there is one. `nil` unless a backend says otherwise.
    var serverCode: String? { get }
}

extension BackendFailure {
    public var serverCode: String? { nil }

    /// The server's code as a message adds it after what failed: ` (E07)`, or nothing.
    public var codeNote: String { serverCode.map { " (\($0))" } ?? "" }
}

/// The failures callers above the seam treat differently.
public enum BackendFailureKind: Sendable, Hashable {
    /// No connection could be made to `server`; `reason` says why (refused, unknown host…).
    case cannotConnect(server: String, reason: String)
    /// The server took the connection but the exchange timed out or broke off.
    case noAnswer
    /// There is no session or credential for this server: log in first.
    case notLoggedIn
    /// Several accounts are logged in at `server`; one must be chosen.
    case multipleAccounts(server: String, accounts: [String])
    /// The server ended the session (the card API's E06, a stored password refused): the
    /// credential is gone here too; log in again. The account's cached cards are wiped, its
    /// outbox kept.
    case sessionEnded(server: String, account: String?)
    /// The server refused the credentials just given (wrong email, user or password).
    case loginFailed
    /// The server refused the session's credentials for this request (log in again), without
    /// ending the session by itself.
    case loginRequired
    /// No such card.
    case notFound
    /// The card changed since the revision the change was based on.
    case conflict
    /// The server refused the values; `fields` names the problems by field key.
    case invalid(fields: [String: String])
    /// The upload is larger than the server takes.
    case tooLarge
    /// The server does not take this kind of picture.
    case unsupportedMedia
    /// Too many requests; try again after `retryAfterSeconds` when the server said.
    case rateLimited(retryAfterSeconds: Int?)
    /// The address answers, but not as this kind of server (the card API's 404 E01).
    case wrongAddress
    /// The server address cannot be used (not a URL, a password in it).
    case badAddress
    /// Plain `http://` to another computer, not allowed: credentials would travel in the clear.
    case insecureServer
    /// A picture chosen for upload cannot be used; found before anything was sent.
    case localImage(problem: ImageProblem)
    /// The call was cancelled.
    case cancelled
    /// The server failed (a 5xx, an error it did not explain, an answer that is not its protocol's).
    case server(status: Int?)
    /// Something on this computer keeps any request from working now (the token file, a
    /// refresh loop): no further request would do better.
    case unusable
    /// Anything else.
    case other
}

extension BackendFailure {
    /// Whether the server could not be reached or did not answer: answer from the cache, queue
    /// the change, try again later.
    public var isNetworkFailure: Bool {
        switch failureKind {
        case .cannotConnect, .noAnswer: true
        default: false
        }
    }

    /// Whether there is no such card.
    public var isNotFound: Bool { failureKind == .notFound }

    /// Whether the card changed since the revision the change was based on.
    public var isConflict: Bool { failureKind == .conflict }

    /// Whether the person must log in (again) before anything else works.
    public var requiresLogin: Bool {
        switch failureKind {
        case .notLoggedIn, .multipleAccounts, .sessionEnded, .loginRequired: true
        default: false
        }
    }

    /// Whether the server refused the values (the card API's E01).
    public var isInvalid: Bool {
        if case .invalid = failureKind { return true }
        return false
    }

    /// The server and account whose session the server ended, when it did.
    public var endedSession: (server: String, account: String?)? {
        if case .sessionEnded(let server, let account) = failureKind { return (server, account) }
        return nil
    }

    /// Whether no other card of a batch (an import, the outbox) could do better after this.
    public var stopsBatch: Bool {
        if requiresLogin || isNetworkFailure { return true }
        switch failureKind {
        case .cancelled, .unusable, .rateLimited, .wrongAddress, .badAddress, .insecureServer: return true
        default: return false
        }
    }
}

/// Reading any error as a backend failure.
public enum BackendFailures {
    /// `error`'s kind when it is a ``BackendFailure``; `nil` for other errors.
    public static func kind(of error: any Error) -> BackendFailureKind? {
        (error as? any BackendFailure)?.failureKind
    }

    /// Whether `error` is a backend failure for which the server could not be reached.
    public static func isNetworkFailure(_ error: any Error) -> Bool {
        (error as? any BackendFailure)?.isNetworkFailure ?? false
    }

    /// Whether `error` is a backend failure saying there is no such card.
    public static func isNotFound(_ error: any Error) -> Bool {
        (error as? any BackendFailure)?.isNotFound ?? false
    }
}
