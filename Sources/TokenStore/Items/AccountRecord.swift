import Foundation

/// One account the wallet remembers: its name, the kind of server it is on, the server and the
/// user, the address book where the server has books, and where its secret lives.
///
/// Records are kept in the token file beside the tokens (format version 3), under the same
/// locking and file-safety rules (docs/TokenStore.md). A record never holds a secret itself: a
/// password lives where ``secret`` says (the system keyring, a command's output, or — only when
/// no keyring answers — a ``PasswordItem`` in this file); tokens are ``TokenItem``s.
public struct AccountRecord: Sendable, Hashable, Codable {
    /// What people call the account (`alice@dav.example.com`): unique, matched without regard
    /// to case; what `--account` takes.
    public var name: String
    /// The kind of server, as its provider names it (`cardAPI`, `cardDAV`, …). Read from the
    /// record after the login; never guessed again.
    public var kind: String
    /// The server's base URL, without trailing slashes.
    public var server: String
    /// The user name (the email on the card API).
    public var user: String
    /// The address book in use where the server has books (its path on the server).
    public var book: String?
    /// The address book's display name, as the server gave it (untrusted text).
    public var bookName: String?
    /// Where the account's secret lives; `nil` for an account whose session lives in tokens.
    /// An OAuth account's secret is its refresh token (and its client's secret).
    public var secret: SecretLocation?
    /// How the account logs in with OAuth 2.0 (a CardDAV server behind it: Google), or `nil`
    /// for a password or the card API's login. Files written before it read with `nil`.
    public var oauth: AccountOAuth?

    /// A record; the server and user are normalised as the token file's items are.
    public init(
        name: String, kind: String, server: String, user: String, book: String? = nil, bookName: String? = nil,
        secret: SecretLocation? = nil, oauth: AccountOAuth? = nil
    ) {
        self.oauth = oauth
        self.name = name.trimmingCharacters(in: .whitespaces)
        self.kind = kind
        self.server = TokenItem.normalizedServer(server)
        self.user = TokenItem.normalizedAccount(user)
        self.book = book
        self.bookName = bookName
        self.secret = secret
    }

    /// Whether this is the account of `user` at `server` (any letter case in the user).
    public func matches(server: String, user: String) -> Bool {
        self.server == TokenItem.normalizedServer(server)
            && TokenItem.sameAccount(self.user, TokenItem.normalizedAccount(user))
    }

    /// Whether this record is called `name` (any letter case).
    public func isNamed(_ name: String) -> Bool {
        self.name.lowercased() == name.trimmingCharacters(in: .whitespaces).lowercased()
    }

    /// The name an account gets when none is given: the user when it is an email address
    /// (`ann@example.com`), else `user@host` (`alice@dav.example.com`); when another account has
    /// that name already, the server's host and port are added (`ann@example.com on 127.0.0.1:9000`),
    /// then a number.
    ///
    /// - Parameters:
    ///   - user: the user name.
    ///   - server: the server's base URL.
    ///   - taken: the records already kept (a record of the same server and user keeps its name).
    public static func derivedName(user: String, server: String, taken: [AccountRecord]) -> String {
        let user = TokenItem.normalizedAccount(user)
        if let same = taken.first(where: { $0.matches(server: server, user: user) }) { return same.name }
        let url = URL(string: TokenItem.normalizedServer(server))
        let host = url?.host ?? server
        let hostAndPort = host + (url?.port.map { ":\($0)" } ?? "")
        let base = user.contains("@") ? user : "\(user)@\(host)"
        var candidates = [base, "\(base) on \(hostAndPort)"]
        candidates += (2...99).map { "\(base) on \(hostAndPort) (\($0))" }
        return candidates.first { name in !taken.contains { $0.isNamed(name) } } ?? "\(base) \(UUID().uuidString)"
    }

    enum CodingKeys: String, CodingKey {
        case name, kind, server, user, book, bookName, secret, oauth
    }

    /// Decodes a record, checking that it names an account.
    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        self.init(
            name: try c.decode(String.self, forKey: .name), kind: try c.decode(String.self, forKey: .kind),
            server: try c.decode(String.self, forKey: .server), user: try c.decode(String.self, forKey: .user),
            book: try c.decodeIfPresent(String.self, forKey: .book),
            bookName: try c.decodeIfPresent(String.self, forKey: .bookName),
            secret: try c.decodeIfPresent(SecretLocation.self, forKey: .secret),
            oauth: try c.decodeIfPresent(AccountOAuth.self, forKey: .oauth))
        guard !name.isEmpty, !kind.isEmpty, !server.isEmpty, !user.isEmpty else {
            throw DecodingError.dataCorruptedError(
                forKey: .name, in: c, debugDescription: "an account record has an empty name, kind, server or user")
        }
    }
}

/// Where an account's secret (its password) lives.
public enum SecretLocation: Sendable, Hashable, Codable, CustomStringConvertible {
    /// The system keyring (a freedesktop Secret Service: GNOME Keyring, KeePassXC, KWallet), under
    /// the attributes `application=cardwallet`, `server`, `user`.
    case keyring
    /// A command run each time the secret is needed; the first line of its output is the
    /// password (`pass show dav/alice`). The argument vector as given.
    case command([String])
    /// The token file, in plain text (a ``PasswordItem``): only when no keyring answered.
    case file

    public var description: String {
        switch self {
        case .keyring: "keyring"
        case .command(let argv): "command (\(argv.joined(separator: " ")))"
        case .file: "file"
        }
    }

    enum CodingKeys: String, CodingKey {
        case `in`, command
    }

    /// `{"in": "keyring"}`, `{"in": "command", "command": ["pass", "show", "dav/alice"]}`, `{"in": "file"}`.
    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        switch self {
        case .keyring: try c.encode("keyring", forKey: .in)
        case .file: try c.encode("file", forKey: .in)
        case .command(let argv):
            try c.encode("command", forKey: .in)
            try c.encode(argv, forKey: .command)
        }
    }

    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        switch try c.decode(String.self, forKey: .in) {
        case "keyring": self = .keyring
        case "file": self = .file
        case "command":
            let argv = try c.decode([String].self, forKey: .command)
            guard !argv.isEmpty, !argv[0].isEmpty else {
                throw DecodingError.dataCorruptedError(
                    forKey: .command, in: c, debugDescription: "a secret command is empty")
            }
            self = .command(argv)
        default:
            throw DecodingError.dataCorruptedError(
                forKey: .in, in: c, debugDescription: "not a place this cardwallet keeps secrets in")
        }
    }
}
