import CardModels

/// Where a query matched in a field's indexed text, cut to a line a list can show.
enum SearchExcerpt {
    /// The line (or list item) of `indexed` holding the match of `query`, from a few
    /// characters before the match when the line is longer than `length`, cut to `length`
    /// characters (`…` marks what was left out).
    static func cut(_ indexed: String, around query: SearchQuery, field: CardField, length: Int) -> String {
        let needle: String
        switch query.kind {
        case .substring:
            needle = field == .phone ? (query.phoneDigits ?? query.folded) : query.folded
        case .wordStart:
            needle = field == .phone ? (query.phoneDigits ?? query.words.first ?? "") : (query.words.first ?? "")
        }
        let lines = indexed.split(separator: "\n", omittingEmptySubsequences: true)
        let line = lines.first { SearchQuery.holds(String($0), needle) } ?? lines.first ?? ""
        guard line.utf8.count > length, line.count > length, length > 1 else { return String(line) }
        let characters = Array(line)
        var start = 0
        if !needle.isEmpty, let match = line.firstRange(of: needle) {
            start = max(0, line.distance(from: line.startIndex, to: match.lowerBound) - 12)
        }
        let head = start > 0 ? "…" : ""
        let rest = characters[start...]
        if head.count + rest.count <= length { return head + String(rest) }
        return head + String(rest.prefix(length - head.count - 1)) + "…"
    }
}
