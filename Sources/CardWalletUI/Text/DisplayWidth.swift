import CardModels

/// How many terminal columns text takes, independent of the process locale.
///
/// `wcwidth(3)` answers according to `LC_CTYPE`, so the same card would line up differently
/// under `C` and `en_US.UTF-8`; this table gives one answer everywhere. Widths are per
/// grapheme (`Character`): East Asian Wide and Fullwidth characters and emoji take two columns,
/// combining marks and the parts of a ZWJ sequence after the first add nothing.
public enum DisplayWidth {
    /// The columns one scalar takes on its own: 0 for combining marks, format characters and
    /// Hangul medial vowels and final consonants, 2 for wide characters, 1 otherwise.
    ///
    /// Control characters answer 1: they never reach the screen unescaped (see `TerminalText`).
    public static func of(_ scalar: Unicode.Scalar) -> Int {
        let value = scalar.value
        if value < 0x300 { return value == 0xAD ? 0 : 1 }
        if isZeroWidth(scalar) { return 0 }
        return isWide(scalar) ? 2 : 1
    }

    /// The columns one grapheme takes, as a terminal lays it out.
    ///
    /// An emoji cluster takes the width of its first scalar, except that an emoji presentation
    /// selector (U+FE0F), a keycap (U+20E3) or a pair of regional indicators (a flag) makes it
    /// two columns wide: 0, 1 or 2. Any other cluster takes the columns of all its scalars, as
    /// `wcwidth` counts them: a Devanagari conjunct such as `प्रि` (four scalars, one grapheme)
    /// takes three, and ``forEachCell(of:_:)`` splits it into those three cells.
    public static func of(_ character: Character) -> Int {
        let scalars = character.unicodeScalars
        var iterator = scalars.makeIterator()
        guard let first = iterator.next() else { return 0 }
        var width = of(first)
        guard first.properties.isEmoji else {
            while let scalar = iterator.next() { width += of(scalar) }
            return width
        }
        while let scalar = iterator.next() {
            switch scalar.value {
            case 0xFE0F, 0x20E3:
                width = 2
            case 0x1F1E6...0x1F1FF:
                if (0x1F1E6...0x1F1FF).contains(first.value) { width = 2 }
            default:
                continue
            }
        }
        return width
    }

    /// Calls `body` with each terminal cell of `character` and its width (1 or 2), left to
    /// right; together they take ``of(_:)-(Character)`` columns.
    ///
    /// Almost every grapheme is one cell. A cluster of several spacing characters that is not
    /// an emoji (an Indic conjunct, a Thai syllable with SARA AM) becomes one cell per spacing
    /// character, each with its combining marks, because that is how a terminal lays it out;
    /// a curses cell could not hold it whole.
    public static func forEachCell(of character: Character, _ body: (Character, Int) -> Void) {
        let scalars = character.unicodeScalars
        guard let first = scalars.first else { return }
        var spacing = 0
        if !first.properties.isEmoji {
            for scalar in scalars where of(scalar) > 0 { spacing += 1 }
        }
        guard spacing > 1 else {
            body(character, max(1, of(character)))
            return
        }
        var glyph = String.UnicodeScalarView()
        var glyphWidth = 0
        func flush() {
            let text = String(glyph)
            if text.count == 1, let cell = text.first {
                body(cell, max(1, glyphWidth))
            } else {
                // Not one grapheme after all: one cell per scalar, never a crash.
                for scalar in glyph { body(Character(scalar), max(1, of(scalar))) }
            }
        }
        for scalar in scalars {
            let width = of(scalar)
            if width > 0, glyphWidth > 0 {
                flush()
                glyph = String.UnicodeScalarView()
                glyphWidth = 0
            }
            glyph.append(scalar)
            glyphWidth += width
        }
        flush()
    }

    /// The columns `text` takes when shown as it is (escape untrusted text first).
    public static func of(_ text: some StringProtocol) -> Int {
        if text.utf8.allSatisfy({ $0 < 0x80 }) { return text.utf8.count }
        var total = 0
        for character in text { total += of(character) }
        return total
    }

    /// Whether `scalar` adds no columns: a non-spacing or enclosing mark, a format character,
    /// or a Hangul medial vowel or final consonant (which join the syllable's first jamo).
    public static func isZeroWidth(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x1160...0x11FF, 0xD7B0...0xD7FF: return true
        default: break
        }
        switch scalar.properties.generalCategory {
        case .nonspacingMark, .enclosingMark, .format: return true
        default: return false
        }
    }

    /// Whether `scalar` is East Asian Wide or Fullwidth, or an emoji shown as an emoji by default.
    public static func isWide(_ scalar: Unicode.Scalar) -> Bool {
        let value = scalar.value
        if value < 0x1100 { return false }
        var low = 0
        var high = wideRanges.count - 1
        while low <= high {
            let middle = (low + high) / 2
            let range = wideRanges[middle]
            if value < range.0 {
                high = middle - 1
            } else if value > range.1 {
                low = middle + 1
            } else {
                return true
            }
        }
        // Emoji newer than the table: the standard library's Unicode data is more recent.
        return value >= 0x1F000 && scalar.properties.isEmojiPresentation
    }
}
