/// What a person logs in with. Each backend's provider says which kinds it takes
/// (``LoginMethod``); a backend given another kind refuses it before sending anything.
public enum LoginCredential: Sendable, CustomStringConvertible {
    /// A user name (the email on the card API) and a password (an app password where the
    /// provider has them).
    case password(user: String, password: String)

    /// The user the credential names.
    public var user: String {
        switch self {
        case .password(let user, _): user
        }
    }

    /// How the person logs in with it.
    public var method: LoginMethod {
        switch self {
        case .password: .password
        }
    }

    /// The credential without its secret: `password for alice`.
    public var description: String {
        switch self {
        case .password(let user, _): "password for \(user)"
        }
    }
}

/// The ways of logging in a backend may take.
public enum LoginMethod: String, Sendable, Hashable, CaseIterable, CustomStringConvertible {
    /// A user name and a password, typed, piped or given by a password command.
    case password

    public var description: String { rawValue }
}

/// What a login found out.
public struct LoginOutcome: Sendable {
    /// Who is logged in.
    public var account: SessionAccount
    /// Whether the server needs the password on every request (CardDAV's HTTP Basic), so that the
    /// account's secret store must keep it; `false` when the login earned tokens instead.
    public var keepsPassword: Bool
    /// The address book the login chose, where the server has books.
    public var book: AddressBookInfo?
    /// What the login chose and why, for the person (the books it did not choose, a host the
    /// password went to).
    public var note: String?

    /// An outcome.
    public init(account: SessionAccount, keepsPassword: Bool = false, book: AddressBookInfo? = nil, note: String? = nil)
    {
        self.account = account
        self.keepsPassword = keepsPassword
        self.book = book
        self.note = note
    }
}
