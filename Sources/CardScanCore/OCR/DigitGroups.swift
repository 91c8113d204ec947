/// One character the OCR read, and where it is.
public struct OCRCharacter: Sendable, Equatable, Hashable {
    /// The character (Tesseract gives a symbol as a string: a ligature can be two letters).
    public var text: String
    /// Where it is.
    public var box: OCRBox

    /// A character.
    public init(text: String, box: OCRBox) {
        self.text = text
        self.box = box
    }
}

/// Puts back the gaps between a phone number's digit groups that the OCR read as one word, and
/// the dashes between them that it read as digits.
///
/// Tesseract joins characters into words by their gaps, and a space between digits printed
/// narrow (or blurred) often falls under its threshold: `1384 8120` comes back as the one word
/// `13848120`, which no later rule can split again. The characters' boxes still show the gap.
/// Digits are printed at one pitch (their advance is the same in nearly every font), so the
/// distance from one digit's centre to the next is about the same within a group and longer by
/// a space across two groups: sorted, the steps of a word fall into two clusters, and the
/// longer one is the breaks. Measured against the word's own steps and digit height, this
/// holds whatever the font, its size or the photo's scale.
///
/// A dash read as a digit (`02-75127175` for `02-751-7175`) shows in its box: a fraction of a
/// digit's height, at the digits' middle.
public enum DigitGroups {
    /// How much longer than the steps inside groups a break's step is at least: a space is
    /// a third to a half of a digit's advance, the scatter of the OCR's boxes about a tenth.
    static let breakRatio = 1.2
    /// The least difference between the longest step inside a group and the shortest break,
    /// in digit heights (and ``fewestPixels``): the two clusters must be clearly apart.
    static let breakSeparation = 0.15
    /// The least difference in pixels, for small print.
    static let fewestPixels = 3.0
    /// The fewest steps inside groups a break is measured against.
    static let fewestSteadySteps = 2

    /// The word as one or more words: split where its characters' boxes show a gap between
    /// two digit groups, and with a dash where a "digit" is a dash, when the word is a number
    /// (four digits or more, and nothing a phone number does not hold).
    ///
    /// - Parameters:
    ///   - word: the word as the OCR read it.
    ///   - characters: its characters with their boxes, in order; when they do not spell
    ///     `word`, the word is returned as it is.
    /// - Returns: the word's groups, each with the box around its characters and the word's
    ///   confidence; `[word]` when nothing shows a break or a dash.
    public static func regrouped(_ word: OCRWord, characters: [OCRCharacter]) -> [OCRWord] {
        guard characters.map(\.text).joined() == word.text, word.text.digitCount >= 4,
            PhoneReader.repaired(word.text) != nil, let digits = DigitShape(characters)
        else { return [word] }
        let dashes = dashIndices(characters, digits)
        let breaks = groupBreaks(characters, digits, dashes: dashes)
        guard !dashes.isEmpty || !breaks.isEmpty else { return [word] }
        var restored = characters
        for index in dashes { restored[index].text = "-" }
        var words: [OCRWord] = []
        var start = 0
        for end in breaks.sorted() + [restored.count] {
            let group = restored[start..<end]
            let box = group.dropFirst().reduce(group[start].box) { $0.union($1.box) }
            words.append(OCRWord(text: group.map(\.text).joined(), box: box, confidence: word.confidence))
            start = end
        }
        return words
    }

    /// The characters read as digits that are dashes: between two characters, under a third
    /// of the digits' height (a printed dash is a tenth to a fifth), no wider than a digit and
    /// a fifth, their middle within a fifth of a height of the digits' middle (a `.` or `,`
    /// sits on the line, below it).
    static func dashIndices(_ characters: [OCRCharacter], _ digits: DigitShape) -> [Int] {
        digits.indices.filter { index in
            guard index > 0, index < characters.count - 1 else { return false }
            let box = characters[index].box
            let low = Double(box.height) < 0.3 * digits.height
            let narrow = Double(box.width) <= 1.2 * digits.width
            let centred = abs(middle(box) - digits.middle) <= 0.2 * digits.height
            return low && narrow && centred
        }
    }

    /// Where groups break: the indices of the characters that start a new group.
    ///
    /// The steps measured are those from a digit to the digit right after it, both boxed
    /// soundly (``isSound(_:in:_:)``); sorted, they split where the difference between two
    /// neighbours is largest, with at least ``fewestSteadySteps`` below. The steps above are
    /// breaks when they are ``breakRatio`` times the median step below, and clearly apart
    /// from it (``breakSeparation``).
    static func groupBreaks(_ characters: [OCRCharacter], _ digits: DigitShape, dashes: [Int]) -> [Int] {
        let sound = digits.indices.filter { !dashes.contains($0) && isSound($0, in: characters, digits) }
        let steps = zip(sound, sound.dropFirst()).filter { $1 == $0 + 1 }.map { previous, next in
            (index: next, length: centre(characters[next].box) - centre(characters[previous].box))
        }
        let lengths = steps.map(\.length).sorted()
        guard lengths.count > fewestSteadySteps else { return [] }
        func rise(_ index: Int) -> Double { lengths[index] - lengths[index - 1] }
        let split = (fewestSteadySteps..<lengths.count).max { rise($0) < rise($1) }!
        let shortestBreak = lengths[split]
        let separation = rise(split)
        guard separation >= max(breakSeparation * digits.height, fewestPixels),
            shortestBreak >= breakRatio * median(Array(lengths[..<split]))
        else { return [] }
        return steps.filter { $0.length >= shortestBreak }.map(\.index)
    }

    /// Whether the box of the digit at `index` can be measured from: no more than half again
    /// as wide as the word's digits, within a fifth of their height, and not reaching into its
    /// neighbours' boxes. Tesseract boxes a blurred or touching digit badly at times (a `0`
    /// twice as wide, a `1` and the `0` after it overlapping), and such a box's centre is off.
    static func isSound(_ index: Int, in characters: [OCRCharacter], _ digits: DigitShape) -> Bool {
        let box = characters[index].box
        guard Double(box.width) <= 1.5 * digits.width, abs(Double(box.height) - digits.height) <= 0.2 * digits.height
        else { return false }
        let overlap = 0.15 * digits.width
        if index > 0, Double(characters[index - 1].box.maxX - box.x) > overlap { return false }
        if index + 1 < characters.count, Double(box.maxX - characters[index + 1].box.x) > overlap { return false }
        return true
    }

    /// The horizontal centre of a box.
    static func centre(_ box: OCRBox) -> Double { Double(box.x) + Double(box.width) / 2 }

    /// The vertical middle of a box.
    static func middle(_ box: OCRBox) -> Double { Double(box.y) + Double(box.height) / 2 }

    /// The median of `values` (the mean of the middle two for an even count); 0 for none.
    static func median(_ values: [Double]) -> Double {
        let sorted = values.sorted()
        guard !sorted.isEmpty else { return 0 }
        let half = sorted.count / 2
        return sorted.count.isMultiple(of: 2) ? (sorted[half - 1] + sorted[half]) / 2 : sorted[half]
    }
}

/// The digits of a word and their typical size: the medians over its digits, which one badly
/// boxed digit does not move.
struct DigitShape {
    /// The indices of the characters that are digits.
    var indices: [Int]
    /// Their median width, leaving out `1`s.
    var width: Double
    /// Their median height.
    var height: Double
    /// The median of their vertical middles.
    var middle: Double

    /// The shape of the digits among `characters`; `nil` with fewer than four.
    init?(_ characters: [OCRCharacter]) {
        indices = characters.indices.filter { characters[$0].text.count == 1 && characters[$0].text.first!.isDigit }
        guard indices.count >= 4 else { return nil }
        let boxes = indices.map { characters[$0].box }
        // A `1` is narrow in most fonts: the width of the others, unless every digit is one.
        let wide = indices.filter { characters[$0].text != "1" }.map { Double(characters[$0].box.width) }
        width = DigitGroups.median(wide.isEmpty ? boxes.map { Double($0.width) } : wide)
        height = DigitGroups.median(boxes.map { Double($0.height) })
        middle = DigitGroups.median(boxes.map(DigitGroups.middle))
        guard width > 0, height > 0 else { return nil }
    }
}
