/// A line as the extraction sees it: the OCR's words cleaned of specks, its text with Korean
/// spacing repaired, and its size, place and confidence.
struct ScanLine: Sendable, Equatable {
    /// The words kept.
    var words: [OCRWord]
    /// The cleaned text.
    var text: String
    /// Its place in reading order (top to bottom, then left to right), from 0.
    var index: Int

    /// The box around its words.
    var box: OCRBox { OCRLine(words: words).box }
    /// The height of its letters (the median word height).
    var height: Int { OCRLine(words: words).letterHeight }
    /// The mean confidence of its words, 0–100.
    var confidence: Double { OCRLine(words: words).confidence }
    /// The words of the cleaned text.
    var tokens: [String] { text.words }
    /// How sure the OCR was of each of ``tokens``: its word's confidence where the cleaning
    /// kept the words as they were, else the line's.
    var tokenConfidences: [Double] {
        let tokens = tokens
        if tokens == words.map(\.text) { return words.map(\.confidence) }
        return Array(repeating: confidence, count: tokens.count)
    }
}

/// Turns the OCR's lines into ``ScanLine``s.
enum ScanLineBuilder {
    /// Words the OCR gives separators and icons as; they split a line into parts.
    static let separators: Set<String> = ["|", "||", "•", "·", "/", "◦", "▪"]

    /// The lines of `page`: split where a wide gap or a separator shows two items printed on
    /// one row, specks dropped, an address broken across two lines joined
    /// (``BrokenAddresses``), Hangul spacing repaired, sorted top to bottom.
    static func lines(from page: OCRPage) -> [ScanLine] {
        var parts: [[OCRWord]] = []
        for line in page.lines {
            parts += split(line)
        }
        let cleaned = BrokenAddresses.joined(parts.map(dropSpecks).filter(isText))
        let sorted = cleaned.sorted { a, b in
            let boxA = OCRLine(words: a).box
            let boxB = OCRLine(words: b).box
            // Lines whose middles are within half a letter of each other are one row.
            let tolerance = max(4, min(boxA.height, boxB.height) / 2)
            if abs(boxA.midY - boxB.midY) > tolerance { return boxA.midY < boxB.midY }
            return boxA.x < boxB.x
        }
        return sorted.enumerated().map { index, words in
            ScanLine(words: words, text: HangulSpacing.repaired(words.map(\.text)), index: index)
        }
    }

    /// A line cut at gaps wider than three letter heights and at separator words (`|`, `•`),
    /// but only where text stands on both sides.
    static func split(_ line: OCRLine) -> [[OCRWord]] {
        let height = max(8, line.letterHeight)
        var parts: [[OCRWord]] = []
        var current: [OCRWord] = []
        for (position, word) in line.words.enumerated() {
            if separators.contains(word.text), position > 0, position < line.words.count - 1 {
                if !current.isEmpty { parts.append(current) }
                current = []
                continue
            }
            if let previous = current.last, word.box.x - previous.box.maxX > 3 * height {
                parts.append(current)
                current = []
            }
            current.append(word)
        }
        if !current.isEmpty { parts.append(current) }
        return parts
    }

    /// Without the specks OCR reads from icons, logos and paper grain: unsure words of one or
    /// two characters at either end, and words without a letter or digit.
    static func dropSpecks(_ words: [OCRWord]) -> [OCRWord] {
        var kept = words.filter { word in
            word.text.contains { $0.isLetter || $0.isNumber } || ["&", "+", "-", "@", "–"].contains(word.text)
                || ScanRules.labels[word.text.ruleKey] != nil  // `☎`
        }
        // Not digits or `+`: a country code read with little confidence is still one.
        while let first = kept.first, kept.count > 1, first.text.count <= 2, first.confidence < 30,
            !first.text.contains(where: { $0.isNumber || $0 == "+" }),
            !(ScanRules.labels[first.text.ruleKey] != nil && first.confidence >= 10)
        {
            kept.removeFirst()
        }
        while let last = kept.last, kept.count > 1, last.text.count <= 2, last.confidence < 30,
            !last.text.contains(where: \.isDigit)
        {
            kept.removeLast()
        }
        // A lone connector left at an end says nothing.
        while let first = kept.first, ["&", "+", "-", "–"].contains(first.text) { kept.removeFirst() }
        while let last = kept.last, ["&", "+", "-", "–", "@"].contains(last.text) { kept.removeLast() }
        return kept
    }

    /// Whether the words hold text rather than specks (see ``OCRLine/holdsText``).
    static func isText(_ words: [OCRWord]) -> Bool {
        OCRLine(words: words).holdsText
    }
}

/// Tesseract's Korean model often reads a word's syllables as separate words (`서 울 데 이 터
/// 랩`); this joins them back.
enum HangulSpacing {
    /// The words joined with spaces, where:
    /// - a line of Hangul only, of at most five syllables, is one word (a name, a title:
    ///   `정 예 준` → `정예준`, `책 임 연구원` → `책임연구원`);
    /// - runs of single syllables join into one word, and a run of two or more joins the
    ///   Hangul word after it (`부 산 해 양 물류` → `부산해양물류`, `서 울 특별시` → `서울특별시`);
    /// - a leading `주`, `(주`, `(주)` or `㈜` (how the OCR reads the ㈜ mark) becomes `㈜` and
    ///   stays apart, so it does not join the name after it.
    static func repaired(_ words: [String]) -> String {
        guard words.contains(where: { $0.contains(where: \.isHangul) }) else { return words.joined(separator: " ") }
        var words = words
        var mark: String?
        if let first = words.first, words.count > 1, ScanRules.stockCompanyMarkReadings.contains(first),
            words[1].contains(where: \.isHangul)
        {
            mark = "㈜"
            words.removeFirst()
        }
        words = joiningUnits(words)
        let allHangul = words.allSatisfy { $0.allSatisfy(\.isHangul) }
        let syllables = words.reduce(0) { $0 + $1.count }
        if allHangul, syllables <= 5 {
            return (mark ?? "") + words.joined()
        }
        var result: [String] = []
        var run = ""
        var runLength = 0
        func isSyllable(_ word: String) -> Bool { word.count == 1 && word.first!.isHangul }
        for word in words {
            if isSyllable(word) {
                run += word
                runLength += 1
                continue
            }
            if runLength >= 2, word.first?.isHangul == true {
                result.append(run + word)
            } else {
                if !run.isEmpty { result.append(run) }
                result.append(word)
            }
            run = ""
            runLength = 0
        }
        if !run.isEmpty { result.append(run) }
        let text = result.joined(separator: " ")
        return mark.map { $0 + text } ?? text
    }

    /// A number and the counter after it as one word: `11 층` → `11층`, `3 번지` → `3번지`.
    static func joiningUnits(_ words: [String]) -> [String] {
        var result: [String] = []
        for word in words {
            if let last = result.last, last.allSatisfy(\.isDigit), ScanRules.hangulUnits.contains(word) {
                result[result.count - 1] = last + word
            } else {
                result.append(word)
            }
        }
        return result
    }
}
