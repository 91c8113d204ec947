package import CTesseract

/// How the scanner prepares and reads a photo. The standard values are the ones
/// `cardwallet-bench scan` measured best (docs/BENCHMARKS.md); the others exist to be compared.
package struct ScanTuning: Sendable, Equatable {
    /// The image steps before Tesseract.
    package var preparation: PreparationOptions
    /// Tesseract's page segmentation: sparse text (11) finds a card's scattered lines best.
    package var pageSegmentation: TessPageSegMode
    /// Tesseract parameters set after it starts (`thresholding_method`, …).
    package var variables: [String: String]
    /// The long side of a second reading of a photo with Hangul text, for its name only
    /// (`NameReadings`: large Hangul reads better smaller); `nil` for none.
    package var nameReadingLongSide: Int?

    /// What the scanner uses.
    package static let standard = ScanTuning(
        preparation: .standard, pageSegmentation: PSM_SPARSE_TEXT, variables: [:], nameReadingLongSide: 1100)

    package init(
        preparation: PreparationOptions, pageSegmentation: TessPageSegMode, variables: [String: String] = [:],
        nameReadingLongSide: Int? = nil
    ) {
        self.preparation = preparation
        self.pageSegmentation = pageSegmentation
        self.variables = variables
        self.nameReadingLongSide = nameReadingLongSide
    }
}
