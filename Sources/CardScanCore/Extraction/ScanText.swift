/// Small text questions the extraction asks, on `String` and `Character`.
extension Character {
    /// A Hangul syllable (가–힣) or jamo.
    var isHangul: Bool {
        unicodeScalars.contains {
            (0xAC00...0xD7A3).contains($0.value) || (0x1100...0x11FF).contains($0.value)
                || (0x3130...0x318F).contains($0.value)
        }
    }

    /// An ASCII digit.
    var isDigit: Bool { isASCII && isNumber }
}

extension String {
    /// Lower-cased, without the `:`, `.`, `,` and `;` that OCR and printers put after labels
    /// and legal forms (`Tel:` → `tel`, `Inc.` → `inc`), for looking words up in ``ScanRules``.
    var ruleKey: String {
        var text = Substring(lowercased())
        while let last = text.last, ":.,;".contains(last) { text.removeLast() }
        while let first = text.first, ":".contains(first) { text.removeFirst() }
        return String(text)
    }

    /// Without whitespace, lower-cased: for comparing text across OCR's spacing.
    var squashed: String { lowercased().filter { !$0.isWhitespace } }

    /// Latin letters without their accents, lower-cased, other characters dropped: `Lucía` →
    /// `lucia`. For comparing a name with an email's local part.
    var foldedLetters: String {
        var result = ""
        for scalar in lowercased().latinFoldedScalars where scalar.isASCII {
            let character = Character(scalar)
            if character.isLetter { result.append(character) }
        }
        return result
    }

    /// The scalars with accented Latin letters replaced by their base letters.
    private var latinFoldedScalars: [Unicode.Scalar] {
        var scalars: [Unicode.Scalar] = []
        for scalar in unicodeScalars {
            if let decomposed = LatinFolding.base[scalar] {
                scalars.append(decomposed)
            } else {
                scalars.append(scalar)
            }
        }
        return scalars
    }

    /// How many characters are letters.
    var letterCount: Int { reduce(0) { $0 + ($1.isLetter ? 1 : 0) } }
    /// How many characters are ASCII digits.
    var digitCount: Int { reduce(0) { $0 + ($1.isDigit ? 1 : 0) } }
    /// How many characters are Hangul.
    var hangulCount: Int { reduce(0) { $0 + ($1.isHangul ? 1 : 0) } }

    /// Whether the word starts with a capital letter (`Acme`, `ACME`, `McCarthy`).
    var isCapitalised: Bool { first.map { $0.isUppercase } ?? false }

    /// Whether every letter is a capital (and there are at least two).
    var isAllCapitals: Bool { letterCount >= 2 && allSatisfy { !$0.isLetter || $0.isUppercase } }

    /// The words, split on whitespace.
    var words: [String] { split(whereSeparator: \.isWhitespace).map(String.init) }

    /// Trimmed of whitespace and of the punctuation OCR leaves at the ends of a value.
    func trimmed(of extra: String = "") -> String {
        let strip = " \t,;:|·•" + extra
        var text = Substring(self)
        while let first = text.first, first.isWhitespace || strip.contains(first) { text.removeFirst() }
        while let last = text.last, last.isWhitespace || strip.contains(last) { text.removeLast() }
        return String(text)
    }
}

/// The accented Latin letters of European names and addresses, to their base letters. A table
/// rather than Foundation's folding, so that this module stays free of Foundation.
enum LatinFolding {
    static let base: [Unicode.Scalar: Unicode.Scalar] = {
        let pairs: [(String, Character)] = [
            ("àáâãäåāą", "a"), ("çćč", "c"), ("ďđ", "d"), ("èéêëēėęě", "e"), ("ìíîïīį", "i"), ("ł", "l"),
            ("ñńň", "n"), ("òóôõöøō", "o"), ("ŕř", "r"), ("śšş", "s"), ("ťţ", "t"), ("ùúûüūůű", "u"),
            ("ýÿ", "y"), ("źżž", "z"), ("ß", "s"),
        ]
        var table: [Unicode.Scalar: Unicode.Scalar] = [:]
        for (letters, base) in pairs {
            for letter in letters.unicodeScalars { table[letter] = base.unicodeScalars.first! }
        }
        return table
    }()
}
