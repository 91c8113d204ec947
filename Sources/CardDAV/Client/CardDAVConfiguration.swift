public import Foundation

/// How a ``CardDAVClient`` talks to one server.
public struct CardDAVConfiguration: Sendable, Hashable {
    /// The address given: a server root, a principal or an address book. Requests go to its
    /// origin (scheme, host, port), and elsewhere only within the ``CredentialScope`` of
    /// ``givenAddress`` (or of this address when that is `nil`).
    public var server: URL
    /// The address the person gave, when ``server`` is another host that address led to (an
    /// address book on iCloud's partition host, `https://p42-contacts.icloud.com/…`): where the
    /// password may go is decided from it (``CredentialScope``). `nil`: ``server`` is the
    /// address given.
    public var givenAddress: URL?
    /// The most time one request may take, or `nil` for the transport's default.
    public var requestTimeout: Duration?
    /// Whether the password may go to a plain `http://` server that is not this computer.
    /// Default `false`: such a client refuses every call with ``CardDAVError/insecureServer(_:)``.
    public var allowsInsecureHTTP: Bool
    /// How many requests go out at once, or `nil` for the transport's connections per host
    /// (8 for `LiveTransport`); the others wait their turn (`Admission` in docs/Networking.md).
    public var requestsPerHost: Int?
    /// The most cards one `addressbook-multiget` asks for. Default: 100.
    public var multigetBatchSize: Int
    /// The caps on the XML of every answer.
    public var xmlLimits: XMLLimits
    /// The most `sync-collection` requests one sync sends while the server truncates. Default: 100.
    public var maximumSyncRounds: Int
    /// The longest `Retry-After` (429, 503) waited out before one retry; a longer wait fails the
    /// request at once with the server's answer. Default: 30 s.
    public var maximumRetryAfter: Duration

    /// A configuration.
    ///
    /// - Parameters:
    ///   - server: the address given; see ``serverURL(_:allowingInsecureHTTP:)`` for one a person typed.
    ///   - requestTimeout: the most time one request may take; `nil` for the transport's default.
    ///   - allowsInsecureHTTP: whether a plain `http://` server other than this computer is used.
    ///   - requestsPerHost: how many requests go out at once; `nil` for the transport's connections.
    ///   - multigetBatchSize: the most cards per multiget (at least 1).
    ///   - xmlLimits: the caps on answers' XML.
    ///   - maximumSyncRounds: the most `sync-collection` requests per sync (at least 1).
    ///   - givenAddress: the address the person gave, when `server` is another host it led to.
    ///   - maximumRetryAfter: the longest `Retry-After` waited out before one retry.
    public init(
        server: URL, requestTimeout: Duration? = nil, allowsInsecureHTTP: Bool = false, requestsPerHost: Int? = nil,
        multigetBatchSize: Int = 100, xmlLimits: XMLLimits = XMLLimits(), maximumSyncRounds: Int = 100,
        givenAddress: URL? = nil, maximumRetryAfter: Duration = .seconds(30)
    ) {
        self.maximumRetryAfter = maximumRetryAfter
        self.server = server
        self.givenAddress = givenAddress
        self.requestTimeout = requestTimeout
        self.allowsInsecureHTTP = allowsInsecureHTTP
        self.requestsPerHost = requestsPerHost
        self.multigetBatchSize = max(1, multigetBatchSize)
        self.xmlLimits = xmlLimits
        self.maximumSyncRounds = max(1, maximumSyncRounds)
    }

    /// Parses a CardDAV address a person typed (`--server`, the login form).
    ///
    /// - Parameters:
    ///   - text: for example `https://dav.example.com/` or `http://127.0.0.1:5232/alice/contacts/`.
    ///   - allowingInsecureHTTP: whether plain `http://` to a host other than this computer is
    ///     accepted (the user said so explicitly); loopback hosts always are.
    /// - Returns: the URL, with a `/` path when it had none.
    /// - Throws: ``CardDAVError/invalidServerURL(_:)`` unless it is an `http` or `https` URL with
    ///   a host and no user name, password, query or fragment (a password is never echoed: the
    ///   error shows `<private>` in its place); ``CardDAVError/insecureServer(_:)`` for plain
    ///   `http://` to another computer unless `allowingInsecureHTTP`.
    public static func serverURL(_ text: String, allowingInsecureHTTP: Bool = false) throws(CardDAVError) -> URL {
        let trimmed = text.trimmingCharacters(in: .whitespaces)
        guard !hasUserInfo(trimmed), let components = URLComponents(string: trimmed),
            let scheme = components.scheme?.lowercased(), scheme == "http" || scheme == "https",
            let host = components.host, !host.isEmpty, components.user == nil, components.password == nil,
            components.query == nil, components.fragment == nil, var url = components.url
        else {
            throw .invalidServerURL(maskingUserInfo(text))
        }
        if url.path(percentEncoded: true).isEmpty, let rooted = URL(string: url.absoluteString + "/") { url = rooted }
        if !allowingInsecureHTTP, ServerOrigin(url)?.isInsecure == true { throw .insecureServer(url.absoluteString) }
        return url
    }

    /// Whether `text` holds user info (`…://user:pw@host…`), judged on the text itself.
    static func hasUserInfo(_ text: String) -> Bool {
        guard let authority = authorityRange(in: text) else { return false }
        return text[authority].contains("@")
    }

    /// `text` with any user info replaced by `<private>`.
    static func maskingUserInfo(_ text: String) -> String {
        guard let authority = authorityRange(in: text), let at = text[authority].lastIndex(of: "@") else {
            return text
        }
        return String(text[..<authority.lowerBound]) + "<private>" + String(text[at...])
    }

    private static func authorityRange(in text: String) -> Range<String.Index>? {
        guard let separator = text.range(of: "://") else { return nil }
        let rest = text[separator.upperBound...]
        let end = rest.firstIndex(where: { $0 == "/" || $0 == "?" || $0 == "#" }) ?? rest.endIndex
        return separator.upperBound..<end
    }
}

/// What a client logs in with: a user name and an app password, or — for a server behind OAuth
/// 2.0 (Google) — a bearer token. The password is asked for on each request (from the keyring,
/// say), never kept by the client; a bearer token comes from its session, which refreshes it.
/// Either goes only where the ``CredentialScope`` admits, over `https` or to this computer.
public struct CardDAVCredentials: Sendable {
    /// The user name (no `:`, which Basic credentials cannot carry).
    public let user: String
    /// Gives the password (Basic credentials), or `nil` for a bearer token.
    let password: (@Sendable () async throws -> String)?
    /// Where the bearer token comes from, or `nil` for Basic credentials.
    let bearer: BearerSource?

    /// Credentials whose password comes from `password`, asked on every request.
    ///
    /// - Parameters:
    ///   - user: the user name.
    ///   - password: gives the password; an error it throws fails the request with
    ///     ``CardDAVError/credentialUnavailable(reason:)`` before anything is sent.
    public init(user: String, password: @escaping @Sendable () async throws -> String) {
        self.user = user
        self.password = password
        self.bearer = nil
    }

    /// Credentials with a fixed password.
    public init(user: String, password: String) {
        self.init(user: user) { password }
    }

    /// Credentials whose bearer token comes from `bearer` (an OAuth 2.0 session).
    public init(user: String, bearer: BearerSource) {
        self.user = user
        self.password = nil
        self.bearer = bearer
    }

    /// Whether requests carry a bearer token.
    var isBearer: Bool { bearer != nil }
}
