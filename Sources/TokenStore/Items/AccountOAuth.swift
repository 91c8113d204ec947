import Foundation

/// How an account logs in with OAuth 2.0, as its record keeps it: the authorization server and
/// the client — never a secret. The refresh token and the client secret live where the record's
/// ``AccountRecord/secret`` says (the keyring); the access token is a ``TokenItem`` in the token
/// file, like the card API's.
public struct AccountOAuth: Sendable, Hashable, Codable {
    /// The issuer as the person named it: a preset (`google`) or its address.
    public var issuer: String
    /// The client id.
    public var clientID: String
    /// The token endpoint, from the issuer's metadata at the login (refreshes go there without
    /// asking for the metadata again).
    public var tokenEndpoint: String
    /// The revocation endpoint (RFC 7009), when the server has one: a logout revokes the refresh
    /// token there.
    public var revocationEndpoint: String?
    /// Whether the client authenticates with HTTP Basic at the token endpoint (else in the form);
    /// `nil` reads as `true`.
    public var basicClientAuthentication: Bool?
    /// The scope the login asked for.
    public var scope: String?

    /// Settings.
    public init(
        issuer: String, clientID: String, tokenEndpoint: String, revocationEndpoint: String? = nil,
        basicClientAuthentication: Bool? = nil, scope: String? = nil
    ) {
        self.issuer = issuer
        self.clientID = clientID
        self.tokenEndpoint = tokenEndpoint
        self.revocationEndpoint = revocationEndpoint
        self.basicClientAuthentication = basicClientAuthentication
        self.scope = scope
    }

    enum CodingKeys: String, CodingKey {
        case issuer, clientID, tokenEndpoint, revocationEndpoint, basicClientAuthentication, scope
    }

    /// Decodes settings, checking that they name a server and a client.
    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        self.init(
            issuer: try c.decode(String.self, forKey: .issuer), clientID: try c.decode(String.self, forKey: .clientID),
            tokenEndpoint: try c.decode(String.self, forKey: .tokenEndpoint),
            revocationEndpoint: try c.decodeIfPresent(String.self, forKey: .revocationEndpoint),
            basicClientAuthentication: try c.decodeIfPresent(Bool.self, forKey: .basicClientAuthentication),
            scope: try c.decodeIfPresent(String.self, forKey: .scope))
        guard !issuer.isEmpty, !clientID.isEmpty, !tokenEndpoint.isEmpty else {
            throw DecodingError.dataCorruptedError(
                forKey: .issuer, in: c,
                debugDescription: "an account's OAuth settings have an empty issuer, client or endpoint")
        }
    }
}
