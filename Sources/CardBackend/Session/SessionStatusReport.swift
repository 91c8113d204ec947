import CardModels
public import Foundation

/// The answer to `cardwallet status`: never a token.
public struct SessionStatusReport: Sendable, Equatable, CustomStringConvertible {
    /// The server's base URL.
    public var server: String
    /// The session's state.
    public var state: SessionState
    /// The account, when logged in.
    public var account: SessionAccount?
    /// When the access token expires (it is renewed automatically).
    public var accessTokenExpiresAt: Date?
    /// When the refresh token expires (a login is needed after that).
    public var refreshTokenExpiresAt: Date?
    /// Where and how the tokens are stored (``TokenStore/TokenStore/storageSummary()``).
    public var storage: String
    /// Why the token store could not be read, if it could not.
    public var problem: String?
    /// The kind of server.
    public var kind: BackendKind
    /// On a CardDAV server, the address book in use (its id), when known.
    public var addressBook: String?

    /// A report.
    public init(
        server: String, state: SessionState, account: SessionAccount? = nil, accessTokenExpiresAt: Date? = nil,
        refreshTokenExpiresAt: Date? = nil, storage: String, problem: String? = nil, kind: BackendKind = .cardAPI,
        addressBook: String? = nil
    ) {
        self.kind = kind
        self.addressBook = addressBook
        self.server = server
        self.state = state
        self.account = account
        self.accessTokenExpiresAt = accessTokenExpiresAt
        self.refreshTokenExpiresAt = refreshTokenExpiresAt
        self.storage = storage
        self.problem = problem
    }

    /// A few lines for people, e.g. `logged in as demo@cardwallet.dev at http://…`.
    public var description: String {
        var lines = [TerminalText.escaped(state.description)]
        if let name = account?.name { lines.append("name: \(TerminalText.escaped(name))") }
        if kind != .cardAPI {
            lines.append(
                "a \(kind) server" + (addressBook.map { ", address book “\(TerminalText.escaped($0))”" } ?? ""))
        }
        if let date = accessTokenExpiresAt {
            lines.append("access token valid until \(CardWalletJSON.formatDate(date)) (renewed automatically)")
        }
        if let date = refreshTokenExpiresAt {
            lines.append("refresh token valid until \(CardWalletJSON.formatDate(date)) (renewed with every refresh)")
        }
        lines.append(storage)
        // The storage line already explains an unsafe file; say it once.
        if let problem, !storage.contains(problem) { lines.append(problem) }
        return lines.joined(separator: "\n")
    }
}
