public import Foundation
import NIOFoundationEssentialsCompat

/// How a provider stubs a target (Moya's stub closure): not at all, at once, or after a delay
/// measured on the provider's clock.
public enum StubBehavior: Sendable, Hashable {
    /// Send the request through the provider's transport.
    case never
    /// Answer at once with the stub response.
    case immediate
    /// Answer with the stub response after this long on the provider's clock.
    case delayed(Duration)
}

/// What a stub answers: a response (status, headers, body) or a failure.
public struct StubResponse: Sendable {
    enum Outcome: Sendable {
        case response(statusCode: Int, headers: Headers, body: Data)
        case transportFailure(TransportFailure.Kind, reason: String)
        case error(any Error)
    }

    let outcome: Outcome

    /// A response.
    public init(statusCode: Int = 200, headers: Headers = Headers(), body: Data = Data()) {
        outcome = .response(statusCode: statusCode, headers: headers, body: body)
    }

    /// A JSON response: `body` as UTF-8 with `Content-Type: application/json`.
    public static func json(_ body: String, statusCode: Int = 200, headers: Headers = Headers()) -> StubResponse {
        var headers = headers
        if !headers.contains("Content-Type") { headers["Content-Type"] = "application/json" }
        return StubResponse(statusCode: statusCode, headers: headers, body: Data(body.utf8))
    }

    /// A JSON response encoding `value` (keys sorted).
    ///
    /// - Throws: the encoder's error.
    public static func json(encoding value: some Encodable, statusCode: Int = 200, headers: Headers = Headers()) throws
        -> StubResponse
    {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return json(
            String(decoding: try encoder.encode(value), as: UTF8.self), statusCode: statusCode, headers: headers)
    }

    /// A failure below HTTP, as the live transport reports it, for example
    /// `.networkFailure(.cannotConnect, reason: "connection refused")`.
    public static func networkFailure(_ kind: TransportFailure.Kind, reason: String) -> StubResponse {
        StubResponse(outcome: .transportFailure(kind, reason: reason))
    }

    /// Fails with `error` (a ``NetworkError`` as it is; anything else as a transport failure).
    public static func failure(_ error: any Error) -> StubResponse {
        StubResponse(outcome: .error(error))
    }

    private init(outcome: Outcome) { self.outcome = outcome }

    /// The response to `request`, or the failure, as a transport would produce it.
    func resolve(for request: Request) async throws -> Response {
        switch outcome {
        case .response(let statusCode, let headers, let body):
            if let destination = request.downloadDestination, (200..<300).contains(statusCode) {
                let written = try await FileStreaming.write(
                    AsyncSingleChunk(chunk: .init(data: body)), to: destination)
                return Response(
                    statusCode: statusCode, headers: headers, request: request,
                    download: DownloadedFile(url: destination.url, byteCount: written))
            }
            return Response(statusCode: statusCode, headers: headers, body: body, request: request)
        case .transportFailure(let kind, let reason):
            throw NetworkError.transport(
                TransportFailure(kind: kind, request: request, reason: reason, underlying: nil))
        case .error(let error):
            throw error
        }
    }
}
