import CardBackend
public import Foundation
import OAuth
public import TokenStore

/// The interface's browser login (Ctrl-O on the login screen): what `cardwallet login --oauth`
/// takes from its options, taken from the settings instead (`oauth.issuer`, `oauth.clientId`,
/// `oauth.clientSecret`, `oauth.scope`, `oauth.redirectTimeout`) or from the stored account that
/// logged in with OAuth before. The login itself is ``WalletAccounts``'s, the same as the
/// command's.
public struct BrowserLogin: Sendable {
    /// The authorization server when the login form's Server field does not say `google`:
    /// `google` or an issuer's address (`oauth.issuer`).
    public var issuer: String?
    /// The OAuth client (`oauth.clientId`).
    public var clientID: String?
    /// Its secret (`oauth.clientSecret`).
    public var clientSecret: String?
    /// The scope over the issuer's default (`oauth.scope`).
    public var scope: String?
    /// How long to wait for the browser.
    public var deadline: Duration
    /// Whether plain `http` may be used to another computer (`allowInsecureHTTP`).
    public var allowsInsecureHTTP: Bool
    /// The environment `xdg-open` runs in (whether there is a display).
    public var environment: [String: String]

    /// Settings for the browser login.
    public init(
        issuer: String? = nil, clientID: String? = nil, clientSecret: String? = nil, scope: String? = nil,
        deadline: Duration = OAuthLoginRequest.defaultDeadline, allowsInsecureHTTP: Bool = false,
        environment: [String: String] = [:]
    ) {
        self.issuer = issuer
        self.clientID = clientID
        self.clientSecret = clientSecret
        self.scope = scope
        self.deadline = deadline
        self.allowsInsecureHTTP = allowsInsecureHTTP
        self.environment = environment
    }

    /// The login request for the form's Server field (`google`, a CardDAV server's address, or
    /// empty), the stored account `stored` filling what the settings leave out; `present` shows the
    /// authorization address (opening the browser is done here, where there is a display).
    ///
    /// - Throws: ``AccountProblem`` saying what to set when the issuer or the client is unknown.
    public func request(
        server: String, stored: AccountRecord?, present: @escaping @Sendable (URL) async -> Void
    ) throws -> LoginRequest {
        let storedOAuth = stored?.oauth
        let isGoogle = server.lowercased() == "google"
        guard let name = isGoogle ? "google" : (issuer ?? storedOAuth?.issuer) else {
            throw AccountProblem(
                "A browser login needs the authorization server: write “google” as the Server, or set oauth.issuer "
                    + "in the config file (or CARDWALLET_OAUTH_ISSUER), or log in once with "
                    + "`cardwallet login --oauth ISSUER`.")
        }
        var named: OAuthIssuer
        do {
            named = try OAuthIssuer.named(name, allowingInsecureHTTP: allowsInsecureHTTP)
        } catch {
            throw AccountProblem(error.description)
        }
        if let scope = scope ?? (storedOAuth?.issuer == named.recordName ? storedOAuth?.scope : nil) {
            named.scope = scope
        }
        let sameIssuer = storedOAuth?.issuer == named.recordName
        guard let id = clientID ?? (sameIssuer ? storedOAuth?.clientID : nil) else {
            throw AccountProblem(
                "A browser login needs the OAuth client's id: set oauth.clientId in the config file (or "
                    + "CARDWALLET_OAUTH_CLIENT_ID); Google: make a \"Desktop app\" client (docs/CardDAV.md).")
        }
        let environment = environment
        let address: String? = isGoogle || server.isEmpty ? nil : server
        return LoginRequest(
            server: address ?? (named.cardDAVServer == nil && sameIssuer ? stored?.server : nil), user: "",
            password: "",
            oauth: OAuthLoginRequest(
                issuer: named, client: OAuthClient(id: id, secret: clientSecret), deadline: deadline,
                present: { url in
                    BrowserOpener.open(url, environment: environment)
                    await present(url)
                }))
    }
}
