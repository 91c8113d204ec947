import CardModels

extension Grid {
    /// Draws `text` at column `x` of row `y`, escaped and clipped to `width` columns (to the
    /// right edge when `nil`) with an ellipsis when cut.
    ///
    /// Every string reaches the grid through here, so nothing unescaped is ever painted.
    /// - Returns: The columns used.
    @discardableResult
    public mutating func draw(_ text: String, x: Int, y: Int, width: Int? = nil, style: Style = .plain) -> Int {
        guard y >= 0, y < height, x >= 0, x < self.width else { return 0 }
        let limit = min(width ?? (self.width - x), self.width - x)
        guard limit > 0 else { return 0 }
        let safe = TerminalText.escaped(text)
        var column = x
        return TextLayout.fit(safe, width: limit) { character, characterWidth in
            place(character, width: characterWidth, x: column, y: y, style: style)
            column += characterWidth
        }
    }

    /// Fills a rectangle with blanks of `style`.
    public mutating func fill(x: Int, y: Int, width: Int, height: Int, style: Style = .plain) {
        let blank = Cell(" ", width: 1, style: style)
        let left = max(0, x)
        let right = min(self.width, x + width)
        guard left < right else { return }
        for row in max(0, y)..<min(self.height, y + height) {
            if left > 0, self[left, row].width == 0 {
                self[left - 1, row] = Cell(" ", style: self[left - 1, row].style)
            }
            if right < self.width, self[right, row].width == 0 {
                self[right, row] = Cell(" ", style: self[right, row].style)
            }
            for column in left..<right { self[column, row] = blank }
        }
    }

    /// Sets the style of every cell in a row span, keeping the characters: used for the
    /// selection bar, which reverses whatever was drawn.
    public mutating func restyle(x: Int, y: Int, width: Int, style: Style) {
        guard y >= 0, y < height else { return }
        for column in max(0, x)..<min(self.width, x + width) {
            var cell = self[column, y]
            cell.style = style
            self[column, y] = cell
        }
    }

    /// Draws picture cells (half blocks, kitty placeholders) with their top-left at `x`, `y`,
    /// clipped to `width`×`height` cells and to the grid. Each is one column wide and is placed
    /// as it is: the glue made it, and the backend still refuses control characters.
    public mutating func drawPicture(_ rows: [[PictureCell]], x: Int, y: Int, width: Int, height: Int) {
        for (rowOffset, row) in rows.prefix(max(0, height)).enumerated() {
            for (columnOffset, cell) in row.prefix(max(0, width)).enumerated() {
                place(
                    cell.character, width: 1, x: x + columnOffset, y: y + rowOffset,
                    style: Style(foreground: cell.foreground, background: cell.background))
            }
        }
    }

    /// Puts one grapheme of the given width at `x`, `y`, blanking any half of a wide character
    /// it overwrites so the grid never holds half a glyph.
    mutating func place(_ character: Character, width characterWidth: Int, x: Int, y: Int, style: Style) {
        guard x >= 0, y >= 0, x + characterWidth <= width, y < height else { return }
        if self[x, y].width == 0, x > 0 {
            self[x - 1, y] = Cell(" ", style: self[x - 1, y].style)
        }
        let end = x + characterWidth
        if end < width, self[end, y].width == 0 {
            self[end, y] = Cell(" ", style: self[end, y].style)
        }
        self[x, y] = Cell(character, width: UInt8(characterWidth), style: style)
        if characterWidth == 2 {
            self[x + 1, y] = Cell(" ", width: 0, style: style)
        }
    }
}
