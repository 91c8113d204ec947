import CardModels

/// Fitting escaped text into columns: clipping with an ellipsis, and wrapping.
///
/// Both work on graphemes with their ``DisplayWidth``, so a cut never falls inside a character
/// and never splits a wide character across the edge: when a wide character would straddle
/// the last column, a space takes its place before the ellipsis.
public enum TextLayout {
    /// Marks text that was cut.
    public static let ellipsis: Character = "…"

    /// `text` cut to at most `width` columns, ending in an ellipsis when anything was cut.
    ///
    /// - Parameters:
    ///   - text: Text that is already safe to show (see ``TerminalText/escaped(_:)``).
    ///   - width: The most columns the result may take.
    public static func clip(_ text: String, to width: Int) -> String {
        var result = ""
        fit(text, width: width) { character, _ in result.append(character) }
        return result
    }

    /// The end of `text` in at most `width` columns, starting with an ellipsis when the start
    /// was cut: for input that grows at its end, like the filter prompt.
    public static func clipLeading(_ text: String, to width: Int) -> String {
        guard width > 0 else { return "" }
        if DisplayWidth.of(text) <= width { return text }
        var kept: [Character] = []
        var used = 1
        for character in text.reversed() {
            let characterWidth = max(1, DisplayWidth.of(character))
            if used + characterWidth > width { break }
            kept.append(character)
            used += characterWidth
        }
        return String(ellipsis) + String(kept.reversed())
    }

    /// `text` broken into lines of at most `width` columns: at spaces where possible, inside a
    /// word only when the word alone is wider than a line. Runs of spaces between words become
    /// one; an empty text gives one empty line.
    public static func wrap(_ text: String, width: Int) -> [String] {
        guard width > 0 else { return [] }
        var lines: [String] = []
        var line = ""
        var lineWidth = 0
        for word in text.split(separator: " ", omittingEmptySubsequences: true) {
            let wordWidth = DisplayWidth.of(word)
            let gap = line.isEmpty ? 0 : 1
            if lineWidth + gap + wordWidth <= width {
                if gap == 1 { line.append(" ") }
                line += word
                lineWidth += gap + wordWidth
                continue
            }
            if !line.isEmpty {
                lines.append(line)
                line = ""
                lineWidth = 0
            }
            if wordWidth <= width {
                line = String(word)
                lineWidth = wordWidth
                continue
            }
            // A word wider than a line: break it between graphemes.
            for character in word {
                let characterWidth = max(1, DisplayWidth.of(character))
                if lineWidth + characterWidth > width {
                    lines.append(line)
                    line = ""
                    lineWidth = 0
                }
                line.append(character)
                lineWidth += characterWidth
            }
        }
        if !line.isEmpty || lines.isEmpty { lines.append(line) }
        return lines
    }

    /// The printable ASCII characters by code, so the fast path makes no strings.
    static let asciiCharacters: [Character] = (0..<128).map { Character(Unicode.Scalar(UInt8($0))) }

    /// Calls `body` with each cell of the graphemes of `text` that fit in `width` columns and
    /// its width (see ``DisplayWidth/forEachCell(of:_:)``), then with the padding and ellipsis
    /// when `text` had to be cut. Text is only ever cut between graphemes.
    ///
    /// - Returns: The columns used.
    @discardableResult
    @inline(__always)
    static func fit(_ text: String, width: Int, _ body: (Character, Int) -> Void) -> Int {
        guard width > 0 else { return 0 }
        if TerminalText.isPrintableASCII(text) {
            let count = text.utf8.count
            let shown = count <= width ? count : width - 1
            var emitted = 0
            for byte in text.utf8 {
                if emitted == shown { break }
                body(asciiCharacters[Int(byte)], 1)
                emitted += 1
            }
            if count > width { body(ellipsis, 1) }
            return min(count, width)
        }
        var kept: [(Character, Int)] = []
        var used = 0
        var cut = false
        for var character in text {
            var characterWidth = DisplayWidth.of(character)
            if characterWidth == 0 {
                // Escaped text has no zero-width graphemes; show one rather than lose a column.
                character = "\u{FFFD}"
                characterWidth = 1
            }
            if used + characterWidth > width {
                cut = true
                break
            }
            kept.append((character, characterWidth))
            used += characterWidth
        }
        if !cut {
            for (character, _) in kept { DisplayWidth.forEachCell(of: character, body) }
            return used
        }
        while used > width - 1, let last = kept.popLast() { used -= last.1 }
        for (character, _) in kept { DisplayWidth.forEachCell(of: character, body) }
        for _ in used..<(width - 1) { body(" ", 1) }
        body(ellipsis, 1)
        return width
    }
}
