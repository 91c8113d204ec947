import TextSafety

/// A server error code from the card API contract (`docs/API.md`).
///
/// Clients key their behaviour on the code, never on the message. The type is an open set:
/// a code this build does not know still decodes, keeps its raw value and reads as unknown.
/// The codes the contract defines, and what each means, are the rows of ``table``
/// (`ErrorCode+Table.swift`).
public struct ErrorCode: RawRepresentable, Hashable, Sendable, Codable, CustomStringConvertible {
    /// The code as sent, e.g. `E04`.
    public let rawValue: String

    /// A code from its text; unknown codes are kept as they are.
    public init(rawValue: String) { self.rawValue = rawValue }

    /// The contract's row for this code (``table``), or `nil` for a code this build does not know.
    public var row: ErrorCodeRow? { Self.rows[self] }

    private static let rows: [ErrorCode: ErrorCodeRow] = Dictionary(
        table.map { ($0.code, $0) }, uniquingKeysWith: { first, _ in first })

    /// Every code of the contract, in order.
    public static var allKnown: [ErrorCode] { table.map(\.code) }

    /// Whether this build knows the code.
    public var isKnown: Bool { row != nil }

    /// The HTTP status the contract pairs with this code, or `nil` for an unknown code.
    public var httpStatus: Int? { row?.httpStatus }

    /// A short, human summary of what the code means.
    public var summary: String { row?.summary ?? "unknown error code \(description)" }

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
