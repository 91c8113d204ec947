public import Foundation

/// The key of the `Idempotency-Key` request header of `POST /card` (docs/API.md; the IETF
/// httpapi draft "The Idempotency-Key HTTP Header Field"): made once for a card to create and
/// sent with every attempt at it, so the server makes one card however often the request
/// arrives within ``lifetime``.
///
/// ```swift
/// let key = IdempotencyKey()                    // a fresh UUID
/// headers[IdempotencyKey.headerName] = key.headerValue   // "\"8E03978E-40D5-…\""
/// ```
public struct IdempotencyKey: Sendable, Hashable, CustomStringConvertible {
    /// `Idempotency-Key`.
    public static let headerName = "Idempotency-Key"
    /// The longest key, in characters.
    public static let maximumLength = 255
    /// How long a server keeps the first answer to a key: 24 hours.
    public static let lifetime: TimeInterval = 24 * 60 * 60

    /// The key itself.
    public let text: String

    /// A fresh random key: a UUID.
    public init() {
        text = UUID().uuidString
    }

    /// `text` as a key; `nil` unless it is 1 to ``maximumLength`` visible ASCII characters other
    /// than `"` and `\` (so that it is a structured-field string without escapes).
    public init?(_ text: String) {
        guard Self.isWellFormed(text) else { return nil }
        self.text = text
    }

    /// The key in a header's value: a structured-field string (`"…"`, RFC 8941) as the draft
    /// asks, or, leniently, the bare key (taken whole); `nil` for anything else (an empty,
    /// overlong or escaped string, a list of strings, a string with parameters).
    public init?(headerValue: String) {
        var value = Substring(headerValue)
        while value.first == " " || value.first == "\t" { value.removeFirst() }
        while value.last == " " || value.last == "\t" { value.removeLast() }
        if value.count >= 2, value.first == "\"", value.last == "\"" {
            value = value.dropFirst().dropLast()
        }
        self.init(String(value))
    }

    /// The header's value: the key as a structured-field string.
    public var headerValue: String { "\"\(text)\"" }

    /// The key.
    public var description: String { text }

    /// Whether `text` can be a key.
    public static func isWellFormed(_ text: String) -> Bool {
        let scalars = text.unicodeScalars
        guard !scalars.isEmpty, scalars.count <= maximumLength else { return false }
        return scalars.allSatisfy { (0x21...0x7E).contains($0.value) && $0 != "\"" && $0 != "\\" }
    }
}
