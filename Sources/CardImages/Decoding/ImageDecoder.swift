import CardModels

/// Decodes card images (PNG and JPEG, recognised by their first bytes) within ``DecodeLimits``.
///
/// Every failure is an ``ImageDecodeError`` with one readable sentence: an empty file, another
/// format, too many bytes or pixels, damaged or truncated data. Never a crash.
public enum ImageDecoder {
    /// The size an image will have once upright, from its header alone (cheap: no pixels).
    ///
    /// - Throws: ``ImageDecodeError``.
    public static func size(of bytes: [UInt8], limits: DecodeLimits = .standard) throws(ImageDecodeError) -> PixelSize {
        let format = try check(bytes, limits: limits)
        return try withBytes(bytes) { buffer throws(ImageDecodeError) in
            switch format {
            case .png: try PNGCodec.size(of: buffer)
            case .jpeg: try JPEGCodec.header(of: buffer, limits: limits).size
            }
        }
    }

    /// Decodes `bytes` to an upright RGBA image.
    ///
    /// - Parameters:
    ///   - bytes: a PNG or JPEG file.
    ///   - limits: the caps on bytes, pixels, memory and scans.
    ///   - atLeast: the smallest size the caller will scale to; a JPEG is then decoded at a
    ///     reduced scale (1/8 to 8/8) that is still at least this large. `nil` for full size.
    /// - Throws: ``ImageDecodeError``.
    public static func decode(
        _ bytes: [UInt8], limits: DecodeLimits = .standard, atLeast: PixelSize? = nil
    ) throws(ImageDecodeError) -> RGBAImage {
        let format = try check(bytes, limits: limits)
        return try withBytes(bytes) { buffer throws(ImageDecodeError) in
            switch format {
            case .png: try PNGCodec.decode(buffer, limits: limits)
            case .jpeg: try JPEGCodec.decode(buffer, limits: limits, atLeast: atLeast)
            }
        }
    }

    private static func check(_ bytes: [UInt8], limits: DecodeLimits) throws(ImageDecodeError) -> CardImageFormat {
        guard !bytes.isEmpty else { throw .empty }
        guard bytes.count <= limits.maximumBytes else { throw .tooManyBytes(bytes.count, limit: limits.maximumBytes) }
        guard let format = CardImageFormat(sniffing: bytes.prefix(8)) else { throw .unknownFormat }
        return format
    }

    private static func withBytes<T>(
        _ bytes: [UInt8], _ body: (UnsafeRawBufferPointer) throws(ImageDecodeError) -> T
    ) throws(ImageDecodeError) -> T {
        let result: Result<T, ImageDecodeError> = bytes.withUnsafeBytes { buffer in
            do throws(ImageDecodeError) { return .success(try body(buffer)) } catch { return .failure(error) }
        }
        return try result.get()
    }
}

/// Encoders of image files (PNG through libpng, JPEG through libjpeg-turbo).
public enum ImageFileEncoder {
    /// A PNG file of `image` (RGBA, 8 bits a channel).
    ///
    /// - Parameter fast: favour speed over size (for payloads written to a terminal at once).
    public static func png(_ image: RGBAImage, fast: Bool = false) throws(ImageEncodeError) -> [UInt8] {
        try PNGCodec.encode(image, fast: fast)
    }

    /// A JPEG file of `image` (alpha dropped) at `quality` 1...100, with an optional APP1
    /// segment (`Exif\0\0` followed by a TIFF structure) written first.
    public static func jpeg(_ image: RGBAImage, quality: Int = 85, app1: [UInt8]? = nil) throws(ImageEncodeError)
        -> [UInt8]
    {
        try JPEGCodec.encode(image, quality: quality, app1: app1)
    }
}
