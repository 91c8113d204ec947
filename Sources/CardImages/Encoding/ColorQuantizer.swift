/// Reduces an opaque image to at most 256 colours for sixel: the exact colours when there are
/// few enough (logos, drawings, QR codes), else a median cut over a 15-bit histogram (each box
/// split at its weighted median along its longest side; a colour's entry is the mean of the
/// pixels in its box). No dithering: at terminal sizes the cut's 256 colours show a photo
/// without visible banding, and every pixel maps in one table look-up.
enum ColorQuantizer {
    /// A palette and, for each pixel, its entry.
    struct Result {
        var palette: [RGBColor]
        var indices: [UInt8]
    }

    static func quantize(_ image: RGBAImage, maximumColors: Int = 256) -> Result {
        if let exact = exactColors(image, maximumColors: maximumColors) { return exact }
        return medianCut(image, maximumColors: maximumColors)
    }

    private static func exactColors(_ image: RGBAImage, maximumColors: Int) -> Result? {
        var entries: [UInt32: UInt8] = [:]
        var palette: [RGBColor] = []
        var indices = [UInt8](repeating: 0, count: image.width * image.height)
        let ok = image.pixels.withUnsafeBufferPointer { pixels -> Bool in
            for pixel in 0..<indices.count {
                let r = pixels[pixel * 4]
                let g = pixels[pixel * 4 + 1]
                let b = pixels[pixel * 4 + 2]
                let key = UInt32(r) << 16 | UInt32(g) << 8 | UInt32(b)
                if let entry = entries[key] {
                    indices[pixel] = entry
                } else {
                    guard palette.count < maximumColors else { return false }
                    let entry = UInt8(palette.count)
                    entries[key] = entry
                    palette.append(RGBColor(red: r, green: g, blue: b))
                    indices[pixel] = entry
                }
            }
            return true
        }
        return ok ? Result(palette: palette, indices: indices) : nil
    }

    private struct Bin {
        var count = 0
        var red = 0
        var green = 0
        var blue = 0
    }

    private static func bin(_ r: UInt8, _ g: UInt8, _ b: UInt8) -> Int {
        Int(r >> 3) << 10 | Int(g >> 3) << 5 | Int(b >> 3)
    }

    private static func medianCut(_ image: RGBAImage, maximumColors: Int) -> Result {
        var bins = [Bin](repeating: Bin(), count: 1 << 15)
        image.pixels.withUnsafeBufferPointer { pixels in
            for offset in stride(from: 0, to: pixels.count, by: 4) {
                let index = bin(pixels[offset], pixels[offset + 1], pixels[offset + 2])
                bins[index].count += 1
                bins[index].red += Int(pixels[offset])
                bins[index].green += Int(pixels[offset + 1])
                bins[index].blue += Int(pixels[offset + 2])
            }
        }
        var boxes: [[Int]] = [bins.indices.filter { bins[$0].count > 0 }]
        func component(_ index: Int, _ axis: Int) -> Int { index >> (10 - axis * 5) & 31 }
        func extent(_ box: [Int]) -> (axis: Int, range: Int) {
            var best = (axis: 0, range: -1)
            for axis in 0..<3 {
                var low = 31
                var high = 0
                for index in box {
                    let value = component(index, axis)
                    low = min(low, value)
                    high = max(high, value)
                }
                if high - low > best.range { best = (axis, high - low) }
            }
            return best
        }
        while boxes.count < maximumColors {
            // Split the box with the most pixels among those that can still be split.
            var chosen: Int?
            var chosenWeight = 0
            for (position, box) in boxes.enumerated() where box.count > 1 {
                let weight = box.reduce(0) { $0 + bins[$1].count }
                if weight > chosenWeight {
                    chosen = position
                    chosenWeight = weight
                }
            }
            guard let position = chosen else { break }
            let box = boxes[position]
            let axis = extent(box).axis
            let sorted = box.sorted { component($0, axis) < component($1, axis) }
            var running = 0
            var cut = 1
            for (offset, index) in sorted.enumerated() {
                running += bins[index].count
                if running * 2 >= chosenWeight {
                    cut = max(1, min(sorted.count - 1, offset + 1))
                    break
                }
            }
            boxes[position] = Array(sorted[..<cut])
            boxes.append(Array(sorted[cut...]))
        }
        var palette: [RGBColor] = []
        var entryOfBin = [UInt8](repeating: 0, count: 1 << 15)
        for box in boxes {
            var count = 0
            var red = 0
            var green = 0
            var blue = 0
            for index in box {
                count += bins[index].count
                red += bins[index].red
                green += bins[index].green
                blue += bins[index].blue
                entryOfBin[index] = UInt8(palette.count)
            }
            palette.append(
                RGBColor(red: UInt8(red / count), green: UInt8(green / count), blue: UInt8(blue / count)))
        }
        var indices = [UInt8](repeating: 0, count: image.width * image.height)
        image.pixels.withUnsafeBufferPointer { pixels in
            for pixel in 0..<indices.count {
                indices[pixel] = entryOfBin[bin(pixels[pixel * 4], pixels[pixel * 4 + 1], pixels[pixel * 4 + 2])]
            }
        }
        return Result(palette: palette, indices: indices)
    }
}
