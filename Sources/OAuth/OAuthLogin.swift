public import Foundation
import Networking

/// One OAuth 2.0 login, the authorization code flow with PKCE (RFC 6749 §4.1, RFC 7636 S256)
/// and a loopback redirect (RFC 8252 §7.3), as an installed app does it:
///
/// 1. ``begin()`` finds the server's endpoints (its metadata), opens the listener on
///    `127.0.0.1` and makes the authorization address, with a fresh verifier and `state`;
/// 2. the caller opens the address in a browser, or prints it for another device;
/// 3. ``PendingAuthorization/complete(within:)`` waits for the browser to come back, checks the
///    `state`, exchanges the code for tokens, and says who logged in.
///
/// Nothing is stored by any of it: a failure at any step leaves nothing behind, and so does a
/// cancellation. Keeping the tokens is the caller's (the CardDAV backend's login).
public struct OAuthLogin: Sendable {
    /// The authorization server and the scope.
    public let issuer: OAuthIssuer
    /// The token side of the wire.
    public let tokens: OAuthTokenClient
    /// The user name to log in as when the answer does not say (no ID token): `--email`.
    public let user: String?

    /// A login at `issuer` as `client`.
    public init(issuer: OAuthIssuer, tokens: OAuthTokenClient, user: String? = nil) {
        self.issuer = issuer
        self.tokens = tokens
        self.user = user.flatMap { $0.trimmingCharacters(in: .whitespaces).isEmpty ? nil : $0 }
    }

    /// Finds the server's endpoints, opens the listener, and makes the authorization address.
    ///
    /// - Throws: ``OAuthError``: metadata, the listener, an insecure address.
    public func begin() async throws(OAuthError) -> PendingAuthorization {
        try tokens.checkSecure(issuer.url)
        let metadata = try await tokens.metadata(of: issuer.url)
        let pkce = PKCE()
        let receiver = try await LoopbackReceiver.start(expectedState: pkce.state)
        guard var components = URLComponents(url: metadata.authorizationEndpoint, resolvingAgainstBaseURL: false)
        else {
            receiver.close()
            throw .metadataUnavailable(
                issuer: issuer.url.absoluteString, detail: "its authorization endpoint is not a URL.")
        }
        var items = components.queryItems ?? []
        items += [
            URLQueryItem(name: "response_type", value: "code"),
            URLQueryItem(name: "client_id", value: tokens.client.id),
            URLQueryItem(name: "redirect_uri", value: receiver.redirectURI.absoluteString),
            URLQueryItem(name: "scope", value: issuer.scope),
            URLQueryItem(name: "state", value: pkce.state),
            URLQueryItem(name: "code_challenge", value: pkce.challenge),
            URLQueryItem(name: "code_challenge_method", value: "S256"),
        ]
        items += issuer.authorizationParameters.sorted { $0.key < $1.key }.map {
            URLQueryItem(name: $0.key, value: $0.value)
        }
        components.queryItems = items
        // `+` in a query is a space to servers reading forms: a scope's spaces and any plus are encoded.
        components.percentEncodedQuery = components.percentEncodedQuery?.replacingOccurrences(of: "+", with: "%2B")
        guard let url = components.url else {
            receiver.close()
            throw .metadataUnavailable(
                issuer: issuer.url.absoluteString, detail: "its authorization endpoint is not a URL.")
        }
        return PendingAuthorization(login: self, metadata: metadata, pkce: pkce, receiver: receiver, url: url)
    }
}

/// A login waiting for the browser: the address to open, and the wait.
public final class PendingAuthorization: Sendable {
    /// The address the person opens: the authorization server's page, with this login's
    /// `state` and PKCE challenge.
    public let url: URL
    /// The loopback address the browser comes back to.
    public var redirectURI: URL { receiver.redirectURI }
    /// The server's metadata.
    public let metadata: AuthorizationServerMetadata
    let login: OAuthLogin
    let pkce: PKCE
    let receiver: LoopbackReceiver

    init(login: OAuthLogin, metadata: AuthorizationServerMetadata, pkce: PKCE, receiver: LoopbackReceiver, url: URL) {
        self.login = login
        self.metadata = metadata
        self.pkce = pkce
        self.receiver = receiver
        self.url = url
    }

    /// Waits for the browser to come back (at most `deadline`), checks its `state`, exchanges the
    /// code for tokens and says who logged in. The listener is closed whatever happens.
    ///
    /// - Throws: ``OAuthError``: ``OAuthError/redirectTimedOut(after:)``,
    ///   ``OAuthError/stateMismatch``, ``OAuthError/authorizationRefused(error:description:)``
    ///   (`access_denied`…), the token endpoint's refusal or failure, ``OAuthError/cancelled``.
    public func complete(within deadline: Duration) async throws(OAuthError) -> OAuthGrant {
        defer { receiver.close() }
        let query = try await receiver.answer(within: deadline)
        // RFC 6749 §10.12: an answer without this login's state is not this login's, whatever it says.
        guard query["state"] == pkce.state else { throw .stateMismatch }
        if let error = query["error"] {
            throw .authorizationRefused(error: error, description: query["error_description"])
        }
        guard let code = query["code"], !code.isEmpty else {
            throw .authorizationRefused(
                error: "no code", description: "the redirect carried neither a code nor an error")
        }
        let answer = try await login.tokens.exchange(
            code: code, verifier: pkce.verifier, redirectURI: receiver.redirectURI, at: metadata)
        let received = Date()
        guard let refreshToken = answer.refreshToken, !refreshToken.isEmpty else {
            throw .badTokenAnswer(
                "it gave no refresh token, so the login would end with the access token"
                    + (login.issuer.preset == "google"
                        ? "" : " (the server may need the scope offline_access: --scope)"))
        }
        let claims = try answer.idToken.flatMap { token throws(OAuthError) in
            try IDTokenClaims.read(token, issuer: metadata.issuer, clientID: login.tokens.client.id)
        }
        guard let user = login.user ?? claims?.user else {
            throw .badTokenAnswer(
                "it does not say who logged in (no ID token with an email): give the user name with --email")
        }
        return OAuthGrant(
            user: user, displayName: claims?.name, accessToken: answer.accessToken,
            expiresIn: answer.expiresIn ?? OAuthTokenAnswer.assumedLifetime, receivedAt: received,
            refreshToken: refreshToken, scope: answer.scope, metadata: metadata)
    }

    /// Stops waiting: the listener is closed (Ctrl-C, the interface's Esc).
    public func cancel() {
        receiver.close()
    }
}

/// What a login got: the tokens, who logged in, and where to refresh them.
public struct OAuthGrant: Sendable {
    /// Who logged in: `--email`, else the ID token's email (or preferred user name, or subject).
    public var user: String
    /// The person's name, when the ID token says it.
    public var displayName: String?
    /// The access token.
    public var accessToken: String
    /// How long it lives, in seconds, from ``receivedAt``.
    public var expiresIn: TimeInterval
    /// When this computer received it (its clock).
    public var receivedAt: Date
    /// The refresh token: the account's secret store keeps it.
    public var refreshToken: String
    /// The scope granted, when the server said.
    public var scope: String?
    /// The server's metadata (its token endpoint is where refreshes go).
    public var metadata: AuthorizationServerMetadata

    /// When the access token expires.
    public var expiresAt: Date { receivedAt.addingTimeInterval(expiresIn) }
}
