import CardModels

extension Renderer {
    /// Draws a one-line text field: the input area underlined, the text scrolled so the cursor
    /// shows, the cursor in reverse video when `focused`, and `*` per character when `masked`.
    static func drawInput(
        _ grid: inout Grid, _ field: TextFieldState, x: Int, y: Int, width: Int,
        focused: Bool, masked: Bool = false
    ) {
        guard width > 0 else { return }
        grid.fill(x: x, y: y, width: width, height: 1, style: Theme.input)
        guard focused || masked else {
            // Without the cursor the start matters most: cut the end, with an ellipsis.
            grid.draw(field.text, x: x, y: y, width: width, style: Theme.input)
            return
        }
        let pieces: [String] =
            masked
            ? Array(repeating: "*", count: field.text.count)
            : field.text.map { TerminalText.escaped(String($0)) }
        let widths = pieces.map { DisplayWidth.of($0) }
        let cursor = min(max(0, field.cursor), pieces.count)
        // Scroll so that the text before the cursor plus the cursor cell fits.
        var start = 0
        var used = widths[0..<cursor].reduce(0, +) + 1
        while used > width, start < cursor {
            used -= widths[start]
            start += 1
        }
        var column = x
        var cursorColumn = x
        for index in start..<pieces.count {
            if index == cursor { cursorColumn = column }
            guard column + widths[index] <= x + width else { break }
            column += grid.draw(pieces[index], x: column, y: y, width: widths[index], style: Theme.input)
        }
        if cursor == pieces.count { cursorColumn = column }
        if focused, cursorColumn < x + width {
            let cellWidth = cursor < pieces.count ? max(1, widths[cursor]) : 1
            grid.restyle(x: cursorColumn, y: y, width: cellWidth, style: Theme.cursor)
        }
    }
}
