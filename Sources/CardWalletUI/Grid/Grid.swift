/// A rectangle of cells that the renderer draws into and a terminal backend paints.
///
/// Rendering draws a whole frame into a new grid; ``changes(from:)`` then finds the cells a
/// backend must repaint, so the terminal only receives what changed.
public struct Grid: Hashable, Sendable {
    /// Columns.
    public let width: Int
    /// Rows.
    public let height: Int
    /// The cells, row by row.
    public private(set) var cells: [Cell]
    /// Pictures the terminal draws itself over cells of this grid (iTerm2, sixel), after the
    /// cells are painted.
    public var overlays: [Overlay] = []

    /// A picture drawn by the terminal from escape bytes over a rectangle of the grid.
    ///
    /// The grid holds blank cells there. A backend writes `escapes` with the cursor at
    /// (`x`, `y`) after painting any frame that repainted one of its rows (a terminal erases a
    /// picture where text is drawn, and curses may clear to the end of a row), and repaints the
    /// rows of an overlay that is gone, so the picture never outlives its frame.
    public struct Overlay: Hashable, Sendable {
        /// The column of its top-left cell.
        public var x: Int
        /// The row of its top-left cell.
        public var y: Int
        /// Columns covered.
        public var columns: Int
        /// Rows covered.
        public var rows: Int
        /// What to write at the cursor.
        public var escapes: [UInt8]

        /// An overlay.
        public init(x: Int, y: Int, columns: Int, rows: Int, escapes: [UInt8]) {
            self.x = x
            self.y = y
            self.columns = columns
            self.rows = rows
            self.escapes = escapes
        }

        /// The rows it covers.
        public var rowRange: Range<Int> { y..<(y + rows) }
    }

    /// A `width`×`height` grid filled with `cell`.
    public init(width: Int, height: Int, filledWith cell: Cell = .blank) {
        self.width = max(0, width)
        self.height = max(0, height)
        self.cells = Array(repeating: cell, count: self.width * self.height)
    }

    /// The cell at column `x`, row `y`; reading outside the grid gives a blank cell and writing
    /// outside it does nothing.
    public subscript(x: Int, y: Int) -> Cell {
        get {
            guard x >= 0, y >= 0, x < width, y < height else { return .blank }
            return cells[y * width + x]
        }
        set {
            guard x >= 0, y >= 0, x < width, y < height else { return }
            cells[y * width + x] = newValue
        }
    }

    /// A horizontal run of changed cells, to be painted left to right starting at `x`, `y`.
    public struct Run: Hashable, Sendable {
        /// The column of the run's first cell.
        public var x: Int
        /// The run's row.
        public var y: Int
        /// The cells to paint, left to right.
        public var cells: [Cell]
    }

    /// The runs of cells that differ from `previous`; everything when the sizes differ.
    ///
    /// A run never starts on the right half of a wide character: it is widened to include the
    /// wide character itself, so a backend never paints half a glyph.
    public func changes(from previous: Grid?) -> [Run] {
        let sameSize = previous.map { $0.width == width && $0.height == height } ?? false
        var runs: [Run] = []
        for y in 0..<height {
            let row = y * width
            var x = 0
            while x < width {
                if sameSize, previous!.cells[row + x] == cells[row + x] {
                    x += 1
                    continue
                }
                var start = x
                while start > 0, cells[row + start].width == 0 { start -= 1 }
                var end = x
                while end < width, !(sameSize && previous!.cells[row + end] == cells[row + end]) {
                    end += 1
                }
                // Finish a wide character whose right half is unchanged.
                while end < width, cells[row + end].width == 0 { end += 1 }
                if let last = runs.last, last.y == y, last.x + last.cells.count > start {
                    start = last.x + last.cells.count
                }
                if start < end {
                    runs.append(Run(x: start, y: y, cells: Array(cells[(row + start)..<(row + end)])))
                }
                x = end
            }
        }
        return runs
    }

    /// The grid as text, one line per row with trailing blanks trimmed: for snapshot tests.
    public var text: String {
        var lines: [String] = []
        lines.reserveCapacity(height)
        for y in 0..<height {
            var line = ""
            for x in 0..<width {
                let cell = cells[y * width + x]
                if cell.width > 0 { line.append(cell.character) }
            }
            while line.last == " " { line.removeLast() }
            lines.append(line)
        }
        return lines.joined(separator: "\n")
    }
}
