/// A colour for a terminal cell.
public enum CellColor: Sendable, Hashable {
    /// 24-bit colour (`ESC [ 38;2;r;g;b m`).
    case rgb(RGBColor)
    /// One of the 256 colours of the xterm palette (`ESC [ 38;5;n m`).
    case indexed(UInt8)

    /// The SGR parameters that select this colour as foreground or background.
    func sgr(foreground: Bool) -> String {
        switch self {
        case .rgb(let color): "\(foreground ? 38 : 48);2;\(color.red);\(color.green);\(color.blue)"
        case .indexed(let index): "\(foreground ? 38 : 48);5;\(index)"
        }
    }
}

/// One terminal cell of a picture drawn with text: a grapheme and its colours. A cell-grid
/// renderer draws these as they are; ``ImageCell/text(of:)`` writes them as escape sequences.
public struct ImageCell: Sendable, Hashable {
    /// The grapheme: `▀` for half blocks, U+10EEEE with its diacritics for kitty placeholders.
    public var character: String
    /// The foreground colour (`nil`: the terminal's default).
    public var foreground: CellColor?
    /// The background colour (`nil`: the terminal's default).
    public var background: CellColor?

    /// A cell.
    public init(character: String, foreground: CellColor?, background: CellColor?) {
        self.character = character
        self.foreground = foreground
        self.background = background
    }

    /// Rows of cells as text for a plain terminal stream: colours set with SGR only when they
    /// change, every row ending with a reset and a newline, so nothing leaks into what follows.
    public static func text(of rows: [[ImageCell]]) -> String {
        var output = ""
        output.reserveCapacity(rows.count * (rows.first?.count ?? 0) * 24)
        for row in rows {
            var foreground: CellColor?? = .none
            var background: CellColor?? = .none
            for cell in row {
                var parameters: [String] = []
                if foreground != .some(cell.foreground) {
                    parameters.append(cell.foreground?.sgr(foreground: true) ?? "39")
                    foreground = .some(cell.foreground)
                }
                if background != .some(cell.background) {
                    parameters.append(cell.background?.sgr(foreground: false) ?? "49")
                    background = .some(cell.background)
                }
                if !parameters.isEmpty { output += "\u{1B}[" + parameters.joined(separator: ";") + "m" }
                output += cell.character
            }
            output += "\u{1B}[0m\n"
        }
        return output
    }
}
