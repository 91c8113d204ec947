public import Foundation

/// What an authorization server says about itself (RFC 8414 §2; OpenID Connect Discovery 1.0
/// §3 has the same names): where to send the person, where to get tokens, what it supports.
public struct AuthorizationServerMetadata: Sendable, Hashable, Codable {
    /// The issuer: must be the one asked for (RFC 8414 §3.3), or another server's metadata could
    /// send the login elsewhere.
    public var issuer: String
    /// Where the browser goes.
    public var authorizationEndpoint: URL
    /// Where codes and refresh tokens are exchanged.
    public var tokenEndpoint: URL
    /// Where tokens are revoked (RFC 7009), if it has one.
    public var revocationEndpoint: URL?
    /// The PKCE methods it supports; `nil` when it does not say.
    public var codeChallengeMethodsSupported: [String]?
    /// How clients authenticate at the token endpoint (`client_secret_basic`, `client_secret_post`,
    /// `none`); RFC 8414 says `client_secret_basic` when it does not say.
    public var tokenEndpointAuthMethodsSupported: [String]?

    enum CodingKeys: String, CodingKey {
        case issuer
        case authorizationEndpoint = "authorization_endpoint"
        case tokenEndpoint = "token_endpoint"
        case revocationEndpoint = "revocation_endpoint"
        case codeChallengeMethodsSupported = "code_challenge_methods_supported"
        case tokenEndpointAuthMethodsSupported = "token_endpoint_auth_methods_supported"
    }

    /// Metadata.
    public init(
        issuer: String, authorizationEndpoint: URL, tokenEndpoint: URL, revocationEndpoint: URL? = nil,
        codeChallengeMethodsSupported: [String]? = nil, tokenEndpointAuthMethodsSupported: [String]? = nil
    ) {
        self.issuer = issuer
        self.authorizationEndpoint = authorizationEndpoint
        self.tokenEndpoint = tokenEndpoint
        self.revocationEndpoint = revocationEndpoint
        self.codeChallengeMethodsSupported = codeChallengeMethodsSupported
        self.tokenEndpointAuthMethodsSupported = tokenEndpointAuthMethodsSupported
    }

    /// How the client authenticates at the token endpoint: HTTP Basic when the server takes it
    /// (RFC 6749 §2.3.1: servers must, and it keeps the secret out of the body), else in the form.
    public var usesBasicClientAuthentication: Bool {
        guard let methods = tokenEndpointAuthMethodsSupported, !methods.isEmpty else { return true }
        return methods.contains("client_secret_basic") || !methods.contains("client_secret_post")
    }

    /// The two addresses metadata may be found at for `issuer`, in the order asked: RFC 8414's
    /// (`/.well-known/oauth-authorization-server` inserted before the issuer's path) and OpenID
    /// Connect's (`/.well-known/openid-configuration` appended to it).
    public static func addresses(for issuer: URL) -> [URL] {
        guard var components = URLComponents(url: issuer, resolvingAgainstBaseURL: false) else { return [] }
        var path = components.path
        while path.hasSuffix("/") { path.removeLast() }
        components.query = nil
        components.fragment = nil
        var rfc8414 = components
        rfc8414.path = "/.well-known/oauth-authorization-server" + path
        var openID = components
        openID.path = path + "/.well-known/openid-configuration"
        return [rfc8414.url, openID.url].compactMap { $0 }
    }

    /// Whether `issuer` (as the metadata says it) is the one asked for: equal once trailing
    /// slashes are dropped.
    public func isIssued(by asked: URL) -> Bool {
        Self.trimmed(issuer) == Self.trimmed(asked.absoluteString)
    }

    static func trimmed(_ text: String) -> String {
        var text = text
        while text.hasSuffix("/") { text.removeLast() }
        return text
    }
}
