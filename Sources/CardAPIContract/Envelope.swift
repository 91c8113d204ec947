/// The envelope of every successful JSON response:
/// `{"status": 200, "success": true, "message": "…", "data": …}`.
public struct SuccessEnvelope<Payload: Codable & Sendable>: Codable, Sendable {
    /// The HTTP status, repeated.
    public var status: Int
    /// Always `true` here.
    public var success: Bool
    /// A short message for people.
    public var message: String
    /// The payload.
    public var data: Payload

    /// Creates a success envelope.
    public init(status: Int = 200, message: String = "OK", data: Payload) {
        self.status = status
        self.success = true
        self.message = message
        self.data = data
    }
}

extension SuccessEnvelope: Equatable where Payload: Equatable {}

/// The envelope of every failed JSON response:
/// `{"status": 401, "success": false, "errorCode": "E04", "message": "…", "fields": {…}}`.
///
/// `fields` is present only for validation errors (E01): field name → problem.
public struct ErrorEnvelope: Codable, Sendable, Equatable, Error {
    /// The HTTP status, repeated.
    public var status: Int
    /// Always `false` here.
    public var success: Bool
    /// The contract error code the client acts on.
    public var errorCode: ErrorCode
    /// A message for people; never act on its text.
    public var message: String
    /// Field name → problem, for validation errors (E01) only.
    public var fields: [String: String]?

    /// Creates an error envelope.
    public init(status: Int, errorCode: ErrorCode, message: String, fields: [String: String]? = nil) {
        self.status = status
        self.success = false
        self.errorCode = errorCode
        self.message = message
        self.fields = fields
    }
}

/// An empty `data` payload, encoded as `{}`, for responses that carry nothing but the envelope.
public struct EmptyPayload: Codable, Sendable, Equatable {
    /// Creates the empty payload.
    public init() {}
}
