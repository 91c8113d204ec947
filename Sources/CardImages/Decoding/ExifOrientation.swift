/// The Exif orientation of a photo (TIFF tag 0x0112): how the stored pixels must be turned to
/// be seen upright. Cameras store the sensor's rows and record the turn here.
///
/// Read by hand rather than with libexif: one tag of one IFD, a few dozen lines, and bounded
/// by the segment's length on every read (a hostile offset reads nothing, never past the end).
public enum ExifOrientation: Int, Sendable, Hashable, CaseIterable {
    /// Upright.
    case up = 1
    /// Mirrored left to right.
    case upMirrored = 2
    /// Upside down.
    case down = 3
    /// Mirrored top to bottom.
    case downMirrored = 4
    /// Mirrored along the top-left to bottom-right diagonal.
    case leftMirrored = 5
    /// Must be turned 90° clockwise.
    case right = 6
    /// Mirrored along the other diagonal.
    case rightMirrored = 7
    /// Must be turned 90° counter-clockwise.
    case left = 8

    /// Whether width and height swap.
    public var swapsSides: Bool { rawValue >= 5 }

    /// The orientation in an Exif segment's TIFF structure (the bytes after `Exif\0\0`), or
    /// `nil` when there is none or it cannot be read.
    public init?(tiff bytes: some Collection<UInt8>) {
        let data = Array(bytes)
        guard data.count >= 8 else { return nil }
        let littleEndian: Bool
        switch (data[0], data[1]) {
        case (0x49, 0x49): littleEndian = true
        case (0x4D, 0x4D): littleEndian = false
        default: return nil
        }
        func read16(_ offset: Int) -> Int? {
            guard offset >= 0, offset + 2 <= data.count else { return nil }
            let a = Int(data[offset])
            let b = Int(data[offset + 1])
            return littleEndian ? a | b << 8 : a << 8 | b
        }
        func read32(_ offset: Int) -> Int? {
            guard let low = read16(littleEndian ? offset : offset + 2),
                let high = read16(littleEndian ? offset + 2 : offset)
            else { return nil }
            return high << 16 | low
        }
        guard read16(2) == 42, let ifd = read32(4), let count = read16(ifd) else { return nil }
        for entry in 0..<min(count, 512) {
            let base = ifd + 2 + entry * 12
            guard let tag = read16(base) else { return nil }
            guard tag == 0x0112 else { continue }
            // Type SHORT (3) as the standard says, or LONG (4) as some writers store it; the
            // value sits at the start of the value field.
            let value: Int?
            switch read16(base + 2) {
            case 3: value = read16(base + 8)
            case 4: value = read32(base + 8)
            default: value = nil
            }
            guard let value else { return nil }
            self.init(rawValue: value)
            return
        }
        return nil
    }

    /// `image` turned upright.
    public func apply(to image: RGBAImage) -> RGBAImage {
        guard self != .up else { return image }
        let width = image.width
        let height = image.height
        let outWidth = swapsSides ? height : width
        let outHeight = swapsSides ? width : height
        var output = [UInt8](repeating: 0, count: image.pixels.count)
        image.pixels.withUnsafeBytes { source in
            let input = source.bindMemory(to: UInt32.self)
            output.withUnsafeMutableBytes { target in
                let out = target.bindMemory(to: UInt32.self)
                for y in 0..<outHeight {
                    for x in 0..<outWidth {
                        let (sx, sy): (Int, Int)
                        switch self {
                        case .up: (sx, sy) = (x, y)
                        case .upMirrored: (sx, sy) = (width - 1 - x, y)
                        case .down: (sx, sy) = (width - 1 - x, height - 1 - y)
                        case .downMirrored: (sx, sy) = (x, height - 1 - y)
                        case .leftMirrored: (sx, sy) = (y, x)
                        case .right: (sx, sy) = (y, height - 1 - x)
                        case .rightMirrored: (sx, sy) = (width - 1 - y, height - 1 - x)
                        case .left: (sx, sy) = (width - 1 - y, x)
                        }
                        out[y * outWidth + x] = input[sy * width + sx]
                    }
                }
            }
        }
        return RGBAImage(width: outWidth, height: outHeight, pixels: output)
    }
}
