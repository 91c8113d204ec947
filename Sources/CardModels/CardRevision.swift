/// The revision of a card as its server hands it out: the card API's version number, a CardDAV
/// server's `ETag`. Opaque: two revisions are only ever compared for equality, never ordered.
/// Freshness comes from when the server last confirmed a card, not from its revision.
///
/// The card API's integer versions keep their form: `CardRevision(7)` is `"7"`, and the card's
/// JSON writes it as the number `7` (``Card``'s `version` key), as it always did.
public struct CardRevision: RawRepresentable, Hashable, Sendable, Codable, CustomStringConvertible {
    /// The revision as the server gave it (an `ETag` keeps its quotes: `"6f1c…"`).
    public let rawValue: String

    /// A revision from its text.
    public init(rawValue: String) { self.rawValue = rawValue }

    /// The card API's version `number`.
    public init(_ number: Int) { self.rawValue = String(number) }

    /// The revision of a card that exists only here (an addition made offline, not sent yet).
    public static let unsent = CardRevision(rawValue: "")

    /// The number, when the revision is a card API version (digits only).
    public var number: Int? {
        // Digits only, without a leading zero: the number's own spelling, so it reads back the same.
        let digits = rawValue.utf8
        guard (1...18).contains(digits.count), digits.allSatisfy({ (48...57).contains($0) }),
            digits.first != 48 || digits.count == 1
        else { return nil }
        return Int(rawValue)
    }

    /// The revision as it may be shown (`7`, or an `ETag` with its quotes), control characters
    /// escaped: it came from a server.
    public var description: String { TerminalText.escaped(rawValue) }

    /// Reads a number (the card API's versions) or a string (an `ETag`).
    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        if let number = try? container.decode(Int.self) {
            self.init(number)
        } else {
            self.init(rawValue: try container.decode(String.self))
        }
    }

    /// Writes a card API version as a number, anything else as a string.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        if let number {
            try container.encode(number)
        } else {
            try container.encode(rawValue)
        }
    }
}
