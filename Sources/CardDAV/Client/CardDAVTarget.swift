public import Foundation
public import Networking

/// The DAV requests as a `Networking` target, so that they go through the same provider,
/// plugins (the logger plugin shows them, `Authorization` as `<private>`), deadlines and
/// admission as the card API's.
///
/// The target's URL is the whole resource URL (`baseURL`, with an empty `path`): hrefs come
/// from the server already percent-encoded, and the request builder would encode them again.
public struct CardDAVTarget: TargetType, AccessTokenAuthorizable {
    /// One DAV request.
    public enum Endpoint: Sendable, Equatable {
        /// `OPTIONS`: what the resource supports (its `DAV` header names `addressbook`).
        case options
        /// `PROPFIND` with `Depth: 0` or `1`, asking for `properties`.
        case propfind(depth: Int, properties: [XMLName])
        /// `REPORT sync-collection` (RFC 6578) since `token` (`nil`: the first sync).
        case syncCollection(token: String?, properties: [XMLName])
        /// `REPORT addressbook-multiget` (RFC 6352) of `hrefs` (absolute paths).
        case multiget(hrefs: [String], properties: [XMLName])
        /// `GET` the vCard.
        case get
        /// `PUT` a vCard, only if `precondition` holds.
        case put(vcard: Data, precondition: WritePrecondition)
        /// `DELETE`, with `If-Match` when an ETag is given.
        case delete(etag: String?)
    }

    /// The resource the request goes to.
    public let url: URL
    /// What to send.
    public let endpoint: Endpoint
    /// The most time the exchange may take, or `nil` for the transport's default.
    public let timeout: Duration?
    /// How the request is authorized: `Basic` credentials, or a bearer token (OAuth 2.0).
    public let authorization: AuthorizationType

    /// A DAV request to `url`.
    public init(url: URL, endpoint: Endpoint, timeout: Duration? = nil, authorization: AuthorizationType = .basic) {
        self.url = url
        self.endpoint = endpoint
        self.timeout = timeout
        self.authorization = authorization
    }

    /// The whole resource URL.
    public var baseURL: URL { url }

    /// Empty: ``baseURL`` is the whole URL.
    public var path: String { "" }

    /// `OPTIONS`, `PROPFIND`, `REPORT`, `GET`, `PUT` or `DELETE`.
    public var method: HTTPMethod {
        switch endpoint {
        case .options: .options
        case .propfind: "PROPFIND"
        case .syncCollection, .multiget: "REPORT"
        case .get: .get
        case .put: .put
        case .delete: .delete
        }
    }

    /// The XML body of PROPFIND and REPORT, the vCard of PUT.
    public var body: RequestBody {
        switch endpoint {
        case .options, .get, .delete:
            .plain
        case .propfind(_, let properties):
            .data(RequestBodies.propfind(properties), contentType: Self.xmlType)
        case .syncCollection(let token, let properties):
            .data(RequestBodies.syncCollection(token: token, properties: properties), contentType: Self.xmlType)
        case .multiget(let hrefs, let properties):
            .data(RequestBodies.multiget(hrefs: hrefs, properties: properties), contentType: Self.xmlType)
        case .put(let vcard, _):
            .data(vcard, contentType: "text/vcard; charset=utf-8")
        }
    }

    /// `Depth`, `If-Match` / `If-None-Match`, and what the client accepts.
    public var headers: Headers {
        switch endpoint {
        case .options:
            return Headers()
        case .propfind(let depth, _):
            return ["Depth": String(depth), "Accept": Self.xmlAccept]
        case .syncCollection, .multiget:
            // RFC 6578 §3.3: a sync-collection REPORT carries Depth 0 (the level is in the body).
            return ["Depth": "0", "Accept": Self.xmlAccept]
        case .get:
            return ["Accept": "text/vcard, text/x-vcard;q=0.5"]
        case .put(_, .create):
            return ["If-None-Match": "*"]
        case .put(_, .ifMatch(let etag)):
            return ["If-Match": etag]
        case .delete(let etag):
            return etag.map { ["If-Match": $0] } ?? Headers()
        }
    }

    /// Every DAV request carries the user's Basic credentials (added by the client's
    /// interceptor, only on the server's own origin).
    public var authorizationType: AuthorizationType? { authorization }

    private static let xmlType = "application/xml; charset=utf-8"
    private static let xmlAccept = "application/xml, text/xml"
}

/// When a `PUT` may replace what the server has.
public enum WritePrecondition: Sendable, Hashable {
    /// Only if nothing is there yet (`If-None-Match: *`): a new card never overwrites another.
    case create
    /// Only if the resource still has this ETag (`If-Match`): an edit never overwrites a change
    /// made elsewhere since it was read.
    case ifMatch(String)
}

extension CardDAVTarget: CustomStringConvertible {
    /// `PROPFIND /dav/alice/`: method and path, never a card's contents.
    public var description: String { "\(method) \(Href.path(of: url))" }
}
