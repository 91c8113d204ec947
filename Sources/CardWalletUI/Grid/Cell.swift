/// The look of a cell. Colours are roles, not values: a backend maps them to its palette and
/// drops them under `NO_COLOR`; anything that must be visible without colour (the selection)
/// also sets an attribute such as `reverse`.
public struct Style: Hashable, Sendable {
    public struct Attributes: OptionSet, Hashable, Sendable {
        public let rawValue: UInt8
        public init(rawValue: UInt8) { self.rawValue = rawValue }
        public static let bold = Attributes(rawValue: 1 << 0)
        public static let reverse = Attributes(rawValue: 1 << 1)
        public static let underline = Attributes(rawValue: 1 << 2)
        public static let dim = Attributes(rawValue: 1 << 3)
    }

    public enum Color: UInt8, Hashable, Sendable, CaseIterable {
        case normal, accent, error, success, warning, muted
    }

    public var attributes: Attributes
    public var color: Color

    public init(_ attributes: Attributes = [], color: Color = .normal) {
        self.attributes = attributes
        self.color = color
    }

    public static let plain = Style()
}

/// One screen cell: a character of display width 1 or 2, or the right half of a wide one.
public struct Cell: Hashable, Sendable {
    /// The grapheme shown here; `" "` for blanks. Never a control character.
    public var character: Character
    /// 1 for most characters, 2 for wide ones (CJK, most emoji), 0 for the cell that the wide
    /// character to its left covers.
    public var width: UInt8
    public var style: Style

    public init(_ character: Character = " ", width: UInt8 = 1, style: Style = .plain) {
        self.character = character
        self.width = width
        self.style = style
    }

    public static let blank = Cell()
}
