/// The xterm 256-colour palette: the 16 basic colours, the 6×6×6 cube and the 24 greys, for
/// drawing explicit colours (pictures, QR codes) on terminals without 24-bit colour.
enum XtermColors {
    /// The cube's six levels per channel.
    static let levels: [UInt8] = [0, 95, 135, 175, 215, 255]

    /// xterm's defaults for the 16 basic colours.
    static let basic: [(UInt8, UInt8, UInt8)] = [
        (0, 0, 0), (205, 0, 0), (0, 205, 0), (205, 205, 0), (0, 0, 238), (205, 0, 205), (0, 205, 205), (229, 229, 229),
        (127, 127, 127), (255, 0, 0), (0, 255, 0), (255, 255, 0), (92, 92, 255), (255, 0, 255), (0, 255, 255),
        (255, 255, 255),
    ]

    /// The colour of palette entry `index`.
    static func rgb(_ index: UInt8) -> (UInt8, UInt8, UInt8) {
        let value = Int(index)
        if value < 16 { return basic[value] }
        if value >= 232 {
            let gray = UInt8(8 + (value - 232) * 10)
            return (gray, gray, gray)
        }
        let cube = value - 16
        return (levels[cube / 36], levels[cube / 6 % 6], levels[cube % 6])
    }

    /// The cube or grey entry (16…255) nearest `red`, `green`, `blue`.
    static func nearest(_ red: UInt8, _ green: UInt8, _ blue: UInt8) -> UInt8 {
        func level(_ value: UInt8) -> Int {
            levels.indices.min { abs(Int(levels[$0]) - Int(value)) < abs(Int(levels[$1]) - Int(value)) }!
        }
        let (r, g, b) = (level(red), level(green), level(blue))
        let cube = 16 + 36 * r + 6 * g + b
        let average = (Int(red) + Int(green) + Int(blue)) / 3
        let grayIndex = min(23, max(0, (average - 8 + 5) / 10))
        let gray = 232 + grayIndex
        return distance(rgb(UInt8(gray)), (red, green, blue)) < distance(rgb(UInt8(cube)), (red, green, blue))
            ? UInt8(gray) : UInt8(cube)
    }

    /// The basic colour (0…`count` − 1) nearest `red`, `green`, `blue`.
    static func nearestBasic(_ red: UInt8, _ green: UInt8, _ blue: UInt8, count: Int) -> UInt8 {
        let candidates = 0..<min(count, basic.count)
        return UInt8(
            candidates.min { distance(basic[$0], (red, green, blue)) < distance(basic[$1], (red, green, blue)) }!)
    }

    private static func distance(_ a: (UInt8, UInt8, UInt8), _ b: (UInt8, UInt8, UInt8)) -> Int {
        let (dr, dg, db) = (Int(a.0) - Int(b.0), Int(a.1) - Int(b.1), Int(a.2) - Int(b.2))
        return dr * dr + dg * dg + db * db
    }
}
