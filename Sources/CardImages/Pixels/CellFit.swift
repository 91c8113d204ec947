/// A size in terminal cells.
public struct CellSize: Sendable, Hashable, CustomStringConvertible {
    /// Columns.
    public var columns: Int
    /// Rows.
    public var rows: Int

    /// A size.
    public init(columns: Int, rows: Int) {
        self.columns = columns
        self.rows = rows
    }

    /// `40×12`.
    public var description: String { "\(columns)×\(rows)" }
}

/// How an image fits a box of cells, keeping its aspect.
public enum CellFit {
    /// The cell size most terminals have when they do not say (10×20 pixels: cells are about
    /// twice as tall as wide).
    public static let defaultCellPixels = PixelSize(width: 10, height: 20)

    /// The cells `image` takes when made as large as fits in `box`, aspect kept.
    ///
    /// - Parameters:
    ///   - image: the picture's size in pixels (upright).
    ///   - box: the space available.
    ///   - cellPixels: one cell's size in pixels (its aspect is what matters).
    /// - Returns: at least 1×1, at most `box`.
    public static func cells(for image: PixelSize, in box: CellSize, cellPixels: PixelSize = defaultCellPixels)
        -> CellSize
    {
        let boxColumns = max(1, box.columns)
        let boxRows = max(1, box.rows)
        let cellWidth = Double(max(1, cellPixels.width))
        let cellHeight = Double(max(1, cellPixels.height))
        let aspect = Double(max(1, image.width)) / Double(max(1, image.height))
        // Rows needed at full width; if too many, the height decides.
        let rowsAtFullWidth = Double(boxColumns) * cellWidth / aspect / cellHeight
        if rowsAtFullWidth.rounded() <= Double(boxRows) {
            return CellSize(columns: boxColumns, rows: max(1, min(boxRows, Int(rowsAtFullWidth.rounded()))))
        }
        let columns = Double(boxRows) * cellHeight * aspect / cellWidth
        return CellSize(columns: max(1, min(boxColumns, Int(columns.rounded()))), rows: boxRows)
    }

    /// The largest size with `image`'s aspect that fits in `bounds`.
    public static func pixels(for image: PixelSize, within bounds: PixelSize) -> PixelSize {
        let scale = min(
            Double(bounds.width) / Double(max(1, image.width)), Double(bounds.height) / Double(max(1, image.height)))
        return PixelSize(
            width: max(1, min(bounds.width, Int((Double(image.width) * scale).rounded()))),
            height: max(1, min(bounds.height, Int((Double(image.height) * scale).rounded()))))
    }
}
