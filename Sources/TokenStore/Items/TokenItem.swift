public import Foundation

/// One stored login: the token pair a server issued to an account, with their expiry dates.
///
/// Items are keyed by ``server`` and ``account``: saving an item replaces the one with the same
/// key. The key is normalised when the item is made (see ``normalizedServer(_:)`` and
/// ``normalizedAccount(_:)``), and accounts match without regard to case.
///
/// `description`, `debugDescription` and the mirror (`dump`, `print`, string interpolation)
/// show `<private>` in place of the tokens, so printing an item by accident leaks nothing.
public struct TokenItem: Sendable, Hashable {
    /// The server's base URL, without trailing slashes, e.g. `http://127.0.0.1:8080/v1`.
    public let server: String
    /// The account the tokens belong to (the email address used to log in).
    public let account: String
    /// The access token, sent as `Authorization: Bearer …`.
    public let accessToken: String
    /// When the access token expires, kept to whole seconds (rounded down).
    public let accessTokenExpiresAt: Date
    /// The refresh token, exchanged once for a new pair.
    public let refreshToken: String
    /// When the refresh token expires, kept to whole seconds (rounded down).
    public let refreshTokenExpiresAt: Date
    /// The user's id on the server, if known.
    public let userID: String?
    /// The user's display name, if known.
    public let displayName: String?
    /// How long the access token had to live when it arrived: the seconds from the moment this
    /// computer received it (by this computer's clock) to ``accessTokenExpiresAt`` as stored,
    /// kept to milliseconds. `nil` for items saved by a cardwallet that did not record it.
    ///
    /// Zero or less means the token arrived already expired by this computer's clock (the clock
    /// is ahead of the server's). The session sizes its refresh margin from it, and learns from
    /// it when the token was received (``accessTokenIssuedAt``), in every process.
    public let accessTokenLifetime: TimeInterval?

    /// Makes an item, normalising its key and rounding the expiry dates down to whole seconds.
    ///
    /// Dates are kept to whole seconds so an item reads back exactly equal to what was saved;
    /// rounding down means a token is never taken to live longer than the server said.
    ///
    /// - Parameters:
    ///   - server: the server's base URL; trailing slashes and surrounding spaces are dropped.
    ///   - account: the account (email); surrounding spaces are dropped.
    ///   - accessToken: the access token.
    ///   - accessTokenExpiresAt: when the access token expires.
    ///   - refreshToken: the refresh token.
    ///   - refreshTokenExpiresAt: when the refresh token expires.
    ///   - userID: the user's id on the server, if known.
    ///   - displayName: the user's name, if known.
    ///   - accessTokenIssuedAt: when this computer received the access token (its clock), if
    ///     known; kept as ``accessTokenLifetime``.
    public init(
        server: String,
        account: String,
        accessToken: String,
        accessTokenExpiresAt: Date,
        refreshToken: String,
        refreshTokenExpiresAt: Date,
        userID: String? = nil,
        displayName: String? = nil,
        accessTokenIssuedAt: Date? = nil
    ) {
        let expiry = Self.wholeSeconds(accessTokenExpiresAt)
        self.init(
            server: server, account: account, accessToken: accessToken, accessTokenExpiresAt: expiry,
            refreshToken: refreshToken, refreshTokenExpiresAt: refreshTokenExpiresAt, userID: userID,
            displayName: displayName, accessTokenLifetime: accessTokenIssuedAt.map { expiry.timeIntervalSince($0) })
    }

    /// Makes an item with a known ``accessTokenLifetime`` (as the token file stores it).
    init(
        server: String, account: String, accessToken: String, accessTokenExpiresAt: Date, refreshToken: String,
        refreshTokenExpiresAt: Date, userID: String?, displayName: String?, accessTokenLifetime: TimeInterval?
    ) {
        self.server = Self.normalizedServer(server)
        self.account = Self.normalizedAccount(account)
        self.accessToken = accessToken
        self.accessTokenExpiresAt = Self.wholeSeconds(accessTokenExpiresAt)
        self.refreshToken = refreshToken
        self.refreshTokenExpiresAt = Self.wholeSeconds(refreshTokenExpiresAt)
        self.userID = userID
        self.displayName = displayName
        self.accessTokenLifetime = accessTokenLifetime.flatMap(Self.wholeMilliseconds)
    }

    /// When this computer received the access token, by its clock: ``accessTokenExpiresAt``
    /// minus ``accessTokenLifetime``; `nil` when the lifetime was not recorded.
    public var accessTokenIssuedAt: Date? {
        accessTokenLifetime.map { accessTokenExpiresAt.addingTimeInterval(-$0) }
    }

    /// The form servers are stored and looked up in: surrounding whitespace and trailing
    /// slashes removed, so `http://h/v1/` and `http://h/v1` name the same server.
    ///
    /// - Parameter server: a base URL as the user or configuration gave it.
    /// - Returns: the normalised base URL.
    public static func normalizedServer(_ server: String) -> String {
        var result = Substring(server.trimmingCharacters(in: .whitespacesAndNewlines))
        while result.hasSuffix("/") { result = result.dropLast() }
        return String(result)
    }

    /// The form accounts are stored in: surrounding whitespace removed.
    ///
    /// Lookups also ignore case (`Ann@Example.com` finds `ann@example.com`), as email
    /// addresses are used case-insensitively.
    ///
    /// - Parameter account: an account (email) as the user typed it.
    /// - Returns: the trimmed account.
    public static func normalizedAccount(_ account: String) -> String {
        account.trimmingCharacters(in: .whitespacesAndNewlines)
    }

    /// Whether this item is stored under `server` and `account`, after normalising both.
    ///
    /// - Parameters:
    ///   - server: a base URL in any of its spellings.
    ///   - account: an account in any letter case.
    /// - Returns: `true` when both match this item's key.
    public func matches(server: String, account: String) -> Bool {
        matches(server: server) && Self.sameAccount(self.account, Self.normalizedAccount(account))
    }

    /// Whether this item belongs to `server`, after normalising it.
    ///
    /// - Parameter server: a base URL in any of its spellings.
    /// - Returns: `true` when it is this item's server.
    public func matches(server: String) -> Bool {
        self.server == Self.normalizedServer(server)
    }

    static func sameAccount(_ lhs: String, _ rhs: String) -> Bool {
        lhs.compare(rhs, options: [.caseInsensitive]) == .orderedSame
    }

    /// `seconds` rounded to the nearest millisecond (so it reads back from JSON exactly), or
    /// `nil` if it is not a finite number.
    static func wholeMilliseconds(_ seconds: TimeInterval) -> TimeInterval? {
        guard seconds.isFinite else { return nil }
        return (seconds * 1000).rounded() / 1000
    }

    static func wholeSeconds(_ date: Date) -> Date {
        let seconds = date.timeIntervalSince1970
        guard seconds.isFinite else { return date }
        return Date(timeIntervalSince1970: seconds.rounded(.down))
    }
}

extension TokenItem: CustomStringConvertible, CustomDebugStringConvertible, CustomReflectable {
    /// The item with both tokens shown as `<private>`; text fields are quoted and escaped.
    public var description: String {
        var parts = [
            "server: \(String(reflecting: server))",
            "account: \(String(reflecting: account))",
            "accessToken: <private>",
            "accessTokenExpiresAt: \(TokenFileFormat.formatDate(accessTokenExpiresAt))",
            "refreshToken: <private>",
            "refreshTokenExpiresAt: \(TokenFileFormat.formatDate(refreshTokenExpiresAt))",
        ]
        if let accessTokenLifetime { parts.append("accessTokenLifetime: \(accessTokenLifetime) s") }
        if let userID { parts.append("userID: \(String(reflecting: userID))") }
        if let displayName { parts.append("displayName: \(String(reflecting: displayName))") }
        return "TokenItem(" + parts.joined(separator: ", ") + ")"
    }

    /// The same as ``description``: tokens are never shown.
    public var debugDescription: String { description }

    /// A mirror without the tokens, so `dump(item)` and reflection-based loggers show
    /// `<private>` too.
    public var customMirror: Mirror {
        Mirror(
            self,
            children: [
                "server": server,
                "account": account,
                "accessToken": "<private>",
                "accessTokenExpiresAt": accessTokenExpiresAt,
                "refreshToken": "<private>",
                "refreshTokenExpiresAt": refreshTokenExpiresAt,
                "userID": userID as Any,
                "displayName": displayName as Any,
                "accessTokenLifetime": accessTokenLifetime as Any,
            ],
            displayStyle: .struct
        )
    }
}
