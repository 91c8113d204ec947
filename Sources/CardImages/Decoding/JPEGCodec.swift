import CJPEG

/// JPEG through libjpeg-turbo. Every libjpeg call that may fail runs inside the C functions of
/// `Sources/CJPEG/shim.h`, which set their own `setjmp` point, so libjpeg's error `longjmp`
/// never crosses a Swift frame; this type sees return codes and copies.
///
/// Owns the `cjpeg_decoder` for the length of each call (destroyed on every way out).
enum JPEGCodec {
    /// What the header says.
    struct Header {
        /// The stored size (before the Exif turn).
        var storedSize: PixelSize
        /// The Exif orientation (`.up` when absent).
        var orientation: ExifOrientation
        /// The size as seen.
        var size: PixelSize {
            orientation.swapsSides ? PixelSize(width: storedSize.height, height: storedSize.width) : storedSize
        }
    }

    /// Reads the header only.
    static func header(of bytes: UnsafeRawBufferPointer, limits: DecodeLimits) throws(ImageDecodeError) -> Header {
        let decoder = try Decoder(limits: limits)
        return try decoder.readHeader(bytes, limits: limits)
    }

    /// Decodes to RGBA, upright. When `atLeast` is given (in upright orientation), libjpeg
    /// decodes at the smallest of its 1/8…8/8 scales that is still at least that large — a
    /// 3000×2000 photo for a 60-column box is decoded at 1/8 size, eight times less work.
    static func decode(
        _ bytes: UnsafeRawBufferPointer, limits: DecodeLimits, atLeast: PixelSize?
    ) throws(ImageDecodeError) -> RGBAImage {
        let decoder = try Decoder(limits: limits)
        let header = try decoder.readHeader(bytes, limits: limits)
        try limits.check(header.storedSize)
        var scale = 8
        if let wanted = atLeast {
            let stored = header.orientation.swapsSides ? PixelSize(width: wanted.height, height: wanted.width) : wanted
            scale =
                (1...8).first { n in
                    (header.storedSize.width * n + 7) / 8 >= stored.width
                        && (header.storedSize.height * n + 7) / 8 >= stored.height
                } ?? 8
        }
        let image = try decoder.decode(scale: scale)
        return header.orientation.apply(to: image)
    }

    /// Compresses `image` (alpha dropped) at `quality` 1...100, with an optional APP1 segment
    /// (`Exif\0\0` and a TIFF structure) — for test fixtures, benchmarks and iTerm2 payloads.
    static func encode(_ image: RGBAImage, quality: Int, app1: [UInt8]? = nil) throws(ImageEncodeError) -> [UInt8] {
        var output: UnsafeMutablePointer<UInt8>?
        var length: UInt = 0
        var message = [CChar](repeating: 0, count: 200)
        let status = image.pixels.withUnsafeBufferPointer { pixels in
            message.withUnsafeMutableBufferPointer { text in
                if let app1 {
                    return app1.withUnsafeBufferPointer { segment in
                        cjpeg_encode_rgba(
                            pixels.baseAddress, UInt32(image.width), UInt32(image.height), Int32(quality),
                            segment.baseAddress, UInt32(segment.count), &output, &length, text.baseAddress, text.count)
                    }
                }
                return cjpeg_encode_rgba(
                    pixels.baseAddress, UInt32(image.width), UInt32(image.height), Int32(quality),
                    nil, 0, &output, &length, text.baseAddress, text.count)
            }
        }
        defer { cjpeg_free(output) }
        guard status == 0, let output else {
            throw ImageEncodeError(
                "libjpeg: \(String(decoding: message.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self))")
        }
        return Array(UnsafeBufferPointer(start: output, count: Int(length)))
    }

    /// One libjpeg decompressor; the bytes it reads must outlive it (callers decode inside one
    /// `withUnsafeBytes`).
    private final class Decoder {
        private let handle: UnsafeMutablePointer<cjpeg_decoder>

        init(limits: DecodeLimits) throws(ImageDecodeError) {
            guard let handle = cjpeg_decoder_create(Int32(limits.maximumScans)) else {
                throw ImageDecodeError(.outOfMemory, "There is not enough memory to decode the image.")
            }
            self.handle = handle
        }

        deinit { cjpeg_decoder_destroy(handle) }

        func readHeader(_ bytes: UnsafeRawBufferPointer, limits: DecodeLimits) throws(ImageDecodeError) -> Header {
            let base = bytes.baseAddress?.assumingMemoryBound(to: UInt8.self)
            guard cjpeg_read_header(handle, base, UInt(bytes.count), limits.maximumDecoderMemory) == 0 else {
                throw failure()
            }
            var exifLength: UInt32 = 0
            var orientation = ExifOrientation.up
            if let exif = cjpeg_exif(handle, &exifLength) {
                orientation = ExifOrientation(tiff: UnsafeBufferPointer(start: exif, count: Int(exifLength))) ?? .up
            }
            let stored = PixelSize(width: Int(cjpeg_image_width(handle)), height: Int(cjpeg_image_height(handle)))
            return Header(storedSize: stored, orientation: orientation)
        }

        func decode(scale: Int) throws(ImageDecodeError) -> RGBAImage {
            var width: UInt32 = 0
            var height: UInt32 = 0
            guard cjpeg_start(handle, Int32(scale), &width, &height) == 0 else { throw failure() }
            guard width > 0, height > 0 else { throw .corrupt("JPEG", "no pixels") }
            var pixels = [UInt8](repeating: 0, count: Int(width) * Int(height) * 4)
            let status = pixels.withUnsafeMutableBufferPointer { cjpeg_read(handle, $0.baseAddress) }
            guard status == 0 else { throw failure() }
            return RGBAImage(width: Int(width), height: Int(height), pixels: pixels)
        }

        private func failure() -> ImageDecodeError {
            let text = String(cString: cjpeg_decoder_message(handle))
            if text.contains("Insufficient memory") || text.contains("Backing store") {
                return ImageDecodeError(.outOfMemory, "The JPEG image needs more memory to decode than is allowed.")
            }
            return .corrupt("JPEG", text)
        }
    }
}
