/// The xterm 256-colour palette: 16 system colours (left alone: themes redefine them), a
/// 6×6×6 colour cube (16–231) and 24 greys (232–255).
public enum Palette256 {
    private static let levels: [Int] = [0, 95, 135, 175, 215, 255]

    /// The colour of palette entry `index` (16...255; the system colours as xterm's defaults).
    public static func color(_ index: UInt8) -> RGBColor {
        let value = Int(index)
        if value >= 232 {
            let gray = UInt8(8 + (value - 232) * 10)
            return RGBColor(red: gray, green: gray, blue: gray)
        }
        if value >= 16 {
            let cube = value - 16
            return RGBColor(
                red: UInt8(levels[cube / 36]), green: UInt8(levels[cube / 6 % 6]), blue: UInt8(levels[cube % 6]))
        }
        let system: [(UInt8, UInt8, UInt8)] = [
            (0, 0, 0), (205, 0, 0), (0, 205, 0), (205, 205, 0), (0, 0, 238), (205, 0, 205), (0, 205, 205),
            (229, 229, 229),
            (127, 127, 127), (255, 0, 0), (0, 255, 0), (255, 255, 0), (92, 92, 255), (255, 0, 255), (0, 255, 255),
            (255, 255, 255),
        ]
        let (r, g, b) = system[value]
        return RGBColor(red: r, green: g, blue: b)
    }

    /// The entry of the cube or the grey ramp nearest to `color`.
    public static func nearest(_ color: RGBColor) -> UInt8 {
        func nearestLevel(_ value: UInt8) -> Int {
            let v = Int(value)
            if v < 48 { return 0 }
            if v < 115 { return 1 }
            return min(5, (v - 35) / 40)
        }
        let r = nearestLevel(color.red)
        let g = nearestLevel(color.green)
        let b = nearestLevel(color.blue)
        let cubeIndex = 16 + 36 * r + 6 * g + b
        let average = (Int(color.red) + Int(color.green) + Int(color.blue)) / 3
        let grayIndex = average > 238 ? 23 : max(0, (average - 3) / 10)
        let cube = Self.color(UInt8(cubeIndex))
        let gray = Self.color(UInt8(232 + grayIndex))
        return distance(color, gray) < distance(color, cube) ? UInt8(232 + grayIndex) : UInt8(cubeIndex)
    }

    static func distance(_ a: RGBColor, _ b: RGBColor) -> Int {
        let dr = Int(a.red) - Int(b.red)
        let dg = Int(a.green) - Int(b.green)
        let db = Int(a.blue) - Int(b.blue)
        return dr * dr + dg * dg + db * db
    }
}
