public import Foundation

/// Where an OAuth 2.0 login goes, and what it asks for: an authorization server (its issuer,
/// whose metadata says where its endpoints are), the scope, the extra parameters it needs, and —
/// for a known provider — where its CardDAV server is.
public struct OAuthIssuer: Sendable, Hashable {
    /// The issuer's URL: its RFC 8414 / OpenID Connect metadata is found from it.
    public var url: URL
    /// The scope asked for, space-separated.
    public var scope: String
    /// Parameters added to the authorization request (Google's `access_type=offline` and
    /// `prompt=consent`, without which it gives no refresh token).
    public var authorizationParameters: [String: String]
    /// The provider's CardDAV address, when the provider has a known one.
    public var cardDAVServer: URL?
    /// The preset's name (`google`), or `nil` for an issuer given by its address.
    public var preset: String?

    /// An issuer.
    public init(
        url: URL, scope: String = OAuthIssuer.defaultScope, authorizationParameters: [String: String] = [:],
        cardDAVServer: URL? = nil, preset: String? = nil
    ) {
        self.url = url
        self.scope = scope
        self.authorizationParameters = authorizationParameters
        self.cardDAVServer = cardDAVServer
        self.preset = preset
    }

    /// The scope asked of an issuer given by its address: OpenID Connect's `openid email`, so the
    /// answer says who logged in (its ID token's email); a server that needs another scope for its
    /// address books gets it with `--scope`.
    public static let defaultScope = "openid email"

    /// Google: accounts.google.com's OpenID Connect metadata, the CardDAV scope with `openid email`
    /// (the email names the account and its principal), a refresh token asked for
    /// (`access_type=offline`) and the consent screen shown every time (`prompt=consent`: Google
    /// gives a refresh token only with a consent), and Google's CardDAV address, from which
    /// discovery starts (developers.google.com/people/carddav).
    public static let google = OAuthIssuer(
        url: URL(string: "https://accounts.google.com")!,
        scope: "https://www.googleapis.com/auth/carddav openid email",
        authorizationParameters: ["access_type": "offline", "prompt": "consent"],
        cardDAVServer: URL(string: "https://www.googleapis.com/.well-known/carddav")!, preset: "google")

    /// The presets, by name.
    public static let presets: [String: OAuthIssuer] = ["google": .google]

    /// The issuer `text` names: a preset's name (`google`), or an `https` address (plain `http`
    /// only to this computer, or when allowed).
    ///
    /// - Throws: ``OAuthError/invalidIssuer(_:)`` or ``OAuthError/insecureServer(_:)``.
    public static func named(_ text: String, allowingInsecureHTTP: Bool = false) throws(OAuthError) -> OAuthIssuer {
        let trimmed = text.trimmingCharacters(in: .whitespaces)
        if let preset = presets[trimmed.lowercased()] { return preset }
        guard let url = URL(string: trimmed), let scheme = url.scheme?.lowercased(),
            scheme == "https" || scheme == "http",
            let host = url.host, !host.isEmpty, url.query == nil, url.fragment == nil, url.user == nil,
            url.password == nil
        else { throw .invalidIssuer(trimmed) }
        if scheme == "http" && !allowingInsecureHTTP && !isLoopback(host) { throw .insecureServer(trimmed) }
        var normalized = trimmed
        while normalized.hasSuffix("/") { normalized.removeLast() }
        return OAuthIssuer(url: URL(string: normalized) ?? url)
    }

    /// The issuer as a record keeps it: the preset's name, else the URL.
    public var recordName: String { preset ?? url.absoluteString }

    /// Whether `host` is this computer (`localhost`, `127.0.0.0/8`, `::1`).
    static func isLoopback(_ host: String) -> Bool {
        let host = host.lowercased().trimmingCharacters(in: CharacterSet(charactersIn: "[]"))
        return host == "localhost" || host == "::1" || host.hasPrefix("127.")
    }
}

/// The client cardwallet is at the authorization server: the id it was registered with, and its
/// secret when it has one (Google's "Desktop app" clients have one, which Google says is not
/// treated as a secret for installed apps; RFC 8252 public clients have none).
public struct OAuthClient: Sendable, Hashable {
    /// The client id.
    public var id: String
    /// The client secret, or `nil` for a public client.
    public var secret: String?

    /// A client.
    public init(id: String, secret: String? = nil) {
        self.id = id
        self.secret = secret.flatMap { $0.isEmpty ? nil : $0 }
    }
}
