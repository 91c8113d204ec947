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

/// What a terminal backend reports to the main loop.
public enum TerminalEvent: Hashable, Sendable {
    case key(Key)
    /// The terminal now has this many columns and rows.
    case resize(width: Int, height: Int)
}
