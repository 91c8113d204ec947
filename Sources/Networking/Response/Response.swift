public import Foundation

/// A server's answer: status, headers, body, and the request that was sent.
public struct Response: Sendable, CustomStringConvertible {
    /// The HTTP status code, for example 200.
    public let statusCode: Int
    /// The response header fields.
    public let headers: Headers
    /// The body; empty for a download written to a file.
    public let body: Data
    /// The request as sent (after plugins and interceptors), on the attempt that got this answer.
    public let request: Request
    /// For a download written to disk, the file and its size; otherwise `nil`.
    public let download: DownloadedFile?

    /// A response.
    public init(
        statusCode: Int, headers: Headers = Headers(), body: Data = Data(), request: Request,
        download: DownloadedFile? = nil
    ) {
        self.statusCode = statusCode
        self.headers = headers
        self.body = body
        self.request = request
        self.download = download
    }

    /// The number of body bytes received (for a download, the bytes written to the file).
    public var byteCount: Int64 { download?.byteCount ?? Int64(body.count) }

    /// The body as UTF-8 text (invalid bytes become U+FFFD).
    public var text: String { String(decoding: body, as: UTF8.self) }

    /// `200 GET /v1/card/abc (1.2 kB)`.
    public var description: String {
        "\(statusCode) \(request.method) \(request.path) (\(ByteCountText.format(byteCount)))"
    }

    /// This response if its status is 2xx.
    ///
    /// - Throws: ``NetworkError/unacceptableStatus(_:)`` otherwise.
    public func filterSuccessfulStatusCodes() throws(NetworkError) -> Response {
        try filter(statusCodes: 200...299)
    }

    /// This response if its status is in `statusCodes`.
    ///
    /// - Throws: ``NetworkError/unacceptableStatus(_:)`` otherwise.
    public func filter(statusCodes: ClosedRange<Int>) throws(NetworkError) -> Response {
        guard statusCodes.contains(statusCode) else { throw .unacceptableStatus(self) }
        return self
    }
}

/// A response body written to a file.
public struct DownloadedFile: Sendable, Hashable {
    /// Where the body was written.
    public let url: URL
    /// How many bytes were written.
    public let byteCount: Int64

    /// A downloaded file.
    public init(url: URL, byteCount: Int64) {
        self.url = url
        self.byteCount = byteCount
    }
}
