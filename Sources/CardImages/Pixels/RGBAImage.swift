/// A picture in memory: 8-bit red, green, blue and alpha per pixel, rows top to bottom.
public struct RGBAImage: Sendable, Hashable {
    /// Width in pixels (at least 1).
    public let width: Int
    /// Height in pixels (at least 1).
    public let height: Int
    /// `width * height * 4` bytes: R, G, B, A for each pixel, row by row.
    public internal(set) var pixels: [UInt8]

    /// An image of the given pixels.
    ///
    /// - Precondition: `width` and `height` are positive and `pixels` holds exactly
    ///   `width * height * 4` bytes (a programming error otherwise, never bad input: decoders
    ///   check sizes before building one).
    public init(width: Int, height: Int, pixels: [UInt8]) {
        precondition(width > 0 && height > 0 && pixels.count == width * height * 4, "RGBAImage size mismatch")
        self.width = width
        self.height = height
        self.pixels = pixels
    }

    /// An image of one colour.
    public init(width: Int, height: Int, filledWith color: RGBColor, alpha: UInt8 = 255) {
        var pixels = [UInt8](repeating: 0, count: width * height * 4)
        for index in stride(from: 0, to: pixels.count, by: 4) {
            pixels[index] = color.red
            pixels[index + 1] = color.green
            pixels[index + 2] = color.blue
            pixels[index + 3] = alpha
        }
        self.init(width: width, height: height, pixels: pixels)
    }

    /// The size in pixels.
    public var size: PixelSize { PixelSize(width: width, height: height) }

    /// The colour of the pixel at (`x`, `y`), alpha ignored.
    public func color(x: Int, y: Int) -> RGBColor {
        let index = (y * width + x) * 4
        return RGBColor(red: pixels[index], green: pixels[index + 1], blue: pixels[index + 2])
    }

    /// The alpha of the pixel at (`x`, `y`).
    public func alpha(x: Int, y: Int) -> UInt8 { pixels[(y * width + x) * 4 + 3] }

    /// Sets the pixel at (`x`, `y`).
    public mutating func setColor(_ color: RGBColor, x: Int, y: Int, alpha: UInt8 = 255) {
        let index = (y * width + x) * 4
        pixels[index] = color.red
        pixels[index + 1] = color.green
        pixels[index + 2] = color.blue
        pixels[index + 3] = alpha
    }

    /// Whether any pixel is not fully opaque.
    public var hasTransparency: Bool {
        stride(from: 3, to: pixels.count, by: 4).contains { pixels[$0] != 255 }
    }

    /// The image with every pixel blended over `background` and made opaque (for encoders
    /// that cannot carry alpha: sixel, half blocks).
    public func flattened(over background: RGBColor) -> RGBAImage {
        guard hasTransparency else { return self }
        var copy = self
        let back = [background.red, background.green, background.blue]
        copy.pixels.withUnsafeMutableBufferPointer { buffer in
            for index in stride(from: 0, to: buffer.count, by: 4) {
                let alpha = Int(buffer[index + 3])
                for channel in 0..<3 {
                    let value = Int(buffer[index + channel]) * alpha + Int(back[channel]) * (255 - alpha)
                    buffer[index + channel] = UInt8((value + 127) / 255)
                }
                buffer[index + 3] = 255
            }
        }
        return copy
    }
}

/// A size in pixels.
public struct PixelSize: Sendable, Hashable, CustomStringConvertible {
    /// Width in pixels.
    public var width: Int
    /// Height in pixels.
    public var height: Int

    /// A size.
    public init(width: Int, height: Int) {
        self.width = width
        self.height = height
    }

    /// `640×480`.
    public var description: String { "\(width)×\(height)" }
}

/// A 24-bit colour.
public struct RGBColor: Sendable, Hashable, CustomStringConvertible {
    /// Red, 0...255.
    public var red: UInt8
    /// Green, 0...255.
    public var green: UInt8
    /// Blue, 0...255.
    public var blue: UInt8

    /// A colour.
    public init(red: UInt8, green: UInt8, blue: UInt8) {
        self.red = red
        self.green = green
        self.blue = blue
    }

    /// Black.
    public static let black = RGBColor(red: 0, green: 0, blue: 0)
    /// White.
    public static let white = RGBColor(red: 255, green: 255, blue: 255)

    /// `#rrggbb`.
    public var description: String {
        "#"
            + [red, green, blue].map { value in
                let text = String(value, radix: 16)
                return text.count == 1 ? "0" + text : text
            }.joined()
    }
}
