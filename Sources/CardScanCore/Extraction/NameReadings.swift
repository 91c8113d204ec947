import CardModels

/// The choice of a Hangul name between two readings of one photo: the standard one (1,500
/// pixels) and a second one at a smaller scale (1,100 pixels, ``CardFieldExtractor/extract(from:nameReading:)``).
///
/// A name is the largest text on a card, two to three times the size of the rest. At the scale
/// that reads the small text best, Tesseract's Korean model loses large bold Hangul now and
/// then: a syllable dropped (`오승` for `오승현`), one misread (`이서면`), or the whole name
/// missed; at a smaller scale it reads those right but loses more of the small text. So the
/// second reading is asked for the name only, and its name is taken when:
/// - the first reading found no name on the card (none at all, or one made from the email);
/// - or the first reading's name is what the second took for the company, title or
///   department (a company's name taken for a person's, the name itself missed);
/// - or it holds the first's (a syllable lost in the first);
/// - or it was read with more confidence;
///
/// and never when it is what the first reading took for another field, when it is not 2–5
/// Hangul syllables, or when the first reading's name is in Latin letters.
enum NameReadings {
    /// A name one reading chose, and what it chose for the other fields taken from lines.
    struct Reading: Sendable, Equatable {
        /// The name, as the card would keep it.
        var name: String
        /// How sure the OCR was of its line; `nil` when it was not read on the card (made from
        /// the email).
        var confidence: Double?
        /// The company, title and department it chose.
        var others: [String]
    }

    /// Whether the second reading's name is to be taken.
    static func prefersSecond(first: Reading?, second: Reading) -> Bool {
        let b = key(second.name)
        guard second.confidence != nil, (2...5).contains(b.count), b.allSatisfy(\.isHangul) else { return false }
        guard let first, let firstConfidence = first.confidence, !first.name.isEmpty else { return true }
        let a = key(first.name)
        guard a != b, a.contains(where: \.isHangul) else { return false }
        if first.others.map(key).contains(b) { return false }
        if second.others.map(key).contains(a) { return true }
        if b.contains(a) { return true }
        if a.contains(b) { return false }
        return second.confidence! > firstConfidence
    }

    /// Text compared across readings: without spaces and the Korean company marks.
    static func key(_ text: String) -> String {
        var squashed = text.squashed
        for mark in ScanRules.hangulCompanyMarks { squashed = squashed.replacingAll(mark.lowercased(), with: "") }
        return squashed
    }
}

extension String {
    /// With every `target` replaced (the standard library has no such method without Foundation).
    fileprivate func replacingAll(_ target: String, with replacement: String) -> String {
        guard !target.isEmpty else { return self }
        var result = ""
        var rest = Substring(self)
        while let range = rest.firstRange(of: target) {
            result += rest[..<range.lowerBound] + replacement
            rest = rest[range.upperBound...]
        }
        return result + rest
    }
}
