import CardModels

/// Where a query matched in a field, cut to a line a list can show (docs/Cache.md, *Search*).
///
/// The index holds folded text (lowercased, without accents, a phone number as its digits),
/// which is what a match is found in; a person should read the card's own text. So the line
/// (or list item) is the card's line at the place of the first folded line that matches (each
/// of the card's lines folded and checked as the index would when the line counts differ; for
/// a phone number, the number whose digits hold the query's), and the cut position found on
/// the folded line is carried back to the card's line: by character count where folding keeps
/// it, else character by character (`ﬁ` folds to two characters), and for a phone number by
/// counting digits.
enum SearchExcerpt {
    /// The most characters of an excerpt.
    static let length = 60
    /// How many characters before the match a long line's excerpt starts.
    private static let lead = 12

    /// The line (or list item) of `original` — a field's text as the card holds it, list items
    /// joined by line breaks — that matches `query`, from a few characters before the match
    /// when the line is longer than `length`, cut to `length` characters (`…` marks what was
    /// left out); `nil` when no line of it matches (the card's text and its index disagree).
    ///
    /// `indexed` is the field's folded text from the index: when it has as many lines as
    /// `original`, its first matching line says which line of `original` to show, and no line
    /// of the card's text needs folding again (a few microseconds per hit saved, times a
    /// screenful of hits per keystroke).
    static func cut(
        original: String, indexed: String, around query: SearchQuery, field: CardField, length: Int = length
    ) -> String? {
        let needle = self.needle(query, field: field)
        let lines = lines(of: original)
        if field.kind == .phone {
            for line in lines {
                // A line may hold several numbers: the one whose digits match, else the line.
                // The phone's word index holds every suffix of its digits: a word-start match is
                // a substring of the digits too, so one byte search does for both kinds.
                for item in phoneItems(of: line) + [line]
                where SearchQuery.holds(SearchText.digits(String(item)), needle) {
                    return clip(item, at: digitOffset(of: needle, in: item), length: length)
                }
            }
            return nil
        }
        let foldedLines = self.lines(of: indexed)
        if foldedLines.count == lines.count,
            let index = foldedLines.firstIndex(where: { query.matches(String($0), field: field) })
        {
            let folded = String(foldedLines[index])
            return clip(
                lines[index], at: characterOffset(of: needle, in: folded, original: lines[index]), length: length)
        }
        for line in lines {
            let folded = SearchText.fold(String(line))
            guard query.matches(folded, field: field) else { continue }
            return clip(line, at: characterOffset(of: needle, in: folded, original: line), length: length)
        }
        return nil
    }

    /// The line (or list item) of `indexed` — a field's folded text — holding the match of
    /// `query`, cut as ``cut(original:indexed:around:field:length:)`` does: what is shown when
    /// the card's own text cannot be read.
    static func cut(_ indexed: String, around query: SearchQuery, field: CardField, length: Int = length) -> String {
        let needle = self.needle(query, field: field)
        let lines = lines(of: indexed)
        let line = lines.first { SearchQuery.holds(String($0), needle) } ?? lines.first ?? ""
        var start = 0
        if !needle.isEmpty, let match = line.firstRange(of: needle) {
            start = line.distance(from: line.startIndex, to: match.lowerBound)
        }
        return clip(line, at: start, length: length)
    }

    /// What is looked for in a folded line: the folded query, its first word for the first two
    /// keystrokes, or its digits in a phone number.
    private static func needle(_ query: SearchQuery, field: CardField) -> String {
        switch query.kind {
        case .substring:
            field.kind == .phone ? (query.phoneDigits ?? query.folded) : query.folded
        case .wordStart:
            field.kind == .phone ? (query.phoneDigits ?? query.words.first ?? "") : (query.words.first ?? "")
        }
    }

    /// The non-empty lines of `text` (list items are joined by line breaks).
    private static func lines(of text: String) -> [Substring] {
        text.split(whereSeparator: \.isNewline)
    }

    /// The numbers of a phone line written as a list (`+82 10-1234-5678, +82 2-555-0100`).
    private static func phoneItems(of line: Substring) -> [Substring] {
        let items = line.split(whereSeparator: { ",;".contains($0) }).map { $0.drop { $0 == " " } }
        return items.count > 1 ? items : []
    }

    /// The character of `item` where `digits` starts among its digits, or 0.
    private static func digitOffset(of digits: String, in item: Substring) -> Int {
        let all = SearchText.digits(String(item))
        guard !digits.isEmpty, let match = all.firstRange(of: digits) else { return 0 }
        var wanted = all.distance(from: all.startIndex, to: match.lowerBound)
        for (offset, character) in item.enumerated()
        where character.unicodeScalars.contains(where: { $0.properties.numericType == .decimal }) {
            if wanted == 0 { return offset }
            wanted -= 1
        }
        return 0
    }

    /// The character of `original` where `needle` starts in its folded form `folded`: the same
    /// count when folding kept the number of characters, else found by folding `original`
    /// character by character; 0 when the needle is not found as whole characters.
    private static func characterOffset(of needle: String, in folded: String, original: Substring) -> Int {
        guard !needle.isEmpty, let match = folded.firstRange(of: needle) else { return 0 }
        let offset = folded.distance(from: folded.startIndex, to: match.lowerBound)
        guard folded.count != original.count else { return offset }
        var seen = 0
        for (index, character) in original.enumerated() {
            seen += SearchText.fold(String(character)).count
            if seen > offset { return index }
        }
        return 0
    }

    /// `line` from `lead` characters before `start` when longer than `length` characters, cut
    /// to `length` with `…` where something was left out.
    private static func clip(_ line: Substring, at start: Int, length: Int) -> String {
        guard line.utf8.count > length, line.count > length, length > 1 else { return String(line) }
        let first = max(0, start - lead)
        let head = first > 0 ? "…" : ""
        let rest = line.dropFirst(first)
        if head.count + rest.count <= length { return head + String(rest) }
        return head + String(rest.prefix(length - head.count - 1)) + "…"
    }
}
