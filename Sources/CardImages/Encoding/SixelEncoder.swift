/// DEC sixel graphics: `ESC P 0;1;0 q`, raster attributes `"1;1;width;height` (square
/// pixels), the palette as `#n;2;r;g;b` in percent, then bands of six pixel rows — for each
/// colour in the band, `#n` and one character per column (`?` + the six bits), runs of four or
/// more as `!count`, `$` back to the band's start, `-` to the next band — and `ESC \`.
///
/// Written here rather than taken from libsixel or libchafa: the format is this paragraph,
/// and the only hard part, choosing 256 colours, is ``ColorQuantizer``. docs/Images.md
/// compares its speed with libchafa's encoder.
public enum SixelEncoder {
    /// The sixel sequence for `image` at its pixel size (transparency flattened over black).
    public static func encode(_ image: RGBAImage) -> [UInt8] {
        let opaque = image.flattened(over: .black)
        let quantized = ColorQuantizer.quantize(opaque)
        let width = image.width
        let height = image.height
        var output: [UInt8] = Array("\u{1B}P0;1;0q\"1;1;\(width);\(height)".utf8)
        output.reserveCapacity(width * height / 2)
        for (entry, color) in quantized.palette.enumerated() {
            output += Array("#\(entry);2;\(percent(color.red));\(percent(color.green));\(percent(color.blue))".utf8)
        }
        // Per band: one pass sets each colour's six bits per column, then each colour present
        // is written from its row of bits (and cleared for the next band).
        var bits = [UInt8](repeating: 0, count: quantized.palette.count * width)
        var present = [Bool](repeating: false, count: quantized.palette.count)
        var order: [Int] = []
        quantized.indices.withUnsafeBufferPointer { indices in
            bits.withUnsafeMutableBufferPointer { bits in
                for top in stride(from: 0, to: height, by: 6) {
                    let bandHeight = min(6, height - top)
                    order.removeAll(keepingCapacity: true)
                    for row in 0..<bandHeight {
                        let bit = UInt8(1) << UInt8(row)
                        let base = (top + row) * width
                        for x in 0..<width {
                            let entry = Int(indices[base + x])
                            if !present[entry] {
                                present[entry] = true
                                order.append(entry)
                            }
                            bits[entry * width + x] |= bit
                        }
                    }
                    for (position, entry) in order.enumerated() {
                        let line = bits[(entry * width)..<(entry * width + width)]
                        // Trailing empty columns need not be written.
                        var end = line.endIndex
                        while end > line.startIndex && line[end - 1] == 0 { end -= 1 }
                        output += Array("#\(entry)".utf8)
                        appendRuns(line[line.startIndex..<end], to: &output)
                        if position < order.count - 1 { output.append(UInt8(ascii: "$")) }
                        for x in line.indices { bits[x] = 0 }
                        present[entry] = false
                    }
                    if top + 6 < height { output.append(UInt8(ascii: "-")) }
                }
            }
        }
        output += [0x1B, 0x5C]
        return output
    }

    private static func percent(_ value: UInt8) -> Int { (Int(value) * 100 + 127) / 255 }

    /// Appends the sixel characters (`?` + bits) of `line`, runs of four or more as `!count`.
    private static func appendRuns(_ line: Slice<UnsafeMutableBufferPointer<UInt8>>, to output: inout [UInt8]) {
        var index = line.startIndex
        while index < line.endIndex {
            let character = 63 + line[index]
            var run = 1
            while index + run < line.endIndex && line[index + run] == line[index] { run += 1 }
            if run >= 4 {
                output.append(UInt8(ascii: "!"))
                output += Array(String(run).utf8)
                output.append(character)
            } else {
                for _ in 0..<run { output.append(character) }
            }
            index += run
        }
    }
}
