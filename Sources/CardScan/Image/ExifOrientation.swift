import CardImages

/// Finding a photo file's EXIF orientation (CardImages' ``ExifOrientation``, which also reads
/// the TIFF structure) for the scanner.
///
/// Leptonica decodes the pixels as stored and ignores the tag, so ``read(from:)`` finds it
/// itself: a bounded walk over a JPEG's segments to its `APP1 Exif` one, or over a PNG's
/// chunks to its `eXIf` one, then CardImages reads the first IFD of the TIFF structure inside.
/// Every offset is checked against the bytes, so a damaged file gives `.up`, never a crash.
extension ExifOrientation {
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
        return tiff.flatMap { ExifOrientation(tiff: $0) } ?? .up
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
}
