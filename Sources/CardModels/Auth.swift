import Foundation

/// `POST /auth/login` body.
public struct LoginRequest: Codable, Sendable, Equatable {
    public var email: String
    public var password: String

    public init(email: String, password: String) {
        self.email = email
        self.password = password
    }
}

/// A user as the server describes it.
public struct User: Codable, Sendable, Equatable, Hashable {
    public var id: String
    public var email: String
    public var name: String

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
    public var accessToken: String
    public var refreshToken: String
    public var accessTokenExpiresAt: Date
    public var refreshTokenExpiresAt: Date
    public var user: User

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

    public var description: String {
        "TokenGrant(user: \(user.email), accessToken: <private>, refreshToken: <private>, "
            + "accessTokenExpiresAt: \(accessTokenExpiresAt), refreshTokenExpiresAt: \(refreshTokenExpiresAt))"
    }

    public var debugDescription: String { description }
}

/// Names of the HTTP headers the contract uses beyond the usual ones.
public enum CardWalletHeader {
    /// `POST /auth/refresh` carries the refresh token here, as `Bearer <token>`.
    public static let refreshToken = "refreshToken"
}
