/// A rectangle in the pixels of the upright photo: `x` to the right, `y` down.
public struct OCRBox: Sendable, Equatable, Hashable, Codable {
    /// The left edge.
    public var x: Int
    /// The top edge.
    public var y: Int
    /// The width.
    public var width: Int
    /// The height.
    public var height: Int

    /// A box.
    public init(x: Int, y: Int, width: Int, height: Int) {
        self.x = x
        self.y = y
        self.width = max(0, width)
        self.height = max(0, height)
    }

    /// The right edge.
    public var maxX: Int { x + width }
    /// The bottom edge.
    public var maxY: Int { y + height }
    /// The horizontal centre.
    public var midX: Int { x + width / 2 }
    /// The vertical centre.
    public var midY: Int { y + height / 2 }

    /// The smallest box holding both.
    public func union(_ other: OCRBox) -> OCRBox {
        let left = min(x, other.x)
        let top = min(y, other.y)
        return OCRBox(x: left, y: top, width: max(maxX, other.maxX) - left, height: max(maxY, other.maxY) - top)
    }
}

/// A word the OCR found: its text, where it is, and how sure the OCR is of it.
public struct OCRWord: Sendable, Equatable, Hashable, Codable {
    /// The text, as recognised.
    public var text: String
    /// Where it is.
    public var box: OCRBox
    /// The OCR's confidence, 0–100.
    public var confidence: Double

    /// A word.
    public init(text: String, box: OCRBox, confidence: Double) {
        self.text = text
        self.box = box
        self.confidence = confidence
    }
}

/// A line of text: its words from left to right.
public struct OCRLine: Sendable, Equatable, Hashable, Codable {
    /// The words, left to right.
    public var words: [OCRWord]
    /// The block (a paragraph or column of the layout) the line belongs to, counted from 0.
    public var block: Int

    /// A line.
    public init(words: [OCRWord], block: Int = 0) {
        self.words = words
        self.block = block
    }

    /// The words joined by single spaces.
    public var text: String { words.map(\.text).joined(separator: " ") }

    /// The box around every word (a zero box for a line without words).
    public var box: OCRBox {
        guard let first = words.first else { return OCRBox(x: 0, y: 0, width: 0, height: 0) }
        return words.dropFirst().reduce(first.box) { $0.union($1.box) }
    }

    /// The mean confidence of the words, weighted by their length; 0 without words.
    public var confidence: Double {
        let weights = words.map { Double(max(1, $0.text.count)) }
        let total = weights.reduce(0, +)
        guard total > 0 else { return 0 }
        return zip(words, weights).map { $0.confidence * $1 }.reduce(0, +) / total
    }

    /// Whether the line holds text rather than specks: two letters or digits in words read
    /// with some confidence, or six in all (Tesseract gives a whole line of small text 0 at
    /// times). An empty photo's grain reads as `~`, `|`, `_` words, which this rules out.
    public var holdsText: Bool {
        func count(_ word: OCRWord) -> Int { word.text.reduce(0) { $0 + ($1.isLetter || $1.isNumber ? 1 : 0) } }
        let sure = words.filter { $0.confidence >= 20 }.reduce(0) { $0 + count($1) }
        let all = words.reduce(0) { $0 + count($1) }
        return sure >= 2 || all >= 6
    }

    /// Whether the line is text a person printed, beyond doubt: four letters or digits, read
    /// with a mean confidence of 70 or more. Grain and shadows give lines of one to three
    /// characters, or longer ones read with little confidence.
    public var isClearText: Bool {
        let characters = words.reduce(0) { sum, word in
            sum + word.text.reduce(0) { $0 + ($1.isLetter || $1.isNumber ? 1 : 0) }
        }
        return characters >= 4 && confidence >= 70
    }

    /// The height of the line's letters: the median height of its words' boxes, which a
    /// single tall word (a logo, a bracket) does not skew.
    public var letterHeight: Int {
        let heights = words.map(\.box.height).sorted()
        guard !heights.isEmpty else { return 0 }
        return heights[heights.count / 2]
    }
}

/// What the OCR read on one photo.
public struct OCRPage: Sendable, Equatable, Hashable, Codable {
    /// The width of the upright image the boxes refer to.
    public var width: Int
    /// Its height.
    public var height: Int
    /// The lines, in reading order.
    public var lines: [OCRLine]

    /// A page.
    public init(width: Int, height: Int, lines: [OCRLine]) {
        self.width = width
        self.height = height
        self.lines = lines
    }

    /// Whether a line holds two Hangul syllables or more, read with some confidence: a Korean
    /// card (the scanner then reads its name a second time, ``CardFieldExtractor/extract(from:nameReading:)``).
    public var holdsHangul: Bool {
        lines.contains { line in
            line.words.filter { $0.confidence >= 50 }.reduce(0) { $0 + $1.text.hangulCount } >= 2
        }
    }
}
