import CPNG

/// PNG through libpng's simplified API (`png_image_*`), which catches libpng's own errors
/// (its setjmp is inside libpng) and reports them as text: nothing here can longjmp.
///
/// Owns the `png_image` control structure for the length of each call and frees it on every
/// way out; nothing outside this type sees a libpng pointer.
enum PNGCodec {
    /// The size of the PNG in `bytes`, read from its header without decoding the pixels.
    static func size(of bytes: UnsafeRawBufferPointer) throws(ImageDecodeError) -> PixelSize {
        var image = newImage()
        defer { png_image_free(&image) }
        guard png_image_begin_read_from_memory(&image, bytes.baseAddress, bytes.count) != 0 else {
            throw .corrupt("PNG", message(of: image))
        }
        return PixelSize(width: Int(image.width), height: Int(image.height))
    }

    /// Decodes a PNG to 8-bit RGBA (palette, grey, 16-bit and transparency converted by libpng).
    static func decode(_ bytes: UnsafeRawBufferPointer, limits: DecodeLimits) throws(ImageDecodeError) -> RGBAImage {
        var image = newImage()
        defer { png_image_free(&image) }
        guard png_image_begin_read_from_memory(&image, bytes.baseAddress, bytes.count) != 0 else {
            throw .corrupt("PNG", message(of: image))
        }
        let size = PixelSize(width: Int(image.width), height: Int(image.height))
        try limits.check(size)
        image.format = cpng_format_rgba()
        var pixels = [UInt8](repeating: 0, count: size.width * size.height * 4)
        let finished = pixels.withUnsafeMutableBytes { buffer in
            png_image_finish_read(&image, nil, buffer.baseAddress, 0, nil)
        }
        guard finished != 0 else { throw .corrupt("PNG", message(of: image)) }
        return RGBAImage(width: size.width, height: size.height, pixels: pixels)
    }

    /// An 8-bit RGBA PNG of `image`. `fast` trades size for speed (libpng's
    /// `PNG_IMAGE_FLAG_FAST`), for payloads written to a terminal at once.
    static func encode(_ image: RGBAImage, fast: Bool) throws(ImageEncodeError) -> [UInt8] {
        try write(image.pixels, width: image.width, height: image.height, format: cpng_format_rgba(), fast: fast)
    }

    /// An 8-bit greyscale PNG of `gray` (one byte a pixel).
    static func encodeGray(_ gray: [UInt8], width: Int, height: Int) throws(ImageEncodeError) -> [UInt8] {
        try write(gray, width: width, height: height, format: cpng_format_gray(), fast: false)
    }

    private static func write(
        _ pixels: [UInt8], width: Int, height: Int, format: png_uint_32, fast: Bool
    ) throws(ImageEncodeError) -> [UInt8] {
        var image = newImage()
        defer { png_image_free(&image) }
        image.width = png_uint_32(width)
        image.height = png_uint_32(height)
        image.format = format
        if fast { image.flags |= cpng_flag_fast() }
        // The first call measures, the second writes.
        var size = 0
        let measured = pixels.withUnsafeBytes { buffer in
            png_image_write_to_memory(&image, nil, &size, 0, buffer.baseAddress, 0, nil)
        }
        guard measured != 0, size > 0 else { throw ImageEncodeError("libpng: \(message(of: image))") }
        var output = [UInt8](repeating: 0, count: size)
        let written = output.withUnsafeMutableBytes { out in
            pixels.withUnsafeBytes { buffer in
                png_image_write_to_memory(&image, out.baseAddress, &size, 0, buffer.baseAddress, 0, nil)
            }
        }
        guard written != 0 else { throw ImageEncodeError("libpng: \(message(of: image))") }
        return Array(output.prefix(size))
    }

    private static func newImage() -> png_image {
        var image = png_image()
        image.version = cpng_image_version()
        return image
    }

    private static func message(of image: png_image) -> String {
        withUnsafeBytes(of: image.message) { raw in
            String(decoding: raw.prefix { $0 != 0 }, as: UTF8.self)
        }
    }
}

/// An image could not be encoded (out of memory, or a library refusal).
public struct ImageEncodeError: Error, Sendable, Hashable, CustomStringConvertible {
    /// What happened.
    public let description: String

    init(_ description: String) { self.description = description }
}
