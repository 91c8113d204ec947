/// How a photo's stored pixels must be turned to stand upright: the EXIF `Orientation` tag
/// (0x0112) a phone camera writes instead of rotating the pixels.
///
/// Leptonica decodes the pixels as stored and ignores the tag, so ``read(from:)`` finds it
/// itself: a bounded walk over a JPEG's segments to its `APP1 Exif` one, or over a PNG's
/// chunks to its `eXIf` one, then the first IFD of the TIFF structure inside. Written here
/// rather than taken from a library because it is one tag, and libexif would be a second C
/// dependency for it; every offset is checked against the bytes, so a damaged file gives
/// `.up`, never a crash.
enum ExifOrientation: Int, Sendable, Equatable, CaseIterable {
    /// As stored.
    case up = 1
    /// Mirrored left to right.
    case upMirrored = 2
    /// Upside down (turn 180°).
    case down = 3
    /// Mirrored top to bottom.
    case downMirrored = 4
    /// Mirrored along the top-left to bottom-right diagonal.
    case leftMirrored = 5
    /// Turn 90° clockwise to see it upright.
    case right = 6
    /// Mirrored along the other diagonal.
    case rightMirrored = 7
    /// Turn 90° anticlockwise to see it upright.
    case left = 8

    /// The most segments or chunks looked at before giving up: the tag sits near the start.
    static let walkLimit = 256

    /// The orientation a JPEG or PNG file's bytes declare; `.up` when they declare none (or
    /// the declaration is damaged).
    static func read(from bytes: [UInt8]) -> ExifOrientation {
        let tiff: ArraySlice<UInt8>?
        if bytes.starts(with: [0xFF, 0xD8]) {
            tiff = jpegExif(bytes)
        } else if bytes.starts(with: PhotoKind.pngSignature) {
            tiff = pngExif(bytes)
        } else {
            tiff = nil
        }
        return tiff.flatMap(orientation(inTIFF:)) ?? .up
    }

    /// The TIFF structure of a JPEG's `APP1` segment that starts with `Exif\0\0`.
    static func jpegExif(_ bytes: [UInt8]) -> ArraySlice<UInt8>? {
        var index = 2
        for _ in 0..<walkLimit {
            guard index + 4 <= bytes.count, bytes[index] == 0xFF else { return nil }
            let marker = bytes[index + 1]
            if marker == 0xFF {  // fill byte
                index += 1
                continue
            }
            if marker == 0xD8 || marker == 0x01 || (0xD0...0xD7).contains(marker) {
                index += 2
                continue
            }
            // Start of scan or end of image: the metadata segments are all before them.
            if marker == 0xDA || marker == 0xD9 { return nil }
            let length = Int(bytes[index + 2]) << 8 | Int(bytes[index + 3])
            let start = index + 4
            let end = index + 2 + length
            guard length >= 2, end <= bytes.count else { return nil }
            if marker == 0xE1, end - start > 6, bytes[start..<start + 6].elementsEqual(Array("Exif\0\0".utf8)) {
                return bytes[(start + 6)..<end]
            }
            index = end
        }
        return nil
    }

    /// The TIFF structure of a PNG's `eXIf` chunk.
    static func pngExif(_ bytes: [UInt8]) -> ArraySlice<UInt8>? {
        var index = PhotoKind.pngSignature.count
        for _ in 0..<walkLimit {
            guard index + 8 <= bytes.count else { return nil }
            let length = bytes[index..<index + 4].reduce(0) { $0 << 8 | Int($1) }
            let type = String(decoding: bytes[(index + 4)..<(index + 8)], as: UTF8.self)
            let start = index + 8
            guard length >= 0, length <= bytes.count - start else { return nil }
            if type == "eXIf" { return bytes[start..<(start + length)] }
            if type == "IEND" { return nil }
            index = start + length + 4  // data and CRC
        }
        return nil
    }

    /// The `Orientation` entry of a TIFF structure's first IFD.
    static func orientation(inTIFF tiff: ArraySlice<UInt8>) -> ExifOrientation? {
        let bytes = Array(tiff)
        guard bytes.count >= 8 else { return nil }
        let littleEndian: Bool
        switch (bytes[0], bytes[1]) {
        case (0x49, 0x49): littleEndian = true  // "II"
        case (0x4D, 0x4D): littleEndian = false  // "MM"
        default: return nil
        }
        func uint(_ offset: Int, _ size: Int) -> Int? {
            guard offset >= 0, offset + size <= bytes.count else { return nil }
            let slice = bytes[offset..<offset + size]
            return (littleEndian ? slice.reversed() : Array(slice)).reduce(0) { $0 << 8 | Int($1) }
        }
        guard uint(2, 2) == 42, let ifd = uint(4, 4), let count = uint(ifd, 2) else { return nil }
        for entry in 0..<min(count, 512) {
            let offset = ifd + 2 + entry * 12
            guard let tag = uint(offset, 2), let type = uint(offset + 2, 2) else { return nil }
            guard tag == 0x0112 else { continue }
            // SHORT (3) as the standard says; some writers use LONG (4).
            let value = type == 4 ? uint(offset + 8, 4) : uint(offset + 8, 2)
            return value.flatMap(ExifOrientation.init(rawValue:))
        }
        return nil
    }
}
