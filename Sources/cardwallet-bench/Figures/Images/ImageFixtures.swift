import CardImages

/// The figure's photos, made in the process (no binary fixtures): smooth gradients, a few
/// shapes and a fine deterministic grain, so the JPEG compresses like a photo rather than
/// like a drawing.
enum ImageFixtures {
    /// A photo-like picture of `size`.
    static func photo(_ size: PixelSize) -> RGBAImage {
        var pixels = [UInt8](repeating: 255, count: size.width * size.height * 4)
        let width = size.width
        let height = size.height
        pixels.withUnsafeMutableBufferPointer { buffer in
            for y in 0..<height {
                for x in 0..<width {
                    // A hash of the position: grain of ±24 levels.
                    var h = UInt32(truncatingIfNeeded: x &* 73_856_093 ^ y &* 19_349_663)
                    h = (h ^ (h >> 13)) &* 0x5BD1_E995
                    let grain = Int(h >> 24) % 49 - 24
                    let dx = x - width / 2
                    let dy = y - height / 2
                    let inDisc = dx * dx + dy * dy < (height / 3) * (height / 3)
                    let r = inDisc ? 230 : x * 255 / width
                    let g = inDisc ? 190 - y * 80 / height : y * 255 / height
                    let b = inDisc ? 120 : (x + y) * 255 / (width + height)
                    let index = (y * width + x) * 4
                    buffer[index] = UInt8(clamping: r + grain)
                    buffer[index + 1] = UInt8(clamping: g + grain)
                    buffer[index + 2] = UInt8(clamping: b + grain)
                }
            }
        }
        return RGBAImage(width: width, height: height, pixels: pixels)
    }

    /// A JPEG of `image` whose size is as close to `bytes` as a quality from 40 to 95 makes it
    /// (a bisection over the quality).
    static func jpeg(_ image: RGBAImage, near bytes: Int) throws -> [UInt8] {
        var low = 40
        var high = 95
        var best = try ImageFileEncoder.jpeg(image, quality: high)
        while low <= high {
            let quality = (low + high) / 2
            let file = try ImageFileEncoder.jpeg(image, quality: quality)
            if abs(file.count - bytes) < abs(best.count - bytes) { best = file }
            if file.count > bytes { high = quality - 1 } else { low = quality + 1 }
        }
        return best
    }
}
