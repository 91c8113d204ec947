import CardAPIContract
import CardBackend
public import CardModels
public import Foundation
import TokenStore

/// How a ``CardAPIClient`` talks to one server.
public struct CardAPIConfiguration: Sendable, Equatable {
    /// The API's base URL, e.g. `http://127.0.0.1:8080/v1` (trailing slashes removed).
    public var server: URL
    /// The account to use; `nil` uses the only account stored for ``server``.
    public var account: String?
    /// The session's token rules.
    public var session: SessionPolicy
    /// The largest image file accepted for upload (the server's limit, 2 MiB, by default).
    public var maximumImageBytes: Int
    /// The most time a card request may take, or `nil` for the transport's default.
    public var requestTimeout: Duration?
    /// Whether passwords and tokens may go to a plain `http://` server that is not this
    /// computer (see ``ServerAddress``). Default `false`: such a client refuses every call with
    /// ``CardAPIError/insecureServer(_:)`` before sending anything.
    public var allowsInsecureHTTP: Bool
    /// How many card requests are adapted (given their token) and sent at once, or `nil` for
    /// the transport's connections per host (8 for `LiveTransport`); the others wait their turn.
    /// See `Admission` in `docs/Networking.md`.
    public var requestsPerHost: Int?

    /// A configuration.
    ///
    /// - Parameters:
    ///   - server: the API's base URL; see ``serverURL(_:)`` to parse one a person typed.
    ///   - account: the account to use; `nil` for the only one stored for `server`.
    ///   - session: the session's token rules.
    ///   - maximumImageBytes: the largest image accepted for upload.
    ///   - requestTimeout: the most time a card request may take; `nil` for the transport's default.
    ///   - allowsInsecureHTTP: whether a plain `http://` server other than this computer is used.
    ///   - requestsPerHost: how many card requests go out at once; `nil` for the transport's
    ///     connections per host.
    public init(
        server: URL, account: String? = nil, session: SessionPolicy = SessionPolicy(),
        maximumImageBytes: Int = CardLimits.imageMaxBytes, requestTimeout: Duration? = nil,
        allowsInsecureHTTP: Bool = false, requestsPerHost: Int? = nil
    ) {
        self.server = URL(string: TokenItem.normalizedServer(server.absoluteString)) ?? server
        self.account = account
        self.session = session
        self.maximumImageBytes = maximumImageBytes
        self.requestTimeout = requestTimeout
        self.allowsInsecureHTTP = allowsInsecureHTTP
        self.requestsPerHost = requestsPerHost
    }

    /// The server as the token store keys it: the base URL without trailing slashes.
    public var serverKey: String { TokenItem.normalizedServer(server.absoluteString) }

    /// Parses a server address a person typed (`--server`, `CARDWALLET_SERVER`, the login form)
    /// and checks it against the rules of ``ServerAddress``.
    ///
    /// - Parameters:
    ///   - text: for example `http://127.0.0.1:8080/v1`.
    ///   - allowingInsecureHTTP: whether plain `http://` to a host other than this computer is
    ///     accepted (the user said so explicitly); loopback hosts are always accepted.
    /// - Returns: the URL without trailing slashes.
    /// - Throws: ``CardAPIError/invalidServerURL(_:)`` unless it is an `http` or `https` URL
    ///   with a host (and no query, fragment, user name or password; a password is never
    ///   echoed: the error holds the text with its user info as `<private>`), and
    ///   ``CardAPIError/insecureServer(_:)`` for plain `http://` to another computer unless
    ///   `allowingInsecureHTTP`.
    public static func serverURL(_ text: String, allowingInsecureHTTP: Bool = false) throws(CardAPIError) -> URL {
        do {
            return try ServerAddress.url(text, allowingInsecureHTTP: allowingInsecureHTTP)
        } catch {
            switch error.problem {
            case .invalid(let shown): throw .invalidServerURL(shown)
            case .insecure(let server): throw .insecureServer(server)
            }
        }
    }

    /// Whether this configuration lets passwords and tokens go to ``server``: not when it is
    /// plain `http://` to another computer and ``allowsInsecureHTTP`` is off.
    func checkTransportSecurity() throws(CardAPIError) {
        if !allowsInsecureHTTP && ServerAddress.isInsecure(server) { throw .insecureServer(serverKey) }
    }
}
