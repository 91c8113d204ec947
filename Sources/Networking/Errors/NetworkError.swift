import Foundation
import TextSafety

/// Why a request failed. Every case has a description a person can act on, and none contains a
/// secret: URLs are shown with sensitive query values hidden, body excerpts are redacted.
///
/// Errors thrown by an ``Interceptor``'s `adapt` or `retry` (a failed token refresh, say) reach
/// the caller as ``interceptor(_:)`` holding the original error value, unchanged:
///
/// ```swift
/// do { _ = try await provider.request(.cards) }
/// catch .interceptor(let error as SessionError) where error == .sessionExpired { showLogin() }
/// ```
public enum NetworkError: Error, Sendable {
    /// The request could not be built or sent as described: bad URL, body encoding, unreadable
    /// upload file, unwritable download destination.
    case invalidRequest(String)
    /// The exchange failed below HTTP: cannot connect, timed out, connection lost….
    case transport(TransportFailure)
    /// The server answered with a status the target's ``Validation`` rejects; the whole response
    /// (status, headers, body) is kept.
    case unacceptableStatus(Response)
    /// The body could not be decoded as the expected type.
    case decoding(DecodingFailure)
    /// An interceptor threw this error (unchanged) while adapting or deciding to retry.
    case interceptor(any Error)
    /// The calling task was cancelled; the in-flight exchange was cancelled too.
    case cancelled

    /// The response, for ``unacceptableStatus(_:)`` and ``decoding(_:)``.
    public var response: Response? {
        switch self {
        case .unacceptableStatus(let response): response
        case .decoding(let failure): failure.response
        default: nil
        }
    }

    /// The status code, when a response arrived.
    public var statusCode: Int? { response?.statusCode }

    /// The error underneath: the transport's, the decoder's or the interceptor's.
    public var underlyingError: (any Error)? {
        switch self {
        case .transport(let failure): failure.underlying
        case .decoding(let failure): failure.underlying
        case .interceptor(let error): error
        default: nil
        }
    }

    /// Whether this is ``cancelled``.
    public var isCancelled: Bool {
        if case .cancelled = self { true } else { false }
    }

    /// Maps any error from a transport or interceptor step to a network error.
    static func wrapping(_ error: any Error, request: Request?) -> NetworkError {
        switch error {
        case let error as NetworkError: error
        case is CancellationError: .cancelled
        default:
            .transport(
                TransportFailure(kind: .other, request: request, reason: String(describing: error), underlying: error))
        }
    }
}

/// A failure below HTTP, with where it happened.
public struct TransportFailure: Error, Sendable, CustomStringConvertible {
    /// What went wrong.
    public enum Kind: Sendable, Hashable {
        /// No connection could be made (refused, unreachable, unknown host).
        case cannotConnect
        /// Connecting took longer than the connect timeout.
        case connectTimedOut
        /// The server did not answer (or finish answering) in time.
        case timedOut
        /// The connection closed or reset mid-exchange.
        case connectionLost
        /// The response body is larger than the transport accepts.
        case responseTooLarge
        /// Anything else.
        case other
    }

    /// What went wrong.
    public let kind: Kind
    /// The method, when known.
    public let method: HTTPMethod?
    /// The URL, with sensitive query values hidden.
    public let url: String
    /// `host:port`, when known.
    public let endpoint: String
    /// A short, lower-case reason such as `connection refused`: terminal-safe, and without
    /// any secret the request carried (in any form: raw, escaped, percent-encoded), even when
    /// the underlying error quotes a header value.
    public let reason: String
    /// The error the transport reported. Its own text may quote the request's headers: show
    /// ``reason`` or ``description`` instead.
    public let underlying: (any Error)?
    /// The response's status, when its head had arrived before the failure (a body that broke
    /// off, was too large or too slow).
    public let statusCode: Int?

    /// A failure of `request` (or of no request in particular).
    public init(kind: Kind, request: Request?, reason: String, underlying: (any Error)?, statusCode: Int? = nil) {
        self.kind = kind
        self.method = request?.method
        self.url = request.map { Redaction.default.redact(url: $0.url) } ?? ""
        if let url = request?.url, let host = url.host() {
            let port = url.port ?? (url.scheme == "https" ? 443 : 80)
            self.endpoint = "\(host):\(port)"
        } else {
            self.endpoint = "the server"
        }
        let secrets = request.map { Redaction.default.secrets(of: $0) } ?? []
        self.reason = TerminalText.escaped(Scrubber.scrub(reason, secrets: secrets))
        self.underlying = underlying
        self.statusCode = statusCode
    }

    /// A sentence saying what failed and what to try.
    public var description: String {
        let exchange = [method?.rawValue, url.isEmpty ? nil : url].compactMap { $0 }.joined(separator: " ")
        switch kind {
        case .cannotConnect:
            let hint = reason.contains("refused") ? " Is the server running?" : " Check the address and your network."
            return "Could not connect to \(endpoint): \(reason).\(hint)"
        case .connectTimedOut:
            return "Timed out connecting to \(endpoint). Check the address and your network, then try again."
        case .timedOut:
            return "\(exchange) timed out: \(reason). Try again, or allow a longer timeout."
        case .connectionLost:
            return "The connection to \(endpoint) was lost during \(exchange) (\(reason)). Try again."
        case .responseTooLarge:
            return "The response to \(exchange) is too large: \(reason)."
        case .other:
            return "\(exchange) failed: \(reason)."
        }
    }
}
