extension QRCode {
    /// The symbol as text for standard output, two modules a character with `▀ ▄ █` and
    /// spaces, the 4-module quiet zone included, one line per two module rows.
    ///
    /// As `qrencode -t UTF8` does, a full block is a *light* module: on the usual dark
    /// background the terminal's light foreground draws the light modules. `inverted` swaps
    /// them (full block = dark), for terminals with a light background.
    public func halfBlockText(inverted: Bool = false) -> String {
        var output = ""
        let total = sizeWithQuietZone
        let quiet = Self.quietZone
        for top in stride(from: 0, to: total, by: 2) {
            for x in 0..<total {
                // A row past the bottom edge (the total is odd) counts as quiet zone: light.
                let upper = isDark(x: x - quiet, y: top - quiet)
                let lower = top + 1 < total ? isDark(x: x - quiet, y: top + 1 - quiet) : false
                let upperInk = upper == inverted
                let lowerInk = lower == inverted
                switch (upperInk, lowerInk) {
                case (true, true): output += "█"
                case (true, false): output += "▀"
                case (false, true): output += "▄"
                case (false, false): output += " "
                }
            }
            output += "\n"
        }
        return output
    }

    /// The symbol as cells for a TUI, in explicit colours so a camera reads it whatever the
    /// terminal's theme: `▀` with the upper module as foreground and the lower one as
    /// background, dark modules black and light ones white (or their nearest 256-colour
    /// entries, 16 and 231), the quiet zone included.
    public func cells(depth: HalfBlockEncoder.Depth = .trueColor) -> [[ImageCell]] {
        let dark: CellColor = depth == .trueColor ? .rgb(.black) : .indexed(16)
        let light: CellColor = depth == .trueColor ? .rgb(.white) : .indexed(231)
        let total = sizeWithQuietZone
        let quiet = Self.quietZone
        return stride(from: 0, to: total, by: 2).map { top in
            (0..<total).map { x in
                let upper = isDark(x: x - quiet, y: top - quiet)
                let lower = top + 1 < total ? isDark(x: x - quiet, y: top + 1 - quiet) : false
                return ImageCell(
                    character: HalfBlockEncoder.upperHalf, foreground: upper ? dark : light,
                    background: lower ? dark : light)
            }
        }
    }

    /// The symbol as a greyscale PNG file: `scale` pixels a module, quiet zone included.
    ///
    /// - Throws: ``ImageEncodeError`` when libpng fails.
    public func png(scale: Int = 8) throws(ImageEncodeError) -> [UInt8] {
        let scale = max(1, min(scale, 64))
        let side = sizeWithQuietZone * scale
        var gray = [UInt8](repeating: 255, count: side * side)
        for y in 0..<size {
            for x in 0..<size where isDark(x: x, y: y) {
                for dy in 0..<scale {
                    let row = ((y + Self.quietZone) * scale + dy) * side
                    for dx in 0..<scale { gray[row + (x + Self.quietZone) * scale + dx] = 0 }
                }
            }
        }
        return try PNGCodec.encodeGray(gray, width: side, height: side)
    }
}
