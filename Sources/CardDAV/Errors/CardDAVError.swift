import CardBackend
public import OAuth

/// Everything a ``CardDAVClient`` call can fail with: a closed set, with the predicates a
/// caller decides by (``isNetworkFailure``, ``isNotFound``, ``isConflict``, ``requiresLogin``,
/// ``isInsecureServer``, ``isBadServerAnswer``).
///
/// Every text inside is terminal-safe and never holds the password (nor the `Authorization`
/// header, in any form): server text is scrubbed of the request's secrets, then escaped.
///
/// ```swift
/// do { try await client.update(card.href, vcard: text, etag: card.etag) }
/// catch let error where error.isConflict { showConflict() }
/// catch let error where error.requiresLogin { askForPassword() }
/// ```
public enum CardDAVError: Error, Sendable, Hashable {
    /// No connection could be made (refused, unreachable, unknown host, connect timeout).
    /// `server` is the server in use; `endpoint` is `host:port`.
    case cannotConnect(server: String, endpoint: String, reason: String)
    /// The server accepted the connection but did not answer in time.
    case timedOut(url: String, reason: String)
    /// The exchange failed midway (connection lost, an answer larger than the transport keeps).
    case connectionFailed(url: String, reason: String)
    /// The server refused the user name and password (401): the app password is wrong, was
    /// revoked, or belongs to another account. Nothing else works until it is given again.
    case credentialRefused(server: String, user: String)
    /// The password could not be had (the password provider threw); nothing was sent.
    case credentialUnavailable(reason: String)
    /// The server does not let this account do that (403).
    case forbidden(request: String)
    /// No such resource (404 or 410): the card was deleted, or the address is wrong.
    case notFound(url: String)
    /// The resource changed since its ETag was read, or a card with that name exists already
    /// (412 to `If-Match` or `If-None-Match: *`). Read it again, then decide.
    case conflict(url: String)
    /// The server is plain `http://` to a host other than this computer, so the password would
    /// cross the network unencrypted; nothing was sent. Use `https://`, or allow it explicitly.
    case insecureServer(String)
    /// The server address is not an `http` or `https` URL with a host, or holds a user name or
    /// password (shown as `<private>`).
    case invalidServerURL(String)
    /// The server pointed elsewhere (a redirect, a principal, an address book or a card) outside
    /// the ``CredentialScope``: another domain, or plain `http`. The password is only ever sent
    /// within it, so nothing was sent there; `location` is where it pointed, for the user to give
    /// instead if they trust it.
    case foreignLocation(server: String, location: String)
    /// Discovery found no CardDAV service at the address (no principal, no address book,
    /// neither at the address nor at `/.well-known/carddav`).
    case notCardDAV(server: String)
    /// A success status whose body is not the DAV answer the request calls for (not XML,
    /// malformed, refused by the XML reader's caps, a DTD, missing parts).
    case badAnswer(request: String, status: Int, detail: String)
    /// Any other error status (5xx, 405, 415…), with a short excerpt of what the server said.
    case serverFailure(request: String, status: Int, detail: String)
    /// The request could not be made as asked (a resource name that cannot be one, an href
    /// that is not a path on the server); nothing was sent.
    case invalidRequest(String)
    /// The calling task was cancelled.
    case cancelled
    /// The OAuth 2.0 session that gives the bearer token failed: the grant is dead
    /// (`invalid_grant`: ``requiresLogin``, E06's path), the authorization server could not be
    /// reached for a refresh, the keyring kept no refresh token…; nothing was sent to the server.
    case authorization(OAuthError)

    /// The HTTP status, when the server answered.
    public var statusCode: Int? {
        switch self {
        case .credentialRefused: 401
        case .forbidden: 403
        case .notFound: 404
        case .conflict: 412
        case .badAnswer(_, let status, _), .serverFailure(_, let status, _): status
        default: nil
        }
    }

    /// Whether the server could not be reached or did not answer (no HTTP status): the
    /// change may be kept and sent later.
    public var isNetworkFailure: Bool {
        switch self {
        case .cannotConnect, .timedOut, .connectionFailed: true
        case .authorization(let error): error.isNetworkFailure
        default: false
        }
    }

    /// Whether there is no such resource.
    public var isNotFound: Bool {
        if case .notFound = self { return true }
        return false
    }

    /// Whether the write lost a race (412): the resource changed since it was read, or exists.
    public var isConflict: Bool {
        if case .conflict = self { return true }
        return false
    }

    /// Whether the user must give the password again before anything else works (401).
    public var requiresLogin: Bool {
        switch self {
        case .credentialRefused: true
        case .authorization(let error): error.requiresLogin
        default: false
        }
    }

    /// Whether the call was refused because the password would cross the network unencrypted.
    public var isInsecureServer: Bool {
        if case .insecureServer = self { return true }
        return false
    }

    /// Whether the server's answer could not be used: unexpected or hostile XML, a document
    /// that is not the DAV answer asked for, a redirect or href to another origin, no CardDAV.
    public var isBadServerAnswer: Bool {
        switch self {
        case .badAnswer, .foreignLocation, .notCardDAV: true
        default: false
        }
    }
}
