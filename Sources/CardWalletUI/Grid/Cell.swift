/// The look of a cell. Colours are roles, not values: a backend maps them to its palette and
/// drops them under `NO_COLOR`; anything that must be visible without colour (the selection)
/// also sets an attribute such as `reverse`.
public struct Style: Hashable, Sendable {
    /// Text attributes a terminal can show without colour.
    public struct Attributes: OptionSet, Hashable, Sendable {
        /// The attribute bits.
        public let rawValue: UInt8
        /// Attributes from their bits.
        public init(rawValue: UInt8) { self.rawValue = rawValue }
        /// Bold (or bright).
        public static let bold = Attributes(rawValue: 1 << 0)
        /// Reverse video: the selection and the cursor use it, so they show under `NO_COLOR`.
        public static let reverse = Attributes(rawValue: 1 << 1)
        /// Underlined: input areas.
        public static let underline = Attributes(rawValue: 1 << 2)
        /// Dim: secondary text.
        public static let dim = Attributes(rawValue: 1 << 3)
    }

    /// A colour role; the backend picks the actual colour, or none under `NO_COLOR`.
    public enum Color: UInt8, Hashable, Sendable, CaseIterable {
        case normal, accent, error, success, warning, muted
    }

    /// Attributes, shown even without colour.
    public var attributes: Attributes
    /// The colour role, which a backend may drop.
    public var color: Color
    /// An explicit foreground colour, over the role's (a picture's pixels, a QR code's
    /// modules, a kitty placeholder's image id). Without colours the backend draws the
    /// character in the terminal's own.
    public var foreground: TerminalColor?
    /// An explicit background colour.
    public var background: TerminalColor?

    /// A style of `attributes` in colour role `color`.
    public init(_ attributes: Attributes = [], color: Color = .normal) {
        self.attributes = attributes
        self.color = color
    }

    /// A style of explicit colours (`nil`: the terminal's own).
    public init(foreground: TerminalColor?, background: TerminalColor?) {
        self.attributes = []
        self.color = .normal
        self.foreground = foreground
        self.background = background
    }

    /// Whether the style names explicit colours.
    public var hasExplicitColors: Bool { foreground != nil || background != nil }

    /// No attributes, normal colour.
    public static let plain = Style()
}

/// One screen cell: a character of display width 1 or 2, or the right half of a wide one.
public struct Cell: Hashable, Sendable {
    /// The grapheme shown here; `" "` for blanks. Never a control character.
    public var character: Character
    /// 1 for most characters, 2 for wide ones (CJK, most emoji), 0 for the cell that the wide
    /// character to its left covers.
    public var width: UInt8
    /// How the cell looks.
    public var style: Style

    /// A cell showing `character`, `width` columns wide, in `style`.
    public init(_ character: Character = " ", width: UInt8 = 1, style: Style = .plain) {
        self.character = character
        self.width = width
        self.style = style
    }

    /// A plain space.
    public static let blank = Cell()
}
