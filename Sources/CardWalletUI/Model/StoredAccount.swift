/// One account the wallet remembers, as the interface lists it (the login screen, the account
/// picker `A` opens): never a secret.
public struct StoredAccount: Equatable, Hashable, Sendable {
    /// Its name (what `--account` takes).
    public var name: String
    /// The kind of server, for people (`card API`, `CardDAV`).
    public var kind: String
    /// The server's address.
    public var server: String
    /// The user name (the email on the card API).
    public var user: String
    /// Its address book's name, on a server with books.
    public var book: String?
    /// Whether it can be used without a login (its tokens or its password are kept).
    public var loggedIn: Bool
    /// Whether it is the account in use.
    public var inUse: Bool

    /// An account.
    public init(
        name: String, kind: String, server: String, user: String, book: String? = nil, loggedIn: Bool,
        inUse: Bool = false
    ) {
        self.name = name
        self.kind = kind
        self.server = server
        self.user = user
        self.book = book
        self.loggedIn = loggedIn
        self.inUse = inUse
    }
}
