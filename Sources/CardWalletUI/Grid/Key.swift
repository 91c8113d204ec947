/// A key press, as the UI core sees it. Terminal backends map their own codes to this.
public enum Key: Hashable, Sendable {
    /// A printable character (never a control character).
    case char(Character)
    /// Ctrl plus a letter, lower-cased: Ctrl-D is `.ctrl("d")`.
    case ctrl(Character)
    case enter, tab, backTab, backspace, delete, escape
    case up, down, left, right, home, end, pageUp, pageDown
    /// F1…F12.
    case function(Int)
}

/// A mouse press or wheel turn at a cell.
public struct MouseEvent: Hashable, Sendable {
    /// What the mouse did.
    public enum Kind: Hashable, Sendable {
        /// The main button went down.
        case press
        /// The wheel turned away from the user (scroll up).
        case wheelUp
        /// The wheel turned towards the user (scroll down).
        case wheelDown
    }

    /// What the mouse did.
    public var kind: Kind
    /// The column, from 0.
    public var x: Int
    /// The row, from 0.
    public var y: Int

    /// A mouse event at column `x`, row `y`.
    public init(_ kind: Kind, x: Int, y: Int) {
        self.kind = kind
        self.x = x
        self.y = y
    }
}

/// What a terminal backend reports to the main loop.
public enum TerminalEvent: Hashable, Sendable {
    case key(Key)
    /// The terminal now has this many columns and rows.
    case resize(width: Int, height: Int)
    /// Text the user pasted (bracketed paste): text, never commands; line breaks as `\n`.
    case paste(String)
    /// A mouse press or wheel turn.
    case mouse(MouseEvent)
}
