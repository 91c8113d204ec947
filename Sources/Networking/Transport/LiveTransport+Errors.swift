import AsyncHTTPClient
import Foundation
import NIOCore
import NIOHTTP1
import NIOPosix

/// Where an exchange was when it failed, so a timeout is described as what happened.
enum ExchangePhase {
    /// Connecting, sending, or waiting for the response head.
    case head
    /// The head arrived (with this status); the body was being read.
    case body(statusCode: Int)
}

extension LiveTransport {
    /// Turns AsyncHTTPClient and NIO errors into network errors a person can act on.
    static func networkError(
        for error: any Error, request: Request, configuration: Configuration, phase: ExchangePhase = .head
    ) -> NetworkError {
        if let error = error as? NetworkError { return error }
        if error is CancellationError || Task.isCancelled { return .cancelled }
        var statusCode: Int?
        if case .body(let status) = phase { statusCode = status }
        func failure(_ kind: TransportFailure.Kind, _ reason: String) -> NetworkError {
            .transport(
                TransportFailure(
                    kind: kind, request: request, reason: reason, underlying: error, statusCode: statusCode))
        }
        let limit = request.timeout ?? configuration.requestTimeout
        if error is BodyDeadlineExceeded {
            return failure(
                .timedOut,
                "the answer was still arriving after \(Self.seconds(limit)), the most this request may take "
                    + "(the server sends it too slowly)")
        }
        if let error = error as? HTTPClientError {
            switch error {
            case .cancelled, .requestStreamCancelled:
                return .cancelled
            case .connectTimeout, .tlsHandshakeTimeout, .getConnectionFromPoolTimeout:
                return failure(.connectTimedOut, "no connection within \(Self.seconds(configuration.connectTimeout))")
            case .readTimeout:
                // AsyncHTTPClient's read timer restarts on each parsed part of the answer, not
                // on each byte: a head that trickles in times out as one that never comes.
                let wait = Self.seconds(configuration.readTimeout)
                if case .body = phase { return failure(.timedOut, "the server sent no more of its answer for \(wait)") }
                return failure(.timedOut, "the server did not send a complete response header within \(wait)")
            case .deadlineExceeded:
                if case .body = phase {
                    return failure(.timedOut, "the answer was not complete within \(Self.seconds(limit))")
                }
                return failure(.timedOut, "no complete answer within \(Self.seconds(limit))")
            case .remoteConnectionClosed:
                return failure(.connectionLost, "the server closed the connection")
            case .bodyLengthMismatch:
                return .invalidRequest(
                    "The request body of \(request.method) \(request.path) was not the announced length; "
                        + "an upload file may have changed while it was sent."
                )
            case .invalidURL, .emptyHost, .emptyScheme:
                return .invalidRequest("The URL \(Redaction.default.redact(url: request.url)) is not a valid HTTP URL.")
            case .alreadyShutdown:
                return .invalidRequest("The transport was shut down; create a new LiveTransport to send more requests.")
            default:
                let text = String(describing: error)
                if text.contains("invalidHeaderField") {
                    // Never the error's own text: it quotes the header values, tokens included.
                    return .invalidRequest(
                        "\(request.method) \(request.path) was not sent: a request header holds characters HTTP does "
                            + "not allow in a header (a line break or another control character).")
                }
                if text.contains("unsupportedScheme") {
                    return .invalidRequest(
                        "The URL \(Redaction.default.redact(url: request.url)) does not use http or https.")
                }
                return failure(.other, String(describing: error))
            }
        }
        if let error = error as? NIOConnectionError {
            if error.dnsAError != nil || error.dnsAAAAError != nil {
                return failure(.cannotConnect, "could not find the host \(error.host)")
            }
            let reason = error.connectionErrors.first.map { Self.reason(for: $0.error) } ?? "no address to connect to"
            return failure(.cannotConnect, reason)
        }
        if let error = error as? IOError {
            switch error.errnoCode {
            case ECONNREFUSED, ENETUNREACH, EHOSTUNREACH, EADDRNOTAVAIL:
                return failure(.cannotConnect, Self.reason(for: error))
            case ECONNRESET, EPIPE, ECONNABORTED:
                return failure(.connectionLost, Self.reason(for: error))
            default:
                return failure(.other, Self.reason(for: error))
            }
        }
        if let error = error as? ChannelError {
            switch error {
            case .connectTimeout:
                return failure(.connectTimedOut, "no connection within \(Self.seconds(configuration.connectTimeout))")
            case .ioOnClosedChannel, .outputClosed, .eof, .alreadyClosed:
                return failure(.connectionLost, "the connection closed")
            default:
                return failure(.other, String(describing: error))
            }
        }
        if let error = error as? HTTPParserError {
            return failure(
                .other,
                "the answer is not valid HTTP (\(error)); check that the address and port are those of the HTTP server")
        }
        if let reason = tlsFailureReason(error, request: request) { return failure(.cannotConnect, reason) }
        if error is NIOTooManyBytesError {
            return failure(
                .responseTooLarge,
                "it is larger than \(ByteCountText.format(Int64(configuration.maximumResponseBodySize))), "
                    + "the most this transport keeps in memory (a download to a file has no such limit)"
            )
        }
        return failure(.other, String(describing: error))
    }

    /// A sentence for a TLS failure (NIOSSL's errors are recognised by name: Networking does not
    /// link NIOSSL itself), or `nil` when `error` is not one. Never the raw error: it can hold
    /// source paths and internal codes.
    private static func tlsFailureReason(_ error: any Error, request: Request) -> String? {
        let typeName = String(reflecting: type(of: error))
        guard typeName.hasPrefix("NIOSSL.") || typeName.contains("BoringSSL") else { return nil }
        let text = String(describing: error)
        if text.contains("WRONG_VERSION_NUMBER") || text.contains("HTTP_REQUEST") {
            let plain = request.url.scheme == "https" ? "; for a server without TLS use an http:// address" : ""
            return "the secure (TLS) connection failed: the server does not speak TLS on that port\(plain)"
        }
        if text.contains("CERTIFICATE") || text.contains("certificate") {
            return "the secure (TLS) connection failed: the server's certificate is not trusted or does not match "
                + "the host name"
        }
        return "the secure (TLS) connection failed"
    }

    private static func reason(for error: any Error) -> String {
        guard let error = error as? IOError else { return String(describing: error) }
        switch error.errnoCode {
        case ECONNREFUSED: return "connection refused"
        case ENETUNREACH: return "network unreachable"
        case EHOSTUNREACH: return "host unreachable"
        case EADDRNOTAVAIL: return "address not available"
        case ECONNRESET: return "connection reset by the server"
        case EPIPE: return "the server stopped reading"
        case ECONNABORTED: return "connection aborted"
        case ETIMEDOUT: return "timed out"
        default: return String(cString: strerror(error.errnoCode)).lowercased()
        }
    }

    static func seconds(_ duration: Duration) -> String {
        let milliseconds = duration.components.seconds * 1000 + duration.components.attoseconds / 1_000_000_000_000_000
        if milliseconds % 1000 == 0 { return "\(milliseconds / 1000) s" }
        return "\(milliseconds) ms"
    }
}
