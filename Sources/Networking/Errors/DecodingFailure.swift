import Foundation
import NIOCore
import TextSafety

/// A body that could not be decoded as the expected type.
public struct DecodingFailure: Error, Sendable, CustomStringConvertible {
    /// The type that was expected, for example `CardList`.
    public let typeName: String
    /// Where in the JSON it failed, for example `data.cards[2].name`; empty for the root.
    public let keyPath: String
    /// What was wrong there, for example `the key is missing`.
    public let reason: String
    /// The start of the body, redacted and with control characters escaped.
    public let bodyExcerpt: String
    /// The response whose body failed to decode.
    public let response: Response
    /// The decoder's error.
    public let underlying: any Error

    init(type: Any.Type, keyPath requested: [String], error: any Error, response: Response) {
        self.typeName = String(describing: type)
        self.response = response
        self.underlying = error
        var path = requested
        var reason = "the body is not valid JSON"
        if let error = error as? DecodingError {
            switch error {
            case .keyNotFound(let key, let context):
                path = Self.keys(context.codingPath + [key])
                reason = "the key is missing"
            case .typeMismatch(let expected, let context):
                path = Self.keys(context.codingPath)
                reason = "expected \(expected), found something else"
            case .valueNotFound(let expected, let context):
                path = Self.keys(context.codingPath)
                reason = "expected \(expected), found null"
            case .dataCorrupted(let context):
                path = Self.keys(context.codingPath)
                reason = context.codingPath.isEmpty ? "the body is not valid JSON" : "the value is not valid"
            @unknown default:
                break
            }
        }
        self.keyPath = path.joined(separator: ".").replacingOccurrences(of: ".[", with: "[")
        self.reason = reason
        self.bodyExcerpt = Excerpt.of(response)
    }

    private static func keys(_ codingPath: [any CodingKey]) -> [String] {
        codingPath.compactMap { key in
            if let index = key.intValue { return "[\(index)]" }
            return key.stringValue
        }
    }

    /// A sentence saying what could not be read, where, and how the body begins.
    public var description: String {
        let request = response.request
        let location = keyPath.isEmpty ? "" : " at “\(keyPath)”"
        let body = bodyExcerpt.isEmpty ? "The body is empty." : "The body begins: \(bodyExcerpt)"
        let answer = "the answer to \(request.method) \(request.path) (status \(response.statusCode))"
        return "Could not read \(answer) as \(typeName)\(location): \(reason). \(body)"
    }
}

/// Short, redacted, terminal-safe excerpts of bodies for error descriptions.
enum Excerpt {
    static let limit = 200

    /// The start of `response`'s body, with sensitive fields hidden and any secret the request
    /// carried (a token, a password) scrubbed even where the server echoed it in a plain field.
    static func of(_ response: Response) -> String {
        guard !response.body.isEmpty else { return "" }
        let redaction = Redaction.default
        let previewer = BodyPreviewer(redaction: redaction, limit: limit)
        var secrets = redaction.secrets(of: response.request)
        redaction.collectSecrets(of: response.headers, into: &secrets)
        guard
            let preview = previewer.preview(
                response.body, contentType: response.headers["Content-Type"], secrets: &secrets)
        else {
            return ""
        }
        return TerminalText.escaped(preview)
    }
}

extension Redaction {
    /// The secret values `request` carries: sensitive headers, query values and, for an
    /// in-memory JSON or form body, sensitive fields.
    func secrets(of request: Request) -> [String] {
        guard isEnabled else { return [] }
        var secrets: [String] = []
        collectSecrets(of: request.headers, into: &secrets)
        _ = redact(url: request.url, collectingSecretsInto: &secrets)
        if !request.body.isEmpty, request.body.multipartPartCount == nil, let buffer = request.body.inMemoryBuffer {
            let previewer = BodyPreviewer(redaction: self, limit: min(buffer.readableBytes, 1 << 20))
            _ = previewer.preview(buffer, contentType: request.headers["Content-Type"], secrets: &secrets)
        }
        return secrets
    }
}
