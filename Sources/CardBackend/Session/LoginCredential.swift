public import Foundation

/// What a person logs in with. Each backend's provider says which kinds it takes
/// (``LoginMethod``); a backend given another kind refuses it before sending anything.
public enum LoginCredential: Sendable, CustomStringConvertible {
    /// A user name (the email on the card API) and a password (an app password where the
    /// provider has them).
    case password(user: String, password: String)
    /// An access token an OAuth 2.0 login just got (its refresh token is the account's secret,
    /// kept by the caller): the backend finds the address books with it and stores it.
    case bearer(BearerGrant)

    /// The user the credential names.
    public var user: String {
        switch self {
        case .password(let user, _): user
        case .bearer(let grant): grant.user
        }
    }

    /// How the person logs in with it.
    public var method: LoginMethod {
        switch self {
        case .password: .password
        case .bearer: .oauth
        }
    }

    /// The credential without its secret: `password for alice`, `OAuth token for alice@example.com`.
    public var description: String {
        switch self {
        case .password(let user, _): "password for \(user)"
        case .bearer(let grant): "OAuth token for \(grant.user)"
        }
    }
}

/// The access token of an OAuth 2.0 login, for the backend's login (``LoginCredential/bearer(_:)``).
public struct BearerGrant: Sendable, CustomStringConvertible {
    /// Who logged in (the ID token's email, or the user name given).
    public var user: String
    /// The person's name, when known.
    public var displayName: String?
    /// The access token.
    public var accessToken: String
    /// When it expires.
    public var accessTokenExpiresAt: Date
    /// When this computer received it (its clock).
    public var receivedAt: Date

    /// A grant.
    public init(user: String, displayName: String?, accessToken: String, accessTokenExpiresAt: Date, receivedAt: Date) {
        self.user = user
        self.displayName = displayName
        self.accessToken = accessToken
        self.accessTokenExpiresAt = accessTokenExpiresAt
        self.receivedAt = receivedAt
    }

    /// The grant without its token.
    public var description: String { "OAuth token for \(user), <private>" }
}

/// The ways of logging in a backend may take.
public enum LoginMethod: String, Sendable, Hashable, CaseIterable, CustomStringConvertible {
    /// A user name and a password, typed, piped or given by a password command.
    case password
    /// OAuth 2.0 in a browser (RFC 8252's loopback flow): Google Contacts, any CardDAV server
    /// behind an authorization server.
    case oauth

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
