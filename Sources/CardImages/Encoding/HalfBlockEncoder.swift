/// The fallback that works in every terminal: each cell shows two pixels, one above the
/// other, as `▀` with the upper pixel as foreground and the lower one as background. Cells are
/// about twice as tall as wide, so each half is roughly square.
public enum HalfBlockEncoder {
    /// The colours a terminal can show.
    public enum Depth: String, Sendable, Hashable {
        /// 24-bit colour.
        case trueColor = "24-bit"
        /// The xterm 256-colour palette.
        case palette256 = "256-colour"
    }

    /// The upper half block.
    public static let upperHalf = "\u{2580}"

    /// Cells for `image`, which should be `columns` wide and `2 × rows` tall (an odd last pixel
    /// row gets the terminal's default background below it).
    public static func cells(for image: RGBAImage, depth: Depth) -> [[ImageCell]] {
        let opaque = image.flattened(over: .black)
        var rows: [[ImageCell]] = []
        rows.reserveCapacity((image.height + 1) / 2)
        for y in stride(from: 0, to: image.height, by: 2) {
            var row: [ImageCell] = []
            row.reserveCapacity(image.width)
            for x in 0..<image.width {
                let top = color(opaque.color(x: x, y: y), depth)
                let bottom = y + 1 < image.height ? color(opaque.color(x: x, y: y + 1), depth) : nil
                row.append(ImageCell(character: upperHalf, foreground: top, background: bottom))
            }
            rows.append(row)
        }
        return rows
    }

    private static func color(_ color: RGBColor, _ depth: Depth) -> CellColor {
        switch depth {
        case .trueColor: .rgb(color)
        case .palette256: .indexed(Palette256.nearest(color))
        }
    }
}
