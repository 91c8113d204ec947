@testable import CardImages

/// Pictures made in the tests, so no binary fixtures are kept.
enum TestImages {
    static let red = RGBColor(red: 255, green: 0, blue: 0)
    static let green = RGBColor(red: 0, green: 200, blue: 0)
    static let blue = RGBColor(red: 0, green: 0, blue: 255)
    static let yellow = RGBColor(red: 255, green: 220, blue: 0)

    /// Four flat quadrants: red, green / blue, yellow.
    static func quadrants(width: Int, height: Int) -> RGBAImage {
        var image = RGBAImage(width: width, height: height, filledWith: .black)
        for y in 0..<height {
            for x in 0..<width {
                let color = y < height / 2 ? (x < width / 2 ? red : green) : (x < width / 2 ? blue : yellow)
                image.setColor(color, x: x, y: y)
            }
        }
        return image
    }

    /// A smooth gradient with some texture: many colours, like a photo.
    static func gradient(width: Int, height: Int) -> RGBAImage {
        var image = RGBAImage(width: width, height: height, filledWith: .black)
        for y in 0..<height {
            for x in 0..<width {
                let r = UInt8(x * 255 / max(1, width - 1))
                let g = UInt8(y * 255 / max(1, height - 1))
                let b = UInt8((x * 7 + y * 13) % 256)
                image.setColor(RGBColor(red: r, green: g, blue: b), x: x, y: y)
            }
        }
        return image
    }

    static func png(_ image: RGBAImage) throws -> [UInt8] { try ImageFileEncoder.png(image) }

    static func jpeg(_ image: RGBAImage, quality: Int = 92, orientation: Int? = nil) throws -> [UInt8] {
        try ImageFileEncoder.jpeg(image, quality: quality, app1: orientation.map(exifSegment))
    }

    /// An APP1 payload: `Exif\0\0`, a big-endian TIFF header and one IFD holding the orientation.
    static func exifSegment(orientation: Int) -> [UInt8] {
        var bytes: [UInt8] = Array("Exif".utf8) + [0, 0]
        bytes += [0x4D, 0x4D, 0x00, 0x2A, 0x00, 0x00, 0x00, 0x08]  // MM, 42, IFD at 8
        bytes += [0x00, 0x01]  // one entry
        bytes += [0x01, 0x12, 0x00, 0x03, 0x00, 0x00, 0x00, 0x01, 0x00, UInt8(orientation), 0x00, 0x00]
        bytes += [0x00, 0x00, 0x00, 0x00]  // no next IFD
        return bytes
    }

    /// The colours differ by at most `tolerance` in every channel.
    static func close(_ a: RGBColor, _ b: RGBColor, tolerance: Int) -> Bool {
        abs(Int(a.red) - Int(b.red)) <= tolerance && abs(Int(a.green) - Int(b.green)) <= tolerance
            && abs(Int(a.blue) - Int(b.blue)) <= tolerance
    }

    /// A deterministic generator (SplitMix64), so fuzzing is the same on every run.
    struct SeededGenerator: RandomNumberGenerator {
        var state: UInt64
        mutating func next() -> UInt64 {
            state &+= 0x9E37_79B9_7F4A_7C15
            var z = state
            z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
            z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
            return z ^ (z >> 31)
        }
    }
}
