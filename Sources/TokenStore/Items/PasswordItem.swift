/// One stored credential that is not a token pair: a user name and an app password, for a server
/// that logs in with them on every request (a CardDAV server's HTTP Basic). Kept in the token
/// file beside the token pairs, under the same protection (0600 in a 0700 folder, locked writes).
///
/// Keyed by ``server`` and ``account`` as ``TokenItem`` is, and shown with `<private>` in place
/// of the password by `description`, `debugDescription` and the mirror.
public struct PasswordItem: Sendable, Hashable {
    /// The server's base URL, without trailing slashes.
    public let server: String
    /// The user name the server knows the account by.
    public let account: String
    /// The (app) password.
    public let password: String
    /// Where on the server the cards are, when the login chose a place (a CardDAV address
    /// book's path), so that later commands need not look for it again.
    public let place: String?

    /// Makes an item, normalising its key as ``TokenItem`` does.
    public init(server: String, account: String, password: String, place: String? = nil) {
        self.server = TokenItem.normalizedServer(server)
        self.account = TokenItem.normalizedAccount(account)
        self.password = password
        self.place = place
    }

    /// Whether this item is stored under `server` and `account` (any letter case).
    public func matches(server: String, account: String) -> Bool {
        matches(server: server) && TokenItem.sameAccount(self.account, TokenItem.normalizedAccount(account))
    }

    /// Whether this item belongs to `server`.
    public func matches(server: String) -> Bool {
        self.server == TokenItem.normalizedServer(server)
    }
}

extension PasswordItem: CustomStringConvertible, CustomDebugStringConvertible, CustomReflectable {
    /// The item with the password shown as `<private>`.
    public var description: String {
        "PasswordItem(server: \(String(reflecting: server)), account: \(String(reflecting: account)), password: <private>"
            + (place.map { ", place: \(String(reflecting: $0))" } ?? "") + ")"
    }

    /// The same as ``description``: the password is never shown.
    public var debugDescription: String { description }

    /// A mirror without the password.
    public var customMirror: Mirror {
        Mirror(
            self, children: ["server": server, "account": account, "password": "<private>", "place": place as Any],
            displayStyle: .struct)
    }
}

/// Everything a token file holds: token pairs, passwords, the accounts' records and which
/// account is the default.
struct StoredCredentials: Sendable, Equatable {
    var tokens: [TokenItem] = []
    var passwords: [PasswordItem] = []
    var accounts: [AccountRecord] = []
    var defaultAccount: String?

    var isEmpty: Bool { tokens.isEmpty && passwords.isEmpty && accounts.isEmpty }

    /// The default account's record: the one named default, else the only one.
    var defaultRecord: AccountRecord? {
        if let name = defaultAccount, let record = accounts.first(where: { $0.isNamed(name) }) { return record }
        return accounts.count == 1 ? accounts.first : nil
    }
}
