import CardAPIContract
import CardBackend
import CardModels
import Foundation
import Networking
import TokenStore

/// The one place that judges answers: a success envelope gives its `data`; every failure —
/// an error status, a transport failure, an interceptor's error, a body that does not decode —
/// becomes a ``CardAPIError``.
struct ResponseJudge: Sendable {
    /// The base URL in use, named by connection errors.
    let server: String
    /// The contract's decoder, made once (decoders are reusable and thread-safe).
    let decoder: JSONDecoder

    init(server: String, decoder: JSONDecoder = CardWalletJSON.decoder()) {
        self.server = server
        self.decoder = decoder
    }

    /// The `data` of a success envelope, decoded in one pass.
    func data<Payload: Codable & Sendable>(
        _ type: Payload.Type, from response: Response
    ) throws(CardAPIError) -> Payload {
        do {
            return try decoder.decode(SuccessEnvelope<Payload>.self, from: response.body).data
        } catch {
            throw unexpected(Payload.self, in: response)
        }
    }

    /// The image bytes of `GET /card/{cardId}/image`, the one answer that is not an envelope.
    func image(from response: Response) throws(CardAPIError) -> CardImage {
        let declared = response.headers["Content-Type"] ?? ""
        let sniffed = CardImageFormat(sniffing: response.body.prefix(8))
        guard sniffed != nil || CardImageFormat(contentType: declared) != nil else {
            throw .unexpectedResponse(
                UnexpectedResponse(
                    statusCode: response.statusCode, request: Self.name(of: response.request), expected: "image",
                    detail: "it is “\(Untrusted.text(declared, hiding: [], limit: 100))”, not a PNG or JPEG image."))
        }
        return CardImage(
            data: response.body, contentType: sniffed?.contentType ?? declared, format: sniffed,
            revision: response.headers["ETag"].flatMap(EntityTag.version(from:)).map(CardRevision.init))
    }

    /// The error for a failed exchange.
    ///
    /// - Parameters:
    ///   - error: what the provider threw.
    ///   - secrets: values to hide from the server's text besides the request's tokens.
    func error(from error: NetworkError, secrets: [String] = []) -> CardAPIError {
        Translator(server: server, secrets: secrets).translate(error)
    }

    /// What each of the networking core's failures means to the card API (the one switch is
    /// Networking's ``Networking/NetworkErrorTranslator``, shared with CardDAV).
    struct Translator: NetworkErrorTranslator {
        let server: String
        let secrets: [String]

        func status(_ response: Response) -> CardAPIError {
            .server(ServerError(response: response, secrets: secrets))
        }

        func cannotConnect(_ failure: TransportFailure, reason: String) -> CardAPIError {
            .cannotConnect(server: server, endpoint: failure.endpoint, reason: reason)
        }

        func timedOut(_ failure: TransportFailure) -> CardAPIError {
            .timedOut(url: failure.url, reason: failure.reason)
        }

        func connectionFailed(_ failure: TransportFailure) -> CardAPIError {
            .connectionFailed(url: failure.url, reason: failure.reason)
        }

        /// Not a network failure to retry: no answer of the card API comes near the limit.
        func tooLarge(_ failure: TransportFailure) -> CardAPIError {
            .unexpectedResponse(
                UnexpectedResponse(
                    statusCode: failure.statusCode ?? 200,
                    request: [failure.method?.rawValue, URL(string: failure.url)?.path]
                        .compactMap { $0 }.joined(separator: " "),
                    expected: "JSON",
                    detail: "it is larger than cardwallet accepts (every answer of the card API is far "
                        + "smaller), so cardwallet stopped reading it."))
        }

        func decoding(_ failure: DecodingFailure) -> CardAPIError {
            .unexpectedResponse(ResponseJudge.unexpected(failure))
        }

        func interceptor(_ error: any Error) -> CardAPIError { ResponseJudge.error(from: error) }
        func invalidRequest(_ message: String) -> CardAPIError { .invalidRequest(message) }
        var cancelled: CardAPIError { .cancelled }
    }

    /// Any error thrown on the way (by the session, the token store, a task) as a ``CardAPIError``.
    static func error(from error: any Error) -> CardAPIError {
        switch error {
        case let error as CardAPIError: error
        case let error as TokenStoreError: .tokenStore(error)
        case is CancellationError: .cancelled
        case let error as NetworkError where error.isCancelled: .cancelled
        default: .invalidRequest(TerminalText.escaped(String(describing: error)))
        }
    }

    private func unexpected<Payload: Codable & Sendable>(_ type: Payload.Type, in response: Response) -> CardAPIError {
        // Decode again through Networking only to describe the failure: it names the key path
        // and gives a redacted excerpt. The fast path above never pays for this.
        do {
            _ = try response.decode(SuccessEnvelope<Payload>.self, using: decoder)
        } catch {
            if case .decoding(let failure) = error {
                var unexpected = Self.unexpected(failure)
                unexpected.expected = Self.contractName(Payload.self)
                return .unexpectedResponse(unexpected)
            }
        }
        return .unexpectedResponse(
            UnexpectedResponse(
                statusCode: response.statusCode, request: Self.name(of: response.request),
                expected: Self.contractName(Payload.self), detail: "it could not be read."))
    }

    /// The name the contract gives a payload (`Card`, `CardPage`), not the Swift type's
    /// (`APICard`): what people read in docs/API.md.
    static func contractName(_ type: Any.Type) -> String {
        contractName(String(describing: type))
    }

    static func contractName(_ name: String) -> String {
        name.replacingOccurrences(of: "APICard", with: "Card")
    }

    static func unexpected(_ failure: DecodingFailure) -> UnexpectedResponse {
        let place = failure.keyPath.isEmpty ? "" : " at “\(TerminalText.escaped(failure.keyPath))”"
        let body = failure.bodyExcerpt.isEmpty ? "The body is empty." : "The body begins: \(failure.bodyExcerpt)"
        return UnexpectedResponse(
            statusCode: failure.response.statusCode, request: name(of: failure.response.request),
            expected: contractName(failure.typeName), detail: "\(failure.reason)\(place). \(body)")
    }

    static func name(of request: Request) -> String { "\(request.method) \(request.path)" }
}
