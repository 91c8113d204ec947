public import CardModels

/// Why a vCard cannot be read as one CardDAV resource, or why an edit cannot be written.
///
/// Nothing is changed when one is thrown: the caller keeps the resource it had.
public enum VCardResourceError: Error, Sendable, Hashable, CustomStringConvertible {
    /// No `BEGIN:VCARD` line at all (an HTML error page, an empty body).
    case notVCard
    /// `BEGIN:VCARD` at `line` without its `END:VCARD`.
    case unterminated(line: Int)
    /// A second card begins at `line`: a CardDAV resource holds exactly one (RFC 6352 §5.1).
    case severalCards(line: Int)
    /// The text is larger than ``VCardResource/maximumBytes``.
    case tooLarge(bytes: Int, limit: Int)
    /// vCard 2.1 is read, never written back (no CardDAV server stores it; RFC 6352 asks for 3.0).
    case readOnly(VCardVersion)
    /// A value the edit cannot write: a field that is not the format its property needs, a line
    /// break in a one-line field, a control character.
    case invalidField(CardField, String)
    /// The `UID` given for a new card is empty or holds control characters.
    case invalidUID

    /// The reason, for people.
    public var description: String {
        switch self {
        case .notVCard:
            "not a vCard (no BEGIN:VCARD line)"
        case .unterminated(let line):
            "the vCard that begins at line \(line) has no END:VCARD"
        case .severalCards(let line):
            "line \(line): a second vCard; a CardDAV resource holds exactly one"
        case .tooLarge(let bytes, let limit):
            "the vCard is \(bytes) bytes, more than the \(limit) this program holds in memory for one card"
        case .readOnly(let version):
            "vCard \(version.rawValue) cards are read only: save the card as vCard 3.0 or 4.0 first"
        case .invalidField(let field, let message):
            "\(field.label) \(message)"
        case .invalidUID:
            "a new card's UID must be non-empty text without control characters"
        }
    }
}
