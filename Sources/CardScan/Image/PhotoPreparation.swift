import CardScanCore

/// How a photo is prepared for Tesseract: turned upright, made grey, brought to the text size
/// Tesseract reads best, its background flattened and its lines levelled. Each step can be
/// switched off, so `cardwallet-bench scan` can measure what each one is worth.
package struct PreparationOptions: Sendable, Equatable {
    /// The long side, in pixels, the photo is scaled to: a card filling the frame then has its
    /// smallest text 25–35 pixels high, where Tesseract's LSTM model reads best, and a 12 MP
    /// phone photo shrinks to a size that reads in well under a second.
    package var longSide: Int
    /// Flattens tinted stock and uneven light (Leptonica's `pixBackgroundNormSimple`).
    package var normaliseBackground: Bool
    /// Levels the lines (Leptonica's `pixFindSkewAndDeskew`).
    package var deskew: Bool

    /// The options the scanner uses (measured in docs/BENCHMARKS.md).
    package static let standard = PreparationOptions(longSide: 1500, normaliseBackground: true, deskew: true)

    package init(longSide: Int, normaliseBackground: Bool, deskew: Bool) {
        self.longSide = longSide
        self.normaliseBackground = normaliseBackground
        self.deskew = deskew
    }
}

/// The image Tesseract gets, and what was done to get it.
struct PreparedPhoto {
    /// Upright, grey, scaled, flattened and levelled as the options say.
    let image: LeptonicaImage
    /// The factor the decoded photo was scaled by.
    let scale: Double
    /// The skew corrected, in degrees.
    let skew: Double
}

extension PhotoFile {
    /// Decodes the photo and prepares it for Tesseract.
    ///
    /// - Throws: ``CardScanError/damagedImage(path:kind:)`` when Leptonica cannot decode it,
    ///   ``CardScanError/engineFailed(_:)`` when a Leptonica step fails (out of memory).
    func prepared(_ options: PreparationOptions, path: String) throws(CardScanError) -> PreparedPhoto {
        guard let decoded = LeptonicaImage.decode(bytes) else {
            throw .damagedImage(path: path, kind: kind.rawValue.uppercased())
        }
        guard let upright = decoded.oriented(orientation), let grey = upright.grey() else {
            throw .engineFailed("Leptonica could not turn or convert the image")
        }
        let longest = max(grey.width, grey.height)
        let scale = min(4, max(0.1, Double(options.longSide) / Double(max(1, longest))))
        guard var image = grey.scaled(by: scale) else { throw .engineFailed("Leptonica could not scale the image") }
        if options.normaliseBackground, let flattened = image.backgroundNormalised() {
            image = flattened
        }
        var skew = 0.0
        if options.deskew, let levelled = image.deskewed() {
            image = levelled.image
            skew = levelled.angle
        }
        return PreparedPhoto(image: image, scale: scale, skew: skew)
    }
}
