/// The languages the OCR reads, as Tesseract names them: `eng`, `kor`, or several joined by
/// `+` (`eng+kor`), the first one leading.
public struct OCRLanguages: Sendable, Equatable, Hashable, CustomStringConvertible {
    /// The language codes, in order, without repeats.
    public let codes: [String]

    /// Korean leading, then English: what the scanner reads by default. Korean first reads 3 %
    /// more names and 2 % more companies than `eng+kor`, English cards as well, for 10 % more
    /// time (docs/BENCHMARKS.md §7).
    public static let standard = OCRLanguages(validated: ["kor", "eng"])
    /// English alone.
    public static let english = OCRLanguages(validated: ["eng"])

    private init(validated codes: [String]) {
        self.codes = codes
    }

    /// Parses `eng`, `kor`, `eng+kor`…: codes of letters, digits and `_` (Tesseract's
    /// `chi_sim` style), joined by `+`.
    ///
    /// - Throws: ``CardScanError/invalidLanguages(_:)`` for anything else (`eng,kor`, `../x`).
    public init(parsing text: String) throws(CardScanError) {
        let parts = text.split(separator: "+", omittingEmptySubsequences: false).map(String.init)
        guard !parts.isEmpty, parts.count <= 8 else { throw .invalidLanguages(text) }
        var codes: [String] = []
        for part in parts {
            let valid =
                !part.isEmpty && part.count <= 32
                && part.unicodeScalars.allSatisfy {
                    ("a"..."z").contains($0) || ("A"..."Z").contains($0) || ("0"..."9").contains($0) || $0 == "_"
                }
            guard valid else { throw .invalidLanguages(text) }
            if !codes.contains(part) { codes.append(part) }
        }
        self.codes = codes
    }

    /// The name Tesseract takes: the codes joined by `+`.
    public var tesseractName: String { codes.joined(separator: "+") }

    /// Whether Korean is among them.
    public var includesKorean: Bool { codes.contains("kor") || codes.contains("kor_vert") }

    public var description: String { tesseractName }
}
