/// An email or website that Tesseract broke across two lines, as it does when a tilted card's
/// long line climbs: `yejun.jung@corp. miraeenergy-` and, a little higher to its right,
/// `padova.it`. The second piece is put back at the end of the first.
enum BrokenAddresses {
    /// `lines` (each a line's words) with every such piece joined to the line it continues.
    static func joined(_ lines: [[OCRWord]]) -> [[OCRWord]] {
        var lines = lines
        var index = 0
        while index < lines.count {
            defer { index += 1 }
            guard endsBroken(lines[index]) else { continue }
            let head = OCRLine(words: lines[index])
            let height = max(8, head.letterHeight)
            let piece = lines.indices.first { other in
                guard other != index, lines[other].count == 1, let word = lines[other].first,
                    isHostPiece(word.text)
                else { return false }
                // Just to the right of the broken end, on the same row give or take a letter.
                return word.box.x >= head.box.maxX - height && word.box.x <= head.box.maxX + 3 * height
                    && abs(word.box.midY - head.box.midY) <= height
            }
            guard let piece else { continue }
            lines[index] += lines[piece]
            lines.remove(at: piece)
            if piece < index { index -= 1 }
        }
        return lines
    }

    /// Whether the line holds an address whose last word stops where no address can: after
    /// `@`, or after `.` or `-` ending a single label (`miraeenergy-`, `corp.`; not
    /// `acme.com.`, a whole host with a full stop after it).
    static func endsBroken(_ words: [OCRWord]) -> Bool {
        guard let last = words.last?.text, let end = last.last, "@.-".contains(end) else { return false }
        guard end == "@" || !last.dropLast().contains(".") else { return false }
        let text = words.map(\.text).joined(separator: " ").lowercased()
        return text.contains("@") || text.contains("www") || text.contains("http")
    }

    /// Host characters with a letter: `padova.it`, `co.kr`, `com`.
    static func isHostPiece(_ text: String) -> Bool {
        let piece = text.trimmed(of: ".")
        return !piece.isEmpty && piece.allSatisfy(HostNames.isHostCharacter) && piece.contains(where: \.isLetter)
    }
}
