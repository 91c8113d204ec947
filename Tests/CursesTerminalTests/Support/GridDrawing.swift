import CardWalletUI

@testable import CursesTerminal

extension Grid {
    /// Writes `text` from column `x` of row `y`, one cell per column, as the UI core does.
    mutating func write(_ text: String, x: Int, y: Int, style: Style = .plain) {
        var column = x
        for character in text {
            let width =
                PaintPlanner.systemDisplayWidth(character.unicodeScalars.first?.value ?? 0) == 2 ? 2 : 1
            self[column, y] = Cell(character, width: UInt8(width), style: style)
            if width == 2 { self[column + 1, y] = Cell(" ", width: 0, style: style) }
            column += width
        }
    }
}
