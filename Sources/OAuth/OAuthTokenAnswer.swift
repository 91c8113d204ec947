public import Foundation
import Networking
import SessionCore

/// A token endpoint's successful answer (RFC 6749 §5.1), checked before anything keeps it.
public struct OAuthTokenAnswer: Sendable {
    /// The access token: a visible-ASCII token68 (``SessionCore/TokenSyntax``).
    public var accessToken: String
    /// Seconds the access token lives, as the server said; `nil` when it did not say.
    public var expiresIn: TimeInterval?
    /// A refresh token, when the server gave one (a refresh may rotate it, or give none and keep
    /// the old one valid).
    public var refreshToken: String?
    /// The scope granted, when it differs from the one asked or the server says anyway.
    public var scope: String?
    /// The OpenID Connect ID token, when the scope had `openid`.
    public var idToken: String?

    /// The lifetime used when the server does not say (RFC 6749 §5.1 makes `expires_in`
    /// optional): an hour, Google's; the first 401 refreshes earlier if it is shorter.
    public static let assumedLifetime: TimeInterval = 3600

    /// RFC 6749 §5.1's answer, by its members' names.
    struct Wire: Decodable {
        var accessToken: String?
        var tokenType: String?
        var expiresIn: Lifetime?
        var refreshToken: String?
        var scope: String?
        var idToken: String?

        enum CodingKeys: String, CodingKey {
            case accessToken = "access_token"
            case tokenType = "token_type"
            case expiresIn = "expires_in"
            case refreshToken = "refresh_token"
            case scope
            case idToken = "id_token"
        }
    }

    /// `expires_in` as a number or, as some servers send it, a string of digits.
    struct Lifetime: Decodable {
        var seconds: TimeInterval?
        init(from decoder: any Decoder) throws {
            let container = try decoder.singleValueContainer()
            if let number = try? container.decode(Double.self) {
                seconds = number
            } else if let text = try? container.decode(String.self) {
                seconds = TimeInterval(text)
            }
        }
    }

    /// RFC 6749 §5.2's error answer.
    struct WireError: Decodable {
        var error: String
        var errorDescription: String?

        enum CodingKeys: String, CodingKey {
            case error
            case errorDescription = "error_description"
        }
    }

    /// The answer of a token request: the tokens, or the error the server gave.
    ///
    /// - Parameter secrets: what the request carried (code, verifier, tokens, client secret), so
    ///   that none of it survives in a message quoting the server.
    /// - Throws: ``OAuthError/grantRefused(description:)`` for `invalid_grant`,
    ///   ``OAuthError/tokenRefused(status:error:description:)`` for another RFC 6749 error,
    ///   ``OAuthError/tokenServerFailure(status:detail:)`` for a failure that is not one, and
    ///   ``OAuthError/badTokenAnswer(_:)`` for a success that cannot be used.
    static func read(_ response: Response, secrets: [String]) throws(OAuthError) -> OAuthTokenAnswer {
        let status = response.statusCode
        guard (200..<300).contains(status) else {
            if (400..<500).contains(status), let error = try? JSONDecoder().decode(WireError.self, from: response.body),
                !error.error.isEmpty
            {
                let description = error.errorDescription.map { Redaction.scrub($0, hiding: secrets) }
                if error.error == "invalid_grant" { throw .grantRefused(description: description) }
                throw .tokenRefused(
                    status: status, error: Redaction.scrub(error.error, hiding: secrets), description: description)
            }
            throw .tokenServerFailure(status: status, detail: excerpt(response, secrets: secrets))
        }
        let wire: Wire
        do {
            wire = try JSONDecoder().decode(Wire.self, from: response.body)
        } catch {
            throw .badTokenAnswer("it is not the JSON of a token answer (RFC 6749 §5.1)")
        }
        guard let access = wire.accessToken, !access.isEmpty else {
            throw .badTokenAnswer("it has no access_token")
        }
        guard let type = wire.tokenType, type.lowercased() == "bearer" else {
            throw .badTokenAnswer("its token_type is “\(wire.tokenType ?? "")”, not Bearer")
        }
        for (name, token) in [("access token", access), ("refresh token", wire.refreshToken ?? "x")]
        where !TokenSyntax.isValid(token) {
            throw .badTokenAnswer(
                "its \(name) cannot be sent back in an HTTP header (letters, digits and - . _ ~ + / with = at the "
                    + "end, at most \(TokenSyntax.maximumLength) characters), so cardwallet refused it")
        }
        if let seconds = wire.expiresIn?.seconds, !(seconds.isFinite && seconds >= 0) {
            throw .badTokenAnswer("its expires_in is not a number of seconds")
        }
        return OAuthTokenAnswer(
            accessToken: access, expiresIn: wire.expiresIn?.seconds, refreshToken: wire.refreshToken,
            scope: wire.scope, idToken: wire.idToken)
    }

    /// The start of a failed answer's text, scrubbed of the request's secrets.
    static func excerpt(_ response: Response, secrets: [String]) -> String {
        let body = String(decoding: response.body.prefix(2_000), as: UTF8.self)
        let folded = body.split(whereSeparator: \.isWhitespace).joined(separator: " ")
        let scrubbed = Redaction.scrub(folded, hiding: secrets)
        return scrubbed.count > 200 ? String(scrubbed.prefix(200)) + "…" : scrubbed
    }
}

/// Who logged in, as an OpenID Connect ID token says (its claims, read without checking the
/// signature: the token came straight from the token endpoint over TLS, which OpenID Connect
/// Core §3.1.3.7 accepts in place of the signature). Its issuer and audience are checked.
public struct IDTokenClaims: Sendable, Equatable {
    /// `email`.
    public var email: String?
    /// `preferred_username`.
    public var preferredUsername: String?
    /// `sub`.
    public var subject: String?
    /// `name`.
    public var name: String?

    /// The claims of `token`, or `nil` when it is not a JWT whose payload is JSON.
    ///
    /// - Throws: ``OAuthError/badTokenAnswer(_:)`` when its `iss` or `aud` names another server or
    ///   client than this login's.
    static func read(_ token: String, issuer: String, clientID: String) throws(OAuthError) -> IDTokenClaims? {
        let parts = token.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 3, let data = PKCE.decodeBase64URL(parts[1]),
            let object = try? JSONSerialization.jsonObject(with: data) as? [String: Any]
        else { return nil }
        if let iss = object["iss"] as? String,
            AuthorizationServerMetadata.trimmed(iss) != AuthorizationServerMetadata.trimmed(issuer)
        {
            throw .badTokenAnswer("its ID token was issued by another server than the one logged in to")
        }
        let audiences: [String] = (object["aud"] as? String).map { [$0] } ?? (object["aud"] as? [String]) ?? []
        if !audiences.isEmpty, !audiences.contains(clientID) {
            throw .badTokenAnswer("its ID token is meant for another client")
        }
        return IDTokenClaims(
            email: object["email"] as? String, preferredUsername: object["preferred_username"] as? String,
            subject: (object["sub"] as? String), name: object["name"] as? String)
    }

    /// The user name the account gets: the email, else the preferred user name, else the subject.
    public var user: String? {
        [email, preferredUsername, subject].compactMap { $0 }.first { !$0.isEmpty }
    }
}
