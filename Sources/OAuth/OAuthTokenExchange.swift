public import Foundation
public import Networking
public import SessionCore
public import TokenStore

/// What the account's secret store keeps for an OAuth login: the refresh token, and the client
/// secret the token endpoint wants with it (kept there, never in the account's record or the
/// token file), as one small JSON document.
public struct OAuthSecret: Sendable, Codable, Equatable {
    /// The refresh token.
    public var refreshToken: String
    /// The client secret, when the client has one.
    public var clientSecret: String?

    /// A secret.
    public init(refreshToken: String, clientSecret: String?) {
        self.refreshToken = refreshToken
        self.clientSecret = clientSecret
    }

    /// The text kept: `{"clientSecret":"…","refreshToken":"…"}`.
    public var encoded: String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return (try? encoder.encode(self)).map { String(decoding: $0, as: UTF8.self) } ?? ""
    }

    /// The secret in `text`, or `nil` when it is not one.
    public static func decoded(_ text: String) -> OAuthSecret? {
        try? JSONDecoder().decode(OAuthSecret.self, from: Data(text.utf8))
    }
}

/// The token file's stand-in for an OAuth item's refresh token: the refresh token itself is in
/// the account's secret store (the keyring), never in the token file. Every process compares
/// pairs by their access tokens (``SessionCore/TokenSession``), so the stand-in never changes.
public let oauthRefreshTokenStandIn = "kept-in-the-secret-store"

/// What the shared session machinery (``SessionCore/TokenSession``) needs of an OAuth 2.0
/// authorization server: its refresh (RFC 6749 §6, the refresh token read from the account's
/// secret store under the token file's lock, a rotated one kept there before the new access
/// token is used), `invalid_grant` as the dead grant (E06's path), and a 401 as a rejected
/// access token (RFC 6750 §3.1's `invalid_token`, or no error named).
public struct OAuthTokenExchange: TokenExchange {
    public typealias Failure = OAuthError

    /// The token endpoint refreshes go to.
    public let tokenEndpoint: URL
    /// The client id.
    public let clientID: String
    /// Whether the client authenticates with HTTP Basic (else in the form).
    public let basicClientAuthentication: Bool
    let transport: any Transport
    let plugins: [any Plugin]
    let timeout: Duration
    let allowsInsecureHTTP: Bool
    /// The account's secret (``OAuthSecret``'s text), `nil` when none is kept any more.
    let readSecret: @Sendable () async throws -> String?
    /// Replaces the account's secret (a rotated refresh token).
    let keepSecret: @Sendable (String) async throws -> Void

    /// An exchange.
    ///
    /// - Parameters:
    ///   - tokenEndpoint: the authorization server's token endpoint.
    ///   - clientID: the client id.
    ///   - basicClientAuthentication: whether the client secret goes as HTTP Basic.
    ///   - transport: the HTTP transport.
    ///   - plugins: the plugins every refresh goes through (the logger).
    ///   - timeout: a refresh's deadline (below the token file's lock timeout).
    ///   - allowsInsecureHTTP: whether plain `http` to another computer is allowed.
    ///   - readSecret: reads the account's secret.
    ///   - keepSecret: replaces the account's secret.
    public init(
        tokenEndpoint: URL, clientID: String, basicClientAuthentication: Bool, transport: any Transport,
        plugins: [any Plugin], timeout: Duration, allowsInsecureHTTP: Bool,
        readSecret: @escaping @Sendable () async throws -> String?,
        keepSecret: @escaping @Sendable (String) async throws -> Void
    ) {
        self.tokenEndpoint = tokenEndpoint
        self.clientID = clientID
        self.basicClientAuthentication = basicClientAuthentication
        self.transport = transport
        self.plugins = plugins
        self.timeout = timeout
        self.allowsInsecureHTTP = allowsInsecureHTTP
        self.readSecret = readSecret
        self.keepSecret = keepSecret
    }

    public func refresh(_ held: TokenItem, in file: LockedTokenFile, clock: any SessionClock) async throws(OAuthError)
        -> TokenItem
    {
        let secret = try await storedSecret()
        let client = OAuthTokenClient(
            client: OAuthClient(id: clientID, secret: secret.clientSecret), transport: transport, plugins: plugins,
            timeout: timeout, allowsInsecureHTTP: allowsInsecureHTTP)
        let answer = try await client.refresh(
            secret.refreshToken, at: tokenEndpoint, basicClientAuthentication: basicClientAuthentication)
        let received = clock.now
        if let rotated = answer.refreshToken, rotated != secret.refreshToken {
            // Kept before the new access token is handed out: the old refresh token may be dead now.
            do {
                try await keepSecret(OAuthSecret(refreshToken: rotated, clientSecret: secret.clientSecret).encoded)
            } catch {
                throw .secretUnavailable(
                    "the authorization server gave a new refresh token, and it could not be kept "
                        + "(\(String(describing: error))); log in again if the next refresh fails")
            }
        }
        return TokenItem(
            server: held.server, account: held.account, accessToken: answer.accessToken,
            accessTokenExpiresAt: received.addingTimeInterval(answer.expiresIn ?? OAuthTokenAnswer.assumedLifetime),
            refreshToken: held.refreshToken, refreshTokenExpiresAt: held.refreshTokenExpiresAt, userID: held.userID,
            displayName: held.displayName, accessTokenIssuedAt: received)
    }

    private func storedSecret() async throws(OAuthError) -> OAuthSecret {
        let text: String?
        do {
            text = try await readSecret()
        } catch is CancellationError {
            throw .cancelled
        } catch {
            throw .secretUnavailable(String(describing: error))
        }
        guard let text else {
            throw .grantRefused(description: "no refresh token is kept on this computer any more")
        }
        guard let secret = OAuthSecret.decoded(text), !secret.refreshToken.isEmpty else {
            throw .grantRefused(description: "the secret kept for this account is not an OAuth refresh token")
        }
        return secret
    }

    /// `invalid_grant` (or no refresh token kept): the session ends, E06's path.
    public func endsSession(_ error: OAuthError) -> Bool {
        if case .grantRefused = error { return true }
        return false
    }

    /// A 401 rejects the access token unless its challenge names another problem
    /// (`insufficient_scope`, `invalid_request`).
    public func verdict(on response: Response) -> BearerVerdict {
        guard response.statusCode == 401 else { return .none }
        let challenge = BearerChallenge(response.headers.values(for: "WWW-Authenticate"))
        switch challenge.error {
        case "insufficient_scope"?, "invalid_request"?: return .none
        default: return .accessRejected
        }
    }

    public var sessionEndedMessage: String {
        "The authorization server refused the refresh token (invalid_grant); the stored access token was removed"
    }
}

/// The `Bearer` challenge of a `WWW-Authenticate` header (RFC 6750 §3), as far as the client
/// needs it: its `error`.
public struct BearerChallenge: Sendable, Equatable {
    /// Whether a `Bearer` challenge was there at all.
    public var isBearer: Bool
    /// Its `error` attribute (`invalid_token`, `insufficient_scope`, `invalid_request`).
    public var error: String?

    /// The challenge among `values` (each a header line, possibly with several challenges).
    public init(_ values: [String]) {
        isBearer = false
        error = nil
        for value in values {
            guard let range = value.range(of: "bearer", options: [.caseInsensitive]) else { continue }
            isBearer = true
            let rest = value[range.upperBound...]
            guard let found = rest.range(of: "error=", options: [.caseInsensitive]) else { continue }
            var text = rest[found.upperBound...]
            if text.hasPrefix("\"") {
                text = text.dropFirst()
                error = String(text.prefix { $0 != "\"" })
            } else {
                error = String(text.prefix { $0 != "," && $0 != " " })
            }
            return
        }
    }
}
