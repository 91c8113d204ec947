import CNCurses
public import CardWalletUI

extension CursesBackend {
    /// Paints the cells of `grid` that differ from the last frame painted (all of them after a
    /// resize, a suspend or ``requestFullRepaint()``), then updates the terminal once, then
    /// writes the pictures the terminal draws itself (``CardWalletUI/Grid/Overlay``) whose rows
    /// were repainted, and repaints the rows of those that are gone.
    ///
    /// Cells outside the terminal are dropped; see ``PaintPlanner`` for how characters that a
    /// terminal would misread are replaced.
    public func present(_ grid: Grid) {
        guard let window else { return }
        var previous = lastPainted
        let sameSize = previous.map { $0.width == grid.width && $0.height == grid.height } ?? false
        var full = false
        if needsFullRepaint || !sameSize {
            // Nothing on the terminal can be trusted: start from a cleared screen.
            _ = werase(window)
            _ = clearok(cn_curscr(), true)
            previous = nil
            needsFullRepaint = false
            full = true
        }
        let screen = size
        let runs = grid.changes(from: previous)
        let operations = PaintPlanner.operations(
            for: runs, columns: screen.width, rows: screen.height, palette: palette)
        for operation in operations {
            var text = operation.text.map { wchar_t(bitPattern: $0) }
            text.append(0)
            // ERR at the bottom-right cell is expected: the cell is stored, only the cursor
            // cannot advance past it (scrolling is off), and ncurses draws it without scrolling.
            if let explicit = operation.rendition.explicit {
                let pair = cn_alloc_pair(explicit.foreground, explicit.background)
                _ = cn_put_cell_pair(
                    window, Int32(operation.y), Int32(operation.x), text, operation.rendition.attributes, max(0, pair))
            } else {
                _ = cn_put_cell(
                    window, Int32(operation.y), Int32(operation.x), text,
                    operation.rendition.attributes, operation.rendition.pair)
            }
        }
        let overlays = OverlayPlanner.plan(
            previous: full ? [] : lastPainted?.overlays ?? [], current: grid.overlays,
            repaintedRows: Set(runs.map(\.y)), everything: full)
        for rows in overlays.redraw {
            // The terminal still shows a picture there that curses knows nothing of.
            _ = wredrawln(window, Int32(rows.lowerBound), Int32(rows.count))
        }
        _ = wrefresh(window)
        for overlay in overlays.send where overlay.x < screen.width && overlay.y < screen.height {
            // Save the cursor, draw at the picture's cell, restore: curses' idea of the
            // cursor (and the attributes) stays true.
            writeToTerminal(
                Array("\u{1B}7\u{1B}[\(overlay.y + 1);\(overlay.x + 1)H".utf8) + overlay.escapes + Array("\u{1B}8".utf8)
            )
        }
        lastPainted = grid
    }

    /// Writes `bytes` to the terminal as they are (a kitty picture's transmission or delete).
    public func writeToTerminal(_ bytes: [UInt8]) {
        guard window != nil, !bytes.isEmpty else { return }
        writeToTerminal(bytes: bytes)
    }
}

/// Which pictures drawn by the terminal (iTerm2, sixel) to write after a frame, and which rows
/// to repaint because a picture left them: a pure function, tested without a terminal.
///
/// A terminal erases a picture's cells where text is drawn over them, and curses may clear a
/// row to its end when it repaints any cell of it, so a picture is written again whenever one
/// of its rows was repainted; a picture no longer in the frame (or moved, or changed) has its
/// rows repainted, which erases it, so it never outlives the frame that showed it.
enum OverlayPlanner {
    /// The rows to repaint whole and the overlays to write.
    static func plan(
        previous: [Grid.Overlay], current: [Grid.Overlay], repaintedRows: Set<Int>, everything: Bool
    ) -> (redraw: [Range<Int>], send: [Grid.Overlay]) {
        let gone = previous.filter { !current.contains($0) }
        var dirty = repaintedRows
        for overlay in gone { dirty.formUnion(overlay.rowRange) }
        let send = current.filter { overlay in
            everything || !previous.contains(overlay) || overlay.rowRange.contains(where: dirty.contains)
        }
        return (gone.map(\.rowRange), send)
    }
}
