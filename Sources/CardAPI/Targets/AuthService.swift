import CardAPIContract
import CardBackend
import CardModels
public import Foundation
public import Networking

/// The auth endpoints of `docs/API.md` as a ``Networking/TargetType``: log in, refresh, log out.
///
/// None of them goes through the session's auth interceptor (``authorizationType`` is `nil`):
/// login has no token yet, refresh carries the refresh token in its own header, and logout
/// names the tokens it ends explicitly. Descriptions and mirrors never show a token or password.
public struct AuthService: TargetType, AccessTokenAuthorizable {
    /// One auth endpoint.
    public enum Endpoint: Sendable, Equatable {
        /// `POST /auth/login` with the email and password as JSON.
        case login(LoginRequest)
        /// `POST /auth/refresh` with `refreshToken: Bearer <token>`.
        case refresh(refreshToken: String)
        /// `POST /auth/logout` with either token or both.
        case logout(accessToken: String?, refreshToken: String?)

        /// Which endpoint, without what it carries: for logs, which see only a path.
        public enum Kind: String, Sendable, CaseIterable {
            case login, refresh, logout

            /// The endpoint whose path `path` ends with (`/v1/auth/refresh` → `.refresh`), if any.
            public init?(path: String) {
                guard let kind = Self.allCases.first(where: { path.hasSuffix($0.path) }) else { return nil }
                self = kind
            }

            /// `/auth/login`, `/auth/refresh` or `/auth/logout`.
            public var path: String { "/auth/" + rawValue }
        }

        /// Which endpoint this is.
        public var kind: Kind {
            switch self {
            case .login: .login
            case .refresh: .refresh
            case .logout: .logout
            }
        }
    }

    /// The API's base URL, for example `http://127.0.0.1:8080/v1`.
    public let server: URL
    /// What to call.
    public let endpoint: Endpoint
    /// The most time the exchange may take, or `nil` for the transport's default.
    public let timeout: Duration?

    /// An auth target.
    ///
    /// - Parameters:
    ///   - server: the API's base URL.
    ///   - endpoint: the endpoint.
    ///   - timeout: the most time the exchange may take; `nil` for the transport's default.
    public init(server: URL, endpoint: Endpoint, timeout: Duration? = nil) {
        self.server = server
        self.endpoint = endpoint
        self.timeout = timeout
    }

    /// The server.
    public var baseURL: URL { server }

    /// `/auth/login`, `/auth/refresh` or `/auth/logout`.
    public var path: String { endpoint.kind.path }

    /// Always `POST`.
    public var method: HTTPMethod { .post }

    /// The login JSON; nothing for refresh and logout (their tokens travel in headers).
    public var body: RequestBody {
        switch endpoint {
        case .login(let credentials): .json(credentials, encoder: CardService.encoder)
        case .refresh, .logout: .plain
        }
    }

    /// `Accept`, and the token headers of refresh and logout.
    public var headers: Headers {
        var headers: Headers = ["Accept": "application/json"]
        switch endpoint {
        case .login:
            break
        case .refresh(let refreshToken):
            headers[CardWalletHeader.refreshToken] = "Bearer \(refreshToken)"
        case .logout(let accessToken, let refreshToken):
            if let accessToken { headers["Authorization"] = "Bearer \(accessToken)" }
            if let refreshToken { headers[CardWalletHeader.refreshToken] = "Bearer \(refreshToken)" }
        }
        return headers
    }

    /// `nil`: no auth endpoint goes through the bearer-token interceptor.
    public var authorizationType: AuthorizationType? { nil }
}

extension AuthService: CustomStringConvertible, CustomDebugStringConvertible, CustomReflectable {
    /// `POST /auth/refresh`: never a token or password.
    public var description: String { "\(method) \(path)" }
    /// The same as ``description``.
    public var debugDescription: String { description }
    /// A mirror without the credentials, so `dump` shows no secret.
    public var customMirror: Mirror {
        Mirror(self, children: ["server": server, "endpoint": path], displayStyle: .struct)
    }
}

extension AuthService.Endpoint: CustomStringConvertible, CustomDebugStringConvertible, CustomReflectable {
    /// `login(<private>)`, `refresh(<private>)`, `logout(<private>)`.
    public var description: String {
        switch self {
        case .login: "login(<private>)"
        case .refresh: "refresh(<private>)"
        case .logout: "logout(<private>)"
        }
    }
    /// The same as ``description``.
    public var debugDescription: String { description }
    /// A mirror without the credentials.
    public var customMirror: Mirror { Mirror(self, children: [], displayStyle: .enum) }
}
