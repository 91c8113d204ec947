public import Foundation

/// `POST /auth/login` body.
public struct LoginRequest: Codable, Sendable, Equatable {
    /// The login email.
    public var email: String
    /// The password, in plain text over the (local) connection; never logged.
    public var password: String

    /// Creates a login request.
    public init(email: String, password: String) {
        self.email = email
        self.password = password
    }
}

/// A user as the server describes it.
public struct User: Codable, Sendable, Equatable, Hashable {
    /// The server-made user id.
    public var id: String
    /// The login email.
    public var email: String
    /// The display name.
    public var name: String

    /// Creates a user.
    public init(id: String, email: String, name: String) {
        self.id = id
        self.email = email
        self.name = name
    }
}

/// The `data` of `POST /auth/login` and `POST /auth/refresh`: a fresh token pair.
///
/// Its `description` never shows the tokens, so it is safe to print or log by accident.
public struct TokenGrant: Codable, Sendable, Equatable, CustomStringConvertible, CustomDebugStringConvertible {
    /// The bearer token for card requests (`Authorization: Bearer …`).
    public var accessToken: String
    /// The token that buys a new pair at `POST /auth/refresh`; it works once.
    public var refreshToken: String
    /// When the access token stops working (E04).
    public var accessTokenExpiresAt: Date
    /// When the refresh token stops working (E06).
    public var refreshTokenExpiresAt: Date
    /// The user the tokens belong to.
    public var user: User

    /// Creates a grant.
    public init(
        accessToken: String, refreshToken: String,
        accessTokenExpiresAt: Date, refreshTokenExpiresAt: Date, user: User
    ) {
        self.accessToken = accessToken
        self.refreshToken = refreshToken
        self.accessTokenExpiresAt = accessTokenExpiresAt
        self.refreshTokenExpiresAt = refreshTokenExpiresAt
        self.user = user
    }

    /// A description with both tokens replaced by `<private>`.
    public var description: String {
        "TokenGrant(user: \(user.email), accessToken: <private>, refreshToken: <private>, "
            + "accessTokenExpiresAt: \(accessTokenExpiresAt), refreshTokenExpiresAt: \(refreshTokenExpiresAt))"
    }

    /// The same redacted description.
    public var debugDescription: String { description }
}

/// Names of the HTTP headers the contract uses beyond the usual ones.
public enum CardWalletHeader {
    /// `POST /auth/refresh` carries the refresh token here, as `Bearer <token>`.
    public static let refreshToken = "refreshToken"
}
