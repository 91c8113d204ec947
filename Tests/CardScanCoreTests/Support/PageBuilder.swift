import CardModels
import CardScanCore
import Testing

/// One line of a made-up OCR page: its words, how tall, where, how sure.
struct Row: Sendable, CustomStringConvertible {
    var text: String
    var height: Int
    var x: Int
    var confidence: Double

    init(_ text: String, _ height: Int = 24, x: Int = 60, confidence: Double = 93) {
        self.text = text
        self.height = height
        self.x = x
        self.confidence = confidence
    }

    var description: String { text }
}

/// A page as Tesseract would return it for `rows`, top to bottom: each word boxed with the
/// row's height and a width from its length, rows 40 % of their height apart. A tab in a row's
/// text is a gap of eight letter heights (two items printed on one row).
func page(_ rows: [Row]) -> OCRPage {
    var y = 40
    var lines: [OCRLine] = []
    for (index, row) in rows.enumerated() {
        var x = row.x
        var words: [OCRWord] = []
        for word in row.text.split(separator: " ") {
            if word == "\t" {
                x += 8 * row.height
                continue
            }
            let width = max(row.height / 3, word.count * row.height * 11 / 20)
            words.append(
                OCRWord(
                    text: String(word), box: OCRBox(x: x, y: y, width: width, height: row.height),
                    confidence: row.confidence))
            x += width + row.height / 3
        }
        lines.append(OCRLine(words: words, block: index))
        y += row.height * 14 / 10
    }
    return OCRPage(width: 1500, height: max(y, 850), lines: lines)
}

/// What one extraction case expects: fields by key (absent keys must be empty), vCard lines,
/// and texts some note must contain.
struct Expected: Sendable {
    var fields: [CardField: String]
    var vcard: [String] = []
    var notes: [String] = []
}

/// A named case of the rules table.
struct ExtractionCase: Sendable, CustomTestStringConvertible {
    var name: String
    var rows: [Row]
    var expected: Expected

    var testDescription: String { name }
}
