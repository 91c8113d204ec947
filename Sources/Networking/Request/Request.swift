public import Foundation

/// A request ready to send: what plugins and interceptors see and change, and what a
/// ``Transport`` sends.
///
/// A ``Provider`` builds it once from a target; every attempt (a retry after a token refresh,
/// say) sends the same ``body`` bytes, adapted by the interceptors afresh each time.
public struct Request: Sendable {
    /// The logical request; the same on every attempt.
    public let id: RequestID
    /// Which attempt this is, from 1; set by the provider before ``Plugin/willSend(_:target:)``.
    public internal(set) var attempt: Int
    /// The method.
    public var method: HTTPMethod
    /// The full URL, query included.
    public var url: URL
    /// The header fields.
    public var headers: Headers
    /// The encoded body, built once.
    public var body: Body
    /// The most time the exchange may take, or `nil` for the transport's default.
    public var timeout: Duration?
    /// Where a successful (2xx) response body is written instead of memory, or `nil`.
    public var downloadDestination: DownloadDestination?

    /// A request with a new ``id``.
    public init(
        method: HTTPMethod,
        url: URL,
        headers: Headers = Headers(),
        body: Body = .empty,
        timeout: Duration? = nil,
        downloadDestination: DownloadDestination? = nil
    ) {
        self.id = .next()
        self.attempt = 1
        self.method = method
        self.url = url
        self.headers = headers
        self.body = body
        self.timeout = timeout
        self.downloadDestination = downloadDestination
    }

    /// The URL's path, percent-encoded as sent, for example `/v1/card/abc` (`/` when empty).
    public var path: String {
        let path = url.path(percentEncoded: true)
        return path.isEmpty ? "/" : path
    }
}

extension Request: CustomStringConvertible {
    /// `GET http://host/path?token=<private> (attempt 2, 1.2 kB body)`: redacted, safe to print.
    public var description: String {
        var details: [String] = []
        if attempt > 1 { details.append("attempt \(attempt)") }
        if !body.isEmpty { details.append("\(ByteCountText.format(body.length)) body") }
        let suffix = details.isEmpty ? "" : " (\(details.joined(separator: ", ")))"
        return "\(method) \(Redaction.default.redact(url: url))\(suffix)"
    }
}

/// Where a download is written.
///
/// The file appears only when the whole body has arrived (it is written to a temporary file and
/// moved into place), and only for a 2xx response; other responses keep their body in memory
/// as usual, so a failed download never leaves a half-written or error-page file behind.
public struct DownloadDestination: Sendable, Hashable {
    /// The file to write.
    public var url: URL
    /// Whether to replace an existing file; when `false`, an existing file fails the request.
    public var replaceExisting: Bool

    /// A destination file.
    public init(_ url: URL, replaceExisting: Bool = true) {
        self.url = url
        self.replaceExisting = replaceExisting
    }
}
