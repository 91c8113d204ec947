public import Foundation

/// One moment of an exchange, as the ``LoggerPlugin`` records it: already redacted, safe to
/// store and show (escape control characters before painting free text on a terminal; the
/// ``NetworkEventFormatter`` does).
public struct NetworkEvent: Sendable, Hashable, Identifiable {
    /// What happened.
    public enum Kind: String, Sendable, Hashable, CaseIterable {
        /// The request was built and prepared (once per request, before any attempt).
        case created
        /// An attempt was handed to the transport.
        case sent
        /// An attempt got a response (any status; `statusCode` says which).
        case received
        /// An attempt failed without a response: connection, timeout, cancellation, interceptor.
        case failed
        /// An interceptor asked for another attempt (`retryDelay` says after how long).
        case retrying
    }

    /// Increases with every event of one plugin, in the order they were recorded.
    public internal(set) var id: UInt64
    /// The request this event belongs to; the same for all its attempts.
    public let requestID: RequestID
    /// What happened.
    public let kind: Kind
    /// When it happened (wall clock).
    public internal(set) var timestamp: Date
    /// Which attempt, from 1 (`created` is attempt 1).
    public let attempt: Int
    /// The method.
    public let method: HTTPMethod
    /// The full URL, sensitive query values hidden.
    public let url: String
    /// The URL's path, for example `/v1/card/abc`.
    public let path: String
    /// The status code (`received` only).
    public let statusCode: Int?
    /// Time from `sent` to `received`/`failed` of the same attempt.
    public let duration: Duration?
    /// Body bytes: the request's for `created`/`sent`, the response's for `received`.
    public let byteCount: Int64?
    /// The request's (`created`, `sent`) or response's (`received`) headers, redacted.
    public let headers: Headers
    /// The start of the body, redacted and truncated; binary bodies are summarised.
    public let bodyPreview: String?
    /// What went wrong (`failed`, and `retrying` for the error that caused it).
    public let errorDescription: String?
    /// A short label from the response, such as a server error code (see ``TagExtractor``).
    public let tag: String?
    /// The wait before the next attempt (`retrying` only).
    public let retryDelay: Duration?

    /// An event; the plugin creates these, tests and previews may too.
    public init(
        id: UInt64 = 0, requestID: RequestID, kind: Kind, timestamp: Date, attempt: Int = 1, method: HTTPMethod,
        url: String, path: String, statusCode: Int? = nil, duration: Duration? = nil, byteCount: Int64? = nil,
        headers: Headers = Headers(), bodyPreview: String? = nil, errorDescription: String? = nil, tag: String? = nil,
        retryDelay: Duration? = nil
    ) {
        self.id = id
        self.requestID = requestID
        self.kind = kind
        self.timestamp = timestamp
        self.attempt = attempt
        self.method = method
        self.url = url
        self.path = path
        self.statusCode = statusCode
        self.duration = duration
        self.byteCount = byteCount
        self.headers = headers
        self.bodyPreview = bodyPreview
        self.errorDescription = errorDescription
        self.tag = tag
        self.retryDelay = retryDelay
    }
}

/// Picks a short label out of a response for the log, such as the card server's `"errorCode": "E06"`.
public struct TagExtractor: Sendable {
    let extract: @Sendable (Response) -> String?

    /// An extractor from a closure; its result is cut to 32 characters and made terminal-safe.
    public init(_ extract: @escaping @Sendable (Response) -> String?) {
        self.extract = extract
    }

    /// The string (or number) value of the first JSON field called `name`, found by a byte scan
    /// (no parsing); by default only for responses with a status of 400 or more.
    public static func jsonField(_ name: String, onlyFailures: Bool = true) -> TagExtractor {
        let needle = Array("\"\(name)\"".utf8)
        return TagExtractor { response in
            if onlyFailures && response.statusCode < 400 { return nil }
            return response.body.withUnsafeBytes { raw -> String? in
                let bytes = raw.bindMemory(to: UInt8.self)
                guard let key = ByteSearch.firstRange(of: needle, in: bytes) else { return nil }
                var index = JSONRedactor.skipWhitespace(bytes, from: key.upperBound)
                guard index < bytes.count, bytes[index] == UInt8(ascii: ":") else { return nil }
                index = JSONRedactor.skipWhitespace(bytes, from: index + 1)
                let end = JSONRedactor.endOfValue(bytes, from: index)
                guard index < end, end - index <= 64 else { return nil }
                let token = bytes[index..<end]
                if token.first == UInt8(ascii: "\"") { return JSONRedactor.unescaped(token) }
                return String(decoding: token, as: UTF8.self)
            }
        }
    }
}
