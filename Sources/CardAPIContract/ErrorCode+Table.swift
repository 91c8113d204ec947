extension ErrorCode {
    /// Malformed request or validation failed (400).
    public static let badRequest = ErrorCode(rawValue: "E01")
    /// Login failed: wrong email or password (401).
    public static let loginFailed = ErrorCode(rawValue: "E02")
    /// Access token missing, malformed or unknown (401).
    public static let accessTokenInvalid = ErrorCode(rawValue: "E03")
    /// Access token expired (401).
    public static let accessTokenExpired = ErrorCode(rawValue: "E04")
    /// No such card, or not yours (404).
    public static let cardNotFound = ErrorCode(rawValue: "E05")
    /// Refresh token expired, revoked or reused (401).
    public static let refreshTokenExpired = ErrorCode(rawValue: "E06")
    /// The card changed since it was read: `If-Match` mismatch (412).
    public static let versionConflict = ErrorCode(rawValue: "E07")
    /// Upload too large (413).
    public static let payloadTooLarge = ErrorCode(rawValue: "E08")
    /// Unsupported media type, or the image is not PNG/JPEG (415).
    public static let unsupportedMediaType = ErrorCode(rawValue: "E09")
    /// Too many requests; see `Retry-After` (429).
    public static let tooManyRequests = ErrorCode(rawValue: "E10")
    /// Internal error (500).
    public static let internalError = ErrorCode(rawValue: "E99")

    /// The contract's codes, one row each, in order (docs/API.md): the mock server's statuses,
    /// the client's messages and the failure kind above the backend seam all read it. A new code
    /// is a constant above and a row here (docs/Architecture.md, *How to add an error code*).
    public static let table: [ErrorCodeRow] = [
        ErrorCodeRow(
            .badRequest, status: 400, "malformed request or validation failed", meaning: .invalid,
            advice: { "The server refused the request as invalid (\($0))." }),
        ErrorCodeRow(
            .loginFailed, status: 401, "wrong email or password", meaning: .loginFailed,
            advice: { "Wrong email or password (\($0)). Check both and try again." }),
        ErrorCodeRow(
            .accessTokenInvalid, status: 401, "access token missing, malformed or unknown", meaning: .accessRefused,
            advice: { "The server did not accept the access token (\($0)). Log in again." }),
        ErrorCodeRow(
            .accessTokenExpired, status: 401, "access token expired", meaning: .accessRefused,
            advice: { "The access token has expired (\($0)) and could not be renewed. Log in again." }),
        ErrorCodeRow(
            .cardNotFound, status: 404, "no such card", meaning: .notFound,
            advice: { "No such card (\($0)): it does not exist, was deleted, or is not yours. Reload the list." }),
        ErrorCodeRow(
            .refreshTokenExpired, status: 401, "session expired; log in again", meaning: .sessionEnded,
            advice: { "The session has ended (\($0)): the refresh token expired or was revoked. Log in again." }),
        ErrorCodeRow(
            .versionConflict, status: 412, "the card changed since you read it", meaning: .conflict,
            advice: { "The card changed since you read it (\($0)). Reload it, then apply your changes again." }),
        ErrorCodeRow(
            .payloadTooLarge, status: 413, "upload too large", meaning: .tooLarge,
            advice: { "The upload is too large (\($0))." }),
        ErrorCodeRow(
            .unsupportedMediaType, status: 415, "unsupported media type", meaning: .unsupportedMedia,
            advice: { "The server does not accept this content (\($0)). Card images must be PNG or JPEG files." }),
        ErrorCodeRow(
            .tooManyRequests, status: 429, "too many requests", meaning: .rateLimited,
            advice: { "Too many requests (\($0)). Try again in a moment." }),
        ErrorCodeRow(
            .internalError, status: 500, "internal server error", meaning: .serverFailure,
            advice: { "The server failed (\($0)). Try again later." }),
    ]
}

/// One row of ``ErrorCode/table``: what the contract says about a code.
public struct ErrorCodeRow: Sendable {
    /// The code.
    public let code: ErrorCode
    /// The HTTP status the contract pairs with it.
    public let httpStatus: Int
    /// A short, human summary of what it means (the log pane's).
    public let summary: String
    /// What a client makes of it.
    public let meaning: ErrorMeaning
    /// The client's sentence for it, given the code as shown (`E05`): what failed and what to
    /// do. (E01, E08, E10 and E99 say more, from the answer: the client's `ServerError`.)
    public let advice: @Sendable (String) -> String

    /// A row.
    public init(
        _ code: ErrorCode, status: Int, _ summary: String, meaning: ErrorMeaning,
        advice: @escaping @Sendable (String) -> String
    ) {
        self.code = code
        self.httpStatus = status
        self.summary = summary
        self.meaning = meaning
        self.advice = advice
    }
}

/// What a client makes of an error code: the card API's client decides its failure kind above
/// the backend seam from this alone.
public enum ErrorMeaning: Sendable, Equatable {
    /// The request or its values were refused; the answer's `fields` name the problems.
    case invalid
    /// The credentials given to log in were refused.
    case loginFailed
    /// The access token was refused (refresh it, else log in again).
    case accessRefused
    /// The session is over: log in again.
    case sessionEnded
    /// No such card.
    case notFound
    /// The card changed since it was read.
    case conflict
    /// The upload is too large.
    case tooLarge
    /// The content (an image) is of a kind the server does not take.
    case unsupportedMedia
    /// Too many requests: wait (`Retry-After`).
    case rateLimited
    /// The server failed.
    case serverFailure
}
