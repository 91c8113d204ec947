import CardModels

/// Where a query matched in a field, cut to a line a list can show (docs/Cache.md, *Search*).
///
/// The index holds folded text (lowercased, without accents, a phone number as its digits),
/// which is what a match is found in; a person should read the card's own text. So the line
/// (or list item) is chosen by folding each line of the card's own text and checking it as the
/// index would, and the cut position found on the folded line is carried back to the card's
/// line: by character count where folding keeps it, else character by character (`ﬁ` folds to
/// two characters), and for a phone number by counting digits.
enum SearchExcerpt {
    /// The most characters of an excerpt.
    static let length = 60
    /// How many characters before the match a long line's excerpt starts.
    private static let lead = 12

    /// The line (or list item) of `original` — a field's text as the card holds it, list items
    /// joined by line breaks — that matches `query`, from a few characters before the match
    /// when the line is longer than `length`, cut to `length` characters (`…` marks what was
    /// left out); `nil` when no line of it matches (the card's text and its index disagree).
    static func cut(original: String, around query: SearchQuery, field: CardField, length: Int = length) -> String? {
        let needle = self.needle(query, field: field)
        if field == .phone {
            for line in lines(of: original) {
                // A line may hold several numbers: the one whose digits match, else the line.
                for item in phoneItems(of: line) + [line]
                where query.matches(SearchText.digits(String(item)), field: .phone) {
                    return clip(item, at: digitOffset(of: needle, in: item), length: length)
                }
            }
            return nil
        }
        for line in lines(of: original) {
            let folded = SearchText.fold(String(line))
            guard query.matches(folded, field: field) else { continue }
            return clip(line, at: characterOffset(of: needle, in: folded, original: line), length: length)
        }
        return nil
    }

    /// The line (or list item) of `indexed` — a field's folded text — holding the match of
    /// `query`, cut as ``cut(original:around:field:length:)`` does: what is shown when the card's
    /// own text cannot be read.
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
            field == .phone ? (query.phoneDigits ?? query.folded) : query.folded
        case .wordStart:
            field == .phone ? (query.phoneDigits ?? query.words.first ?? "") : (query.words.first ?? "")
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
        for (offset, character) in item.enumerated() where !SearchText.digits(String(character)).isEmpty {
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
