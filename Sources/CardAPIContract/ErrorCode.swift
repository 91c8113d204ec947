import TextSafety

/// A server error code from the card API contract (`docs/API.md`).
///
/// Clients key their behaviour on the code, never on the message. The type is an open set:
/// a code this build does not know still decodes, keeps its raw value and reads as unknown.
public struct ErrorCode: RawRepresentable, Hashable, Sendable, Codable, CustomStringConvertible {
    /// The code as sent, e.g. `E04`.
    public let rawValue: String

    /// A code from its text; unknown codes are kept as they are.
    public init(rawValue: String) { self.rawValue = rawValue }

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

    /// Every code of the contract, in order.
    public static let allKnown: [ErrorCode] = [
        .badRequest, .loginFailed, .accessTokenInvalid, .accessTokenExpired, .cardNotFound,
        .refreshTokenExpired, .versionConflict, .payloadTooLarge, .unsupportedMediaType,
        .tooManyRequests, .internalError,
    ]

    /// Whether this build knows the code.
    public var isKnown: Bool { Self.allKnown.contains(self) }

    /// The HTTP status the contract pairs with this code, or `nil` for an unknown code.
    public var httpStatus: Int? {
        switch self {
        case .badRequest: 400
        case .loginFailed, .accessTokenInvalid, .accessTokenExpired, .refreshTokenExpired: 401
        case .cardNotFound: 404
        case .versionConflict: 412
        case .payloadTooLarge: 413
        case .unsupportedMediaType: 415
        case .tooManyRequests: 429
        case .internalError: 500
        default: nil
        }
    }

    /// A short, human summary of what the code means.
    public var summary: String {
        switch self {
        case .badRequest: "malformed request or validation failed"
        case .loginFailed: "wrong email or password"
        case .accessTokenInvalid: "access token missing, malformed or unknown"
        case .accessTokenExpired: "access token expired"
        case .cardNotFound: "no such card"
        case .refreshTokenExpired: "session expired; log in again"
        case .versionConflict: "the card changed since you read it"
        case .payloadTooLarge: "upload too large"
        case .unsupportedMediaType: "unsupported media type"
        case .tooManyRequests: "too many requests"
        case .internalError: "internal server error"
        default: "unknown error code \(description)"
        }
    }

    /// The code as it may be shown, e.g. `E04`: a code from the server is untrusted text, so
    /// control characters are escaped (``TerminalText/escaped(_:)``) and a code longer than
    /// ``maximumShownLength`` characters is cut, ending in `…`.
    public var description: String {
        if rawValue.utf8.count <= Self.maximumShownLength, TerminalText.isPrintableASCII(rawValue) { return rawValue }
        let shown = rawValue.count > Self.maximumShownLength ? rawValue.prefix(Self.maximumShownLength) + "…" : rawValue
        return TerminalText.escaped(shown)
    }

    /// The most characters of a code ``description`` shows; the contract's codes have three.
    public static let maximumShownLength = 16

    /// Decodes a code from a JSON string.
    public init(from decoder: any Decoder) throws {
        rawValue = try decoder.singleValueContainer().decode(String.self)
    }

    /// Encodes the code as a JSON string.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(rawValue)
    }
}
