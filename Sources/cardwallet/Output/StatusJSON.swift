import CardBackend
import Foundation
import TokenStore

/// What `cardwallet status --json` prints: the session's state and where things are, never a
/// token. Absent values (no account, no expiry, no config file, no problem) are left out.
///
/// ```json
/// {
///   "accessTokenExpiresAt" : "2026-11-21T09:35:00.000Z",
///   "email" : "demo@cardwallet.dev",
///   "name" : "Demo User",
///   "refreshTokenExpiresAt" : "2026-11-22T09:30:00.000Z",
///   "server" : "http://127.0.0.1:8080/v1",
///   "kind" : "cardAPI",
///   "serverFrom" : "CARDWALLET_SERVER",
///   "state" : "loggedIn",
///   "storage" : "tokens stored in /home/u/.local/state/cardwallet/tokens.json (plain file, mode 0600, not encrypted)",
///   "tokenFile" : "/home/u/.local/state/cardwallet/tokens.json",
///   "userId" : "u_demo"
/// }
/// ```
struct StatusJSON: Encodable, Equatable {
    /// `loggedIn`, `refreshing`, `loggedOut` or `expired`.
    var state: String
    /// The server's base URL.
    var server: String
    /// Where the server setting came from: an option, a variable, a config file's path or
    /// `built-in default`.
    var serverFrom: String
    /// The account's email, when logged in (or expired with a known account).
    var email: String?
    /// The user's name, when known.
    var name: String?
    /// The user's id on the server, when known.
    var userId: String?
    /// When the access token expires (renewed automatically).
    var accessTokenExpiresAt: Date?
    /// When the refresh token expires (a login is needed after that).
    var refreshTokenExpiresAt: Date?
    /// The token file's path.
    var tokenFile: String
    /// Where and how the tokens are stored, as the text form says it.
    var storage: String
    /// Why the token file could not be read, when it could not.
    var problem: String?
    /// The config file that was read, if any.
    var configFile: String?
    /// The kind of server: the stored account's (`cardAPI`, `cardDAV`, …).
    var kind: String
    /// On a server with address books, the one in use (its display name, else its id).
    var addressBook: String?
    /// Its id, what `--book` takes.
    var addressBookId: String?
    /// The stored account's name.
    var account: String?
    /// Where the password lives: `keyring`, `command` or `file`; absent for a token-based account.
    var secret: String?

    /// The JSON form of `report`, for the stored account `record`.
    init(
        _ report: SessionStatusReport, record: AccountRecord? = nil, serverFrom: String, tokenFile: String,
        configFile: String?
    ) {
        switch report.state {
        case .loggedIn: state = "loggedIn"
        case .refreshing: state = "refreshing"
        case .loggedOut: state = "loggedOut"
        case .expired: state = "expired"
        }
        server = report.server
        self.serverFrom = serverFrom
        let account = report.account ?? report.state.account
        email = account?.email
        name = account?.name
        userId = account?.userID
        accessTokenExpiresAt = report.accessTokenExpiresAt
        refreshTokenExpiresAt = report.refreshTokenExpiresAt
        self.tokenFile = tokenFile
        storage = report.storage
        problem = report.problem
        self.configFile = configFile
        kind = record?.kind ?? report.kind.id
        addressBook = report.addressBook
        addressBookId = record?.book.flatMap { path in path.split(separator: "/").last.map(String.init) }
        self.account = record?.name
        secret = record?.secret.map(SecretText.short)
    }
}
