/// The session as the status bar shows it; the glue reports the session's changes here
/// as ``AppAction/session(_:)``.
public enum SessionStatus: Equatable, Sendable {
    /// No tokens.
    case loggedOut
    /// Logged in as `email` at `server`.
    case loggedIn(email: String, server: String)
    /// A token refresh is in flight for `email` at `server`.
    case refreshing(email: String, server: String)
    /// The server answered E06: the session is over until the next login.
    case expired(email: String?, server: String?)

    /// The account, when there is one.
    public var email: String? {
        switch self {
        case .loggedOut: nil
        case .loggedIn(let email, _), .refreshing(let email, _): email
        case .expired(let email, _): email
        }
    }

    /// The server's base URL, when known.
    public var server: String? {
        switch self {
        case .loggedOut: nil
        case .loggedIn(_, let server), .refreshing(_, let server): server
        case .expired(_, let server): server
        }
    }
}
