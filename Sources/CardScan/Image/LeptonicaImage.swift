import CTesseract
import CardImages

/// An image in Leptonica's memory, owned by this object and freed with it.
///
/// Every operation returns a new image (Leptonica's functions copy), so an instance never
/// changes after it is made; nothing outside this file sees a `PIX` pointer except
/// ``TesseractEngine``, which borrows it for the length of one call. Not `Sendable`: an image
/// lives on the thread that scans it.
final class LeptonicaImage {
    /// The owned pixels.
    let pix: UnsafeMutablePointer<PIX>

    /// Takes ownership of `pix`; `nil` when Leptonica returned nothing.
    init?(owning pix: UnsafeMutablePointer<PIX>?) {
        guard let pix else { return nil }
        self.pix = pix
    }

    deinit {
        var pointer: UnsafeMutablePointer<PIX>? = pix
        pixDestroy(&pointer)
    }

    /// Decodes a PNG or JPEG file's bytes (Leptonica calls libpng and libjpeg, whose warnings
    /// about damaged files are kept off the terminal), or `nil` when they are not an image
    /// Leptonica can read.
    static func decode(_ bytes: [UInt8]) -> LeptonicaImage? {
        QuietStandardError.run {
            bytes.withUnsafeBufferPointer { buffer in
                LeptonicaImage(owning: pixReadMem(buffer.baseAddress, buffer.count))
            }
        }
    }

    /// The width, height and bits per pixel an image file's header declares, read without
    /// decoding its pixels, or `nil` when the header is not one Leptonica knows.
    static func header(of bytes: [UInt8]) -> (width: Int, height: Int)? {
        var format: Int32 = 0
        var width: Int32 = 0
        var height: Int32 = 0
        var bitsPerSample: Int32 = 0
        var samplesPerPixel: Int32 = 0
        var hasColormap: Int32 = 0
        let status = QuietStandardError.run {
            bytes.withUnsafeBufferPointer { buffer in
                pixReadHeaderMem(
                    buffer.baseAddress, buffer.count, &format, &width, &height, &bitsPerSample, &samplesPerPixel,
                    &hasColormap)
            }
        }
        guard status == 0, width > 0, height > 0 else { return nil }
        return (Int(width), Int(height))
    }

    /// The width in pixels.
    var width: Int { Int(pixGetWidth(pix)) }
    /// The height in pixels.
    var height: Int { Int(pixGetHeight(pix)) }
    /// Bits per pixel: 1, 2, 4, 8, 16 or 32.
    var depth: Int { Int(pixGetDepth(pix)) }

    /// Turned upright as an EXIF orientation says (1–8; anything else leaves it as it is).
    func oriented(_ orientation: ExifOrientation) -> LeptonicaImage? {
        switch orientation {
        case .up: return self
        case .upMirrored: return LeptonicaImage(owning: pixFlipLR(nil, pix))
        case .down: return LeptonicaImage(owning: pixRotateOrth(pix, 2))
        case .downMirrored: return LeptonicaImage(owning: pixFlipTB(nil, pix))
        case .leftMirrored: return LeptonicaImage(owning: pixRotateOrth(pix, 1))?.flippedLeftRight()
        case .right: return LeptonicaImage(owning: pixRotateOrth(pix, 1))
        case .rightMirrored: return LeptonicaImage(owning: pixRotateOrth(pix, 3))?.flippedLeftRight()
        case .left: return LeptonicaImage(owning: pixRotateOrth(pix, 3))
        }
    }

    private func flippedLeftRight() -> LeptonicaImage? {
        LeptonicaImage(owning: pixFlipLR(nil, pix))
    }

    /// 8-bit grey: colour by luminance, alpha removed (over white), colormaps expanded.
    func grey() -> LeptonicaImage? {
        if depth == 8, pixGetColormap(pix) == nil { return self }
        if depth == 32 {
            // A PNG with transparency would otherwise show its hidden colour under the alpha.
            let opaque = pixGetSpp(pix) == 4 ? LeptonicaImage(owning: pixRemoveAlpha(pix)) : self
            return opaque.flatMap { LeptonicaImage(owning: pixConvertRGBToLuminance($0.pix)) }
        }
        return LeptonicaImage(owning: pixConvertTo8(pix, 0))
    }

    /// Scaled by `factor` (area-mapped when shrinking, linear interpolation when growing).
    func scaled(by factor: Double) -> LeptonicaImage? {
        if abs(factor - 1) < 0.01 { return self }
        let f = Float(factor)
        return LeptonicaImage(owning: factor < 1 ? pixScaleAreaMap(pix, f, f) : pixScaleGrayLI(pix, f, f))
    }

    /// 8-bit grey or 32-bit colour without alpha or colormap: what JPEG can hold.
    func jpegReady() -> LeptonicaImage? {
        if depth == 8 || depth == 32, pixGetColormap(pix) == nil, pixGetSpp(pix) != 4 { return self }
        if depth == 32 { return LeptonicaImage(owning: pixRemoveAlpha(pix)) }
        return LeptonicaImage(owning: pixConvertTo32(pix))
    }

    /// Scaled down by `factor` (< 1), colour kept.
    func shrunk(by factor: Double) -> LeptonicaImage? {
        LeptonicaImage(owning: pixScaleAreaMap(pix, Float(factor), Float(factor)))
    }

    /// The image as a JPEG file's bytes (`quality` 1–100), or `nil` when Leptonica cannot
    /// encode it.
    func jpegData(quality: Int) -> [UInt8]? {
        var data: UnsafeMutablePointer<UInt8>?
        var size = 0
        guard QuietStandardError.run({ pixWriteMemJpeg(&data, &size, pix, Int32(quality), 0) }) == 0, let data else {
            return nil
        }
        defer { lept_free(data) }
        return Array(UnsafeBufferPointer(start: data, count: size))
    }

    /// Uneven lighting and tinted card stock flattened to a white background (8-bit grey in,
    /// 8-bit grey out), so one global threshold separates ink from paper.
    func backgroundNormalised() -> LeptonicaImage? {
        LeptonicaImage(owning: pixBackgroundNormSimple(pix, nil, nil))
    }

    /// Rotated so that text lines are level, with the angle found (degrees) and Leptonica's
    /// confidence in it; the image itself when no skew was found.
    func deskewed() -> (image: LeptonicaImage, angle: Double)? {
        var angle: Float = 0
        var confidence: Float = 0
        guard let result = LeptonicaImage(owning: pixFindSkewAndDeskew(pix, 2, &angle, &confidence)) else {
            return nil
        }
        return (result, Double(angle))
    }
}
