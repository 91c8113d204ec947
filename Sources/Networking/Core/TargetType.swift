public import Foundation

/// One endpoint of an API, usually a case of an enum:
///
/// ```swift
/// enum CardService: TargetType {
///     case card(id: String)
///     var baseURL: URL { URL(string: "http://127.0.0.1:8080")! }
///     var path: String { switch self { case .card(let id): "/v1/card/\(id)" } }
///     var method: HTTPMethod { .get }
///     var body: RequestBody { .plain }
/// }
/// ```
///
/// A ``Provider`` turns a target into a ``Request``: the URL is `baseURL` followed by `path`
/// (characters outside the RFC 3986 path set are percent-encoded, so pass plain text, not
/// escapes), the headers are `headers` plus the content type of `body`.
public protocol TargetType: Sendable {
    /// The server, for example `http://127.0.0.1:8080`; may carry a path prefix.
    var baseURL: URL { get }
    /// The path appended to ``baseURL``, for example `/v1/card/abc`.
    var path: String { get }
    /// The HTTP method.
    var method: HTTPMethod { get }
    /// What the request carries: nothing, JSON, parameters, multipart form data, a file….
    var body: RequestBody { get }
    /// Extra headers; a body's `Content-Type` is added only when these do not set one. Default: none.
    var headers: Headers { get }
    /// The body a stub answers with (status 200) when the provider stubs this target. Default: empty.
    var sampleData: Data { get }
    /// Which status codes succeed. Default: ``Validation/successCodes`` (2xx).
    var validation: Validation { get }
    /// The most time the whole exchange may take, or `nil` for the transport's default. Default: `nil`.
    var timeout: Duration? { get }
}

extension TargetType {
    /// No extra headers.
    public var headers: Headers { Headers() }
    /// Empty sample data.
    public var sampleData: Data { Data() }
    /// Accept 2xx.
    public var validation: Validation { .successCodes }
    /// The transport's default timeout.
    public var timeout: Duration? { nil }
}
