import CNCurses
public import CardWalletUI

extension CursesBackend {
    /// Paints the cells of `grid` that differ from the last frame painted (all of them after a
    /// resize, a suspend or ``requestFullRepaint()``), then updates the terminal once.
    ///
    /// Cells outside the terminal are dropped; see ``PaintPlanner`` for how characters that a
    /// terminal would misread are replaced.
    public func present(_ grid: Grid) {
        guard let window else { return }
        var previous = lastPainted
        let sameSize = previous.map { $0.width == grid.width && $0.height == grid.height } ?? false
        if needsFullRepaint || !sameSize {
            // Nothing on the terminal can be trusted: start from a cleared screen.
            _ = werase(window)
            _ = clearok(cn_curscr(), true)
            previous = nil
            needsFullRepaint = false
        }
        let screen = size
        let operations = PaintPlanner.operations(
            for: grid.changes(from: previous), columns: screen.width, rows: screen.height, palette: palette
        )
        for operation in operations {
            var text = operation.text.map { wchar_t(bitPattern: $0) }
            text.append(0)
            // ERR at the bottom-right cell is expected: the cell is stored, only the cursor
            // cannot advance past it (scrolling is off), and ncurses draws it without scrolling.
            _ = cn_put_cell(
                window, Int32(operation.y), Int32(operation.x), text,
                operation.rendition.attributes, operation.rendition.pair
            )
        }
        _ = wrefresh(window)
        lastPainted = grid
    }
}
