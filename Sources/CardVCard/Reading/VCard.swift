/// A card as read: its version and properties in file order, without BEGIN, END and VERSION.
public struct VCard: Sendable, Hashable {
    /// `2.1`, `3.0` or `4.0`; anything else reads like 3.0.
    public var version: VCardVersion
    /// The properties, in order.
    public var properties: [VCardProperty]
    /// The line of `BEGIN:VCARD`.
    public var beginLine: Int
    /// The line of `END:VCARD`.
    public var endLine: Int
    /// What was read in a way worth saying, though the card is whole: a charset the system does
    /// not know, a value not valid in its charset, NUL bytes around `BEGIN` or `END`.
    public var warnings: [VCardProblem]
    /// The properties the reader left out (a line that is not a property, a NUL byte, an
    /// unclosed quote…), with what was wrong with each: a card left without a name by them is
    /// skipped with the first of these reasons rather than for having no name.
    var dropped: [VCardProblem] = []

    /// A card.
    public init(
        version: VCardVersion, properties: [VCardProperty], beginLine: Int = 0, endLine: Int = 0,
        warnings: [VCardProblem] = []
    ) {
        self.version = version
        self.properties = properties
        self.beginLine = beginLine
        self.endLine = endLine
        self.warnings = warnings
    }
}

/// The vCard versions: 2.1 (versit), 3.0 (RFC 2425/2426), 4.0 (RFC 6350).
public enum VCardVersion: String, Sendable, Hashable, CaseIterable {
    case v21 = "2.1"
    case v30 = "3.0"
    case v40 = "4.0"

    /// The version a `VERSION` value names; unknown values read as 3.0.
    init(versionValue: String) {
        let trimmed = versionValue.trimmingVCardWhitespace
        self = VCardVersion(rawValue: trimmed) ?? (trimmed.hasPrefix("2") ? .v21 : trimmed.hasPrefix("4") ? .v40 : .v30)
    }
}
