/// The envelope of every successful JSON response:
/// `{"status": 200, "success": true, "message": "…", "data": …}`.
public struct SuccessEnvelope<Payload: Codable & Sendable>: Codable, Sendable {
    public var status: Int
    public var success: Bool
    public var message: String
    public var data: Payload

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
    public var status: Int
    public var success: Bool
    public var errorCode: ErrorCode
    public var message: String
    public var fields: [String: String]?

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
    public init() {}
}
