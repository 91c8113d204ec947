import CardModels
import Hummingbird

/// A failure answered with the contract's error envelope:
/// `{"status": 401, "success": false, "errorCode": "E04", "message": "…", "fields": {…}}`.
///
/// Every error a route, a middleware or the router raises ends up as one of these, so no client
/// ever sees Hummingbird's default error bodies.
struct APIError: Error, HTTPResponseError, Sendable, CustomStringConvertible {
    var status: HTTPResponse.Status
    var code: ErrorCode
    var message: String
    var fields: [String: String]?
    var headers: HTTPFields = [:]

    init(_ code: ErrorCode, status: HTTPResponse.Status? = nil, message: String, fields: [String: String]? = nil) {
        self.code = code
        self.status = status ?? HTTPResponse.Status(code: code.httpStatus ?? 500)
        self.message = message
        self.fields = fields?.isEmpty == true ? nil : fields
        if self.status == .unauthorized {
            headers[.wwwAuthenticate] = #"Bearer error="invalid_token""#
        }
    }

    var envelope: ErrorEnvelope {
        ErrorEnvelope(status: status.code, errorCode: code, message: message, fields: fields)
    }

    var description: String { "\(code.rawValue) (\(status.code)): \(message)" }

    func response(from request: Request, context: some RequestContext) throws -> Response {
        response()
    }

    /// The envelope response, with this error's extra headers.
    func response() -> Response {
        JSONResponse.make(envelope, status: status, headers: headers)
    }

    // MARK: The contract's errors

    /// E01 (400): malformed request or failed validation; `fields` names each bad field.
    static func badRequest(_ message: String, fields: [String: String]? = nil) -> APIError {
        APIError(.badRequest, message: message, fields: fields)
    }

    /// E01 with another 4xx status: 404 for an unknown route, 405 for a wrong method, 428 for
    /// a missing `If-Match`.
    static func badRequest(status: HTTPResponse.Status, _ message: String, fields: [String: String]? = nil) -> APIError
    {
        APIError(.badRequest, status: status, message: message, fields: fields)
    }

    /// E01 with 422: an `Idempotency-Key` already used, within 24 hours, for another request
    /// (other card fields or image) of the same account.
    static let idempotencyKeyReused = APIError(
        .badRequest, status: .unprocessableContent,
        message:
            "This Idempotency-Key was used for another card in the last 24 hours; make a new key for a new card.",
        fields: [IdempotencyKey.headerName: "was used for another request"])

    /// E01: an `Idempotency-Key` that is not a key.
    static let badIdempotencyKey = APIError.badRequest(
        "The Idempotency-Key must be a string of 1 to \(IdempotencyKey.maximumLength) visible ASCII characters other than \" and \\ (a UUID, say).",
        fields: [IdempotencyKey.headerName: "is not a key"])

    /// E02 (401): wrong email or password. Never says which.
    static let loginFailed = APIError(.loginFailed, message: "The email or password is wrong.")

    /// E03 (401): access token missing, malformed, unknown or revoked.
    static func accessTokenInvalid(_ message: String) -> APIError {
        APIError(.accessTokenInvalid, message: message)
    }

    /// E04 (401): access token expired.
    static let accessTokenExpired = APIError(
        .accessTokenExpired, message: "The access token has expired; refresh it and retry.")

    /// E05 (404): no such card — also for another user's card, with the same message.
    static let cardNotFound = APIError(.cardNotFound, message: "There is no such card.")

    /// E06 (401): refresh token expired, revoked, reused or unknown: log in again.
    static func refreshRejected(_ message: String) -> APIError {
        APIError(.refreshTokenExpired, message: message)
    }

    /// E07 (412): `If-Match` does not name the current version.
    static func versionConflict(current: Int) -> APIError {
        var error = APIError(
            .versionConflict,
            message: "The card changed since you read it: it is now at version \(current). Nothing was changed.")
        error.headers[.eTag] = EntityTag.make(version: current)
        return error
    }

    /// E08 (413): body or image too large.
    static func payloadTooLarge(_ message: String) -> APIError {
        APIError(.payloadTooLarge, message: message)
    }

    /// E09 (415): wrong content type, or an image that is not PNG or JPEG.
    static func unsupportedMediaType(_ message: String) -> APIError {
        APIError(.unsupportedMediaType, message: message)
    }

    /// E10 (429) with `Retry-After` in whole seconds.
    static func tooManyRequests(_ message: String, retryAfter: Int) -> APIError {
        var error = APIError(.tooManyRequests, message: message + " Try again in \(retryAfter) s.")
        error.headers[.retryAfter] = String(retryAfter)
        return error
    }

    /// E99 (500): something broke on the server.
    static func internalError(_ message: String) -> APIError {
        APIError(.internalError, message: message)
    }

    /// E99 with 503: a failure injected by `--fail-rate`, with `Retry-After: 1`.
    static var injectedFailure: APIError {
        var error = APIError(
            .internalError, status: .serviceUnavailable,
            message: "Service unavailable (a failure injected by --fail-rate). Try again.")
        error.headers[.retryAfter] = "1"
        return error
    }
}
