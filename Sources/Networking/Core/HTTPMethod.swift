/// An HTTP request method: an open set, so any token a server understands can be used.
///
/// ```swift
/// let method: HTTPMethod = .get
/// let custom = HTTPMethod(rawValue: "PROPFIND")
/// ```
public struct HTTPMethod: RawRepresentable, Hashable, Sendable, ExpressibleByStringLiteral, CustomStringConvertible {
    /// The method token as sent on the wire, for example `GET`.
    public let rawValue: String

    /// A method from its wire token. Tokens are case-sensitive (RFC 9110): pass `"GET"`, not `"get"`.
    public init(rawValue: String) { self.rawValue = rawValue }

    /// A method from a string literal, for example `"PROPFIND"`.
    public init(stringLiteral value: String) { self.rawValue = value }

    /// `GET`: read a resource.
    public static let get = HTTPMethod(rawValue: "GET")
    /// `HEAD`: like `GET`, without the body.
    public static let head = HTTPMethod(rawValue: "HEAD")
    /// `POST`: create or submit.
    public static let post = HTTPMethod(rawValue: "POST")
    /// `PUT`: replace a resource.
    public static let put = HTTPMethod(rawValue: "PUT")
    /// `PATCH`: change part of a resource.
    public static let patch = HTTPMethod(rawValue: "PATCH")
    /// `DELETE`: remove a resource.
    public static let delete = HTTPMethod(rawValue: "DELETE")
    /// `OPTIONS`: ask what a resource supports.
    public static let options = HTTPMethod(rawValue: "OPTIONS")
    /// `TRACE`: loop the request back.
    public static let trace = HTTPMethod(rawValue: "TRACE")
    /// `CONNECT`: open a tunnel.
    public static let connect = HTTPMethod(rawValue: "CONNECT")

    /// The wire token.
    public var description: String { rawValue }
}
