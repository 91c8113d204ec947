import CardModels
import Foundation
import HTTPTypes
import Hummingbird

/// Builds JSON responses in the contract's envelopes.
enum JSONResponse {
    static let contentType = "application/json; charset=utf-8"

    /// `{"status": …, "success": true, "message": …, "data": …}`.
    static func success<Payload: Codable & Sendable>(
        _ data: Payload, status: HTTPResponse.Status = .ok, message: String = "OK", headers: HTTPFields = [:]
    ) -> Response {
        make(SuccessEnvelope(status: status.code, message: message, data: data), status: status, headers: headers)
    }

    /// Any encodable value as the body.
    static func make(_ value: some Encodable, status: HTTPResponse.Status, headers: HTTPFields = [:]) -> Response {
        var headers = headers
        headers[.contentType] = contentType
        let body: Data
        do {
            body = try CardWalletJSON.encoder().encode(value)
        } catch {
            // Our own types always encode; this only guards against a future mistake.
            let fallback = ErrorEnvelope(
                status: 500, errorCode: .internalError, message: "The response could not be encoded.")
            body = (try? CardWalletJSON.encoder().encode(fallback)) ?? Data()
            return Response(
                status: .internalServerError, headers: headers, body: .init(byteBuffer: ByteBuffer(bytes: body)))
        }
        return Response(status: status, headers: headers, body: .init(byteBuffer: ByteBuffer(bytes: body)))
    }
}

extension HTTPField.Name {
    /// `refreshToken`, the header `POST /auth/refresh` and `POST /auth/logout` read.
    static let refreshToken = HTTPField.Name(CardWalletHeader.refreshToken)!
}
