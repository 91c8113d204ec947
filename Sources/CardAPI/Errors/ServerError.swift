import CardAPIContract
import CardBackend
import CardModels
import Foundation
import Networking

/// An error answer from the server: its status, the contract's error code, its message and
/// field problems, and how long it asked to wait.
///
/// Text that came from the server (`message`, `fields`) has control characters escaped and any
/// token or password the request carried replaced by `<private>`, so it is safe to print.
public struct ServerError: Sendable, Equatable {
    /// The HTTP status.
    public var statusCode: Int
    /// The error code (`E01`…`E99`, or one this build does not know), or `nil` when the body
    /// was not the API's JSON.
    public var code: ErrorCode?
    /// The server's message for people (terminal-safe); for a body that is not the API's JSON,
    /// a sentence describing the body.
    public var message: String
    /// Field name → problem, for validation errors (E01); terminal-safe.
    public var fields: [String: String]
    /// `Retry-After` in whole seconds, when the server sent it.
    public var retryAfter: Duration?
    /// The method and path, e.g. `GET /v1/card/abc`.
    public var request: String

    /// A server error.
    public init(
        statusCode: Int, code: ErrorCode?, message: String, fields: [String: String] = [:],
        retryAfter: Duration? = nil, request: String = ""
    ) {
        self.statusCode = statusCode
        self.code = code
        self.message = message
        self.fields = fields
        self.retryAfter = retryAfter
        self.request = request
    }

    /// Whether the server has no such endpoint (404 E01 without field problems): the request
    /// went to a path the API does not have, which almost always means the server address is
    /// not the API's base URL (it usually ends in `/v1`).
    public var isUnknownEndpoint: Bool {
        code == .badRequest && statusCode == 404 && fields.isEmpty
    }

    /// The error a failed response carries.
    ///
    /// - Parameters:
    ///   - response: the response, with the request that got it.
    ///   - secrets: values to hide from the server's text besides the tokens the request carried
    ///     (for example the password of a login).
    init(response: Response, secrets extra: [String] = []) {
        statusCode = response.statusCode
        request = "\(response.request.method) \(response.request.path)"
        retryAfter = Self.retryAfter(in: response)
        let secrets = Self.secrets(of: response.request) + extra
        if let envelope = Self.envelope(in: response) {
            code = envelope.errorCode
            message = Untrusted.text(envelope.message, hiding: secrets)
            var fields: [String: String] = [:]
            for (name, problem) in envelope.fields ?? [:] {
                fields[Untrusted.text(name, hiding: secrets, limit: 64)] = Untrusted.text(problem, hiding: secrets)
            }
            self.fields = fields
        } else {
            code = nil
            fields = [:]
            // Networking's description redacts and scrubs the body excerpt and escapes it.
            message = NetworkError.unacceptableStatus(response).description
        }
    }

    /// The error code of a failed response, read without building a whole ``ServerError``.
    static func code(in response: Response) -> ErrorCode? {
        envelope(in: response)?.errorCode
    }

    private static let decoder = CardWalletJSON.decoder()

    private static func envelope(in response: Response) -> ErrorEnvelope? {
        guard !response.body.isEmpty else { return nil }
        return try? decoder.decode(ErrorEnvelope.self, from: response.body)
    }

    /// `Retry-After` as whole seconds: a number of seconds, or an HTTP date (RFC 9110), which
    /// is measured from the response's own `Date` header when it has one (so the two clocks
    /// need not agree) and from now otherwise, rounded up; a date in the past is no wait.
    static func retryAfter(in response: Response, now: Date = Date()) -> Duration? {
        response.retryAfter(now: now)
    }

    /// The bearer tokens a request carried in `Authorization` or `refreshToken`.
    static func secrets(of request: Request) -> [String] {
        [request.headers["Authorization"], request.headers[CardWalletHeader.refreshToken]].compactMap { value in
            guard let value else { return nil }
            return Untrusted.bearerToken(value) ?? value
        }
    }
}

/// Text from outside (the server) made safe to show: secrets hidden, control characters
/// escaped, length capped.
enum Untrusted {
    static func text(_ text: String, hiding secrets: [String], limit: Int = 500) -> String {
        // Every form of a secret (raw, escaped, percent-encoded, its long plain runs), before
        // the text is cut, so no part of one survives the cut.
        var text = Redaction.scrub(text, hiding: secrets)
        if text.count > limit { text = String(text.prefix(limit)) + "…" }
        return TerminalText.escaped(text)
    }

    /// The token in `Bearer <token>`, or `nil` when the value has another form.
    static func bearerToken(_ value: String) -> String? {
        let parts = value.split(separator: " ", maxSplits: 1)
        guard parts.count == 2, parts[0].lowercased() == "bearer" else { return nil }
        let token = parts[1].trimmingCharacters(in: .whitespaces)
        return token.isEmpty ? nil : token
    }
}
