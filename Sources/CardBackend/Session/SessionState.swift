/// The account a session is logged in as.
public struct SessionAccount: Sendable, Hashable, CustomStringConvertible {
    /// The server's base URL, e.g. `http://127.0.0.1:8080/v1`.
    public var server: String
    /// The account's email (the token store's account key).
    public var email: String
    /// The user's display name, when known.
    public var name: String?
    /// The user's id on the server, when known.
    public var userID: String?
    /// Where on the server the cards are, for people (a CardDAV address book's id), when it
    /// is one of several.
    public var place: String?

    /// An account.
    public init(server: String, email: String, name: String? = nil, userID: String? = nil, place: String? = nil) {
        self.server = server
        self.email = email
        self.name = name
        self.userID = userID
        self.place = place
    }

    /// The server as the status bar shows it: with the place, when there is one
    /// (`https://dav.example.com · contacts`).
    public var shownServer: String { place.map { "\(server) · \($0)" } ?? server }

    /// `demo@cardwallet.dev at http://127.0.0.1:8080/v1`.
    public var description: String { "\(email) at \(server)" }
}

/// What a backend's session is doing.
///
/// ```
/// loggedOut ──login──► loggedIn ◄──────► refreshing
///     ▲                   │ E06 (from refresh or any call)
///     └──logout───────────┴──────────► expired ──login──► loggedIn
/// ```
public enum SessionState: Sendable, Hashable, CustomStringConvertible {
    /// No tokens for this server (never logged in, logged out, or removed by another process).
    case loggedOut(server: String)
    /// Logged in; requests carry the access token.
    case loggedIn(SessionAccount)
    /// A token refresh is on the wire; requests wait for it.
    case refreshing(SessionAccount)
    /// The server ended the session (E06). The stored tokens are gone and every call fails
    /// fast with a failure of kind ``BackendFailureKind/sessionEnded(server:account:)`` until the next login.
    case expired(server: String, account: SessionAccount?)

    /// The account, when there is one.
    public var account: SessionAccount? {
        switch self {
        case .loggedOut: nil
        case .loggedIn(let account), .refreshing(let account): account
        case .expired(_, let account): account
        }
    }

    /// The server's base URL.
    public var server: String {
        switch self {
        case .loggedOut(let server), .expired(let server, _): server
        case .loggedIn(let account), .refreshing(let account): account.server
        }
    }

    /// `logged in as demo@cardwallet.dev at http://…`; never a token.
    public var description: String {
        switch self {
        case .loggedOut(let server): "logged out of \(server)"
        case .loggedIn(let account): "logged in as \(account)"
        case .refreshing(let account): "refreshing tokens for \(account)"
        case .expired(let server, let account):
            "session expired" + (account.map { " for \($0)" } ?? " at \(server)") + "; log in again"
        }
    }
}
