/// Lines outside any card, gathered until a card begins — then they are reported as a warning
/// when they hold more than white space and byte-order marks (a mail around a pasted card, a
/// NUL, the tail of a damaged line) — or until an `END:VCARD` closes them: then they were a card
/// whose `BEGIN:VCARD` is missing or damaged, an orphaned block, reported as a card skipped.
struct StrayText {
    /// The first line with something in it.
    private(set) var firstLine = 0
    /// The last line with something in it.
    private(set) var lastLine = 0
    /// Lines with something in it.
    private(set) var lines = 0
    /// Bytes of those lines (white space and byte-order marks included).
    private(set) var bytes = 0
    /// Whether a NUL byte was among them.
    private(set) var hasNUL = false
    /// Whether the only thing gathered is what stood before `BEGIN:VCARD` on its own line.
    private var onlyBeforeBegin = false
    /// The start of the first line with something in it, for the message.
    private var preview = ""

    /// Whether nothing but white space and byte-order marks was seen.
    var isEmpty: Bool { lines == 0 }

    /// Adds a line (or the part of a line before a marker).
    ///
    /// - Returns: whether it held more than white space and byte-order marks.
    @discardableResult
    mutating func add(_ text: ArraySlice<UInt8>, line: Int, beforeBegin: Bool = false) -> Bool {
        guard Self.hasContent(text) else { return false }
        if lines == 0 {
            firstLine = line
            preview = ContentLineParser.preview(Array(text.prefix(41)))
            onlyBeforeBegin = beforeBegin
        } else {
            onlyBeforeBegin = false
        }
        lastLine = line
        lines += 1
        bytes += text.count
        if text.contains(0) { hasNUL = true }
        return true
    }

    /// Forgets what was gathered.
    mutating func reset() { self = StrayText() }

    /// The warning for text that was not part of any card, or `nil` when there was none.
    func warning() -> VCardProblem? {
        guard !isEmpty else { return nil }
        if onlyBeforeBegin {
            let what = hasNUL ? "stray byte\(bytes == 1 ? "" : "s")" : "stray text"
            return VCardProblem(line: firstLine, "\(what) before BEGIN:VCARD on its line, ignored: “\(preview)”")
        }
        let span = lines == 1 ? "" : " (\(lines) lines, to line \(lastLine))"
        let what = hasNUL ? "binary data" : "text"
        return VCardProblem(line: firstLine, "\(what) outside any card\(span), ignored: “\(preview)”")
    }

    /// The problem for an orphaned block that ends at `endLine`.
    func orphan(endLine: Int) -> VCardProblem {
        VCardProblem(
            line: firstLine,
            "a card without its BEGIN:VCARD (lines \(firstLine)–\(endLine)), skipped: “\(preview)”")
    }

    /// Whether `text` holds more than spaces, tabs and UTF-8 byte-order marks.
    static func hasContent(_ text: ArraySlice<UInt8>) -> Bool {
        var index = text.startIndex
        while index < text.endIndex {
            let byte = text[index]
            if byte == 32 || byte == 9 {
                index += 1
            } else if byte == 0xEF, index + 2 < text.endIndex, text[index + 1] == 0xBB, text[index + 2] == 0xBF {
                index += 3
            } else {
                return true
            }
        }
        return false
    }
}
