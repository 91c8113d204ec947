import CardModels

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A typed query, folded, and what it becomes for FTS5 (docs/Cache.md, *Search*).
struct SearchQuery {
    /// Which index answers it.
    enum Kind: Equatable {
        /// Three characters or more: substrings, through the trigram index.
        case substring
        /// One or two characters: word starts, through the word index.
        case wordStart
    }

    /// The query folded, trimmed, inner runs of whitespace made one space.
    let folded: String
    /// Its digits, when it reads as part of a phone number.
    let phoneDigits: String?
    /// Its words as the word index splits them (for ``Kind/wordStart``).
    let words: [String]
    let kind: Kind
    /// For a long substring (six characters or more): its trigrams every third character and
    /// the last one, with their offsets, asked for instead of the whole phrase (see
    /// ``SpacedTrigrams``); empty otherwise.
    let spaced: [(trigram: String, offset: Int)]

    /// `nil` for a query with nothing to look for (empty, only spaces or punctuation).
    init?(_ text: String) {
        let folded = SearchText.fold(text).split(whereSeparator: \.isWhitespace).joined(separator: " ")
        guard !folded.isEmpty else { return nil }
        self.folded = folded
        phoneDigits = SearchText.isPhoneLike(folded) ? SearchText.digits(folded) : nil
        words = Self.split(SearchText.words(folded))
        // A phone number typed with punctuation (`10-`) has fewer digits than characters: until
        // it has three digits, its digits are matched as word starts, as for two keystrokes.
        let short = phoneDigits.map { $0.count < 3 } ?? (folded.unicodeScalars.count < 3)
        kind = short ? .wordStart : .substring
        if kind == .wordStart && words.isEmpty { return nil }
        spaced = kind == .substring ? Self.spacedTrigrams(folded) : []
    }

    /// The trigrams of `text` at offsets 0, 3, 6… and the last one, when there are four
    /// trigrams or more (below that the whole phrase costs no more); they cover every character.
    static func spacedTrigrams(_ text: String) -> [(trigram: String, offset: Int)] {
        let scalars = Array(text.unicodeScalars)
        let count = scalars.count - 2
        guard count >= 4 else { return [] }
        var offsets = Array(stride(from: 0, to: count, by: 3))
        if offsets.last != count - 1 { offsets.append(count - 1) }
        return offsets.map { offset in
            var trigram = String.UnicodeScalarView()
            trigram.append(contentsOf: scalars[offset..<offset + 3])
            return (String(trigram), offset)
        }
    }

    /// The arguments of ``SpacedTrigrams`` after the table: the offsets of the spaced trigrams
    /// after the first.
    var spacedOffsets: [Int] { spaced.dropFirst().map(\.offset) }

    /// The FTS5 expression, limited to `columns` when given.
    func expression(columns: [String]?) -> String {
        var terms: [String]
        switch kind {
        case .substring:
            terms = [
                spaced.isEmpty
                    ? Self.quoted(folded)
                    : "(" + spaced.map { Self.quoted($0.trigram) }.joined(separator: " AND ") + ")"
            ]
            if let phoneDigits, phoneDigits.count >= 3, phoneDigits != folded, columns?.contains("phone") ?? true {
                terms.append("phone : " + Self.quoted(phoneDigits))
            }
        case .wordStart:
            terms = [Self.quoted(words.joined(separator: " ")) + " *"]
        }
        let any = terms.joined(separator: " OR ")
        guard let columns else { return any }
        return "{\(columns.joined(separator: " "))} : (\(any))"
    }

    /// Whether the indexed (folded) text of `field` matches, as the index would say.
    func matches(_ text: String, field: CardField) -> Bool {
        switch kind {
        case .substring:
            if field.kind == .phone, let phoneDigits, phoneDigits.count >= 3 { return Self.holds(text, phoneDigits) }
            return Self.holds(text, folded)
        case .wordStart:
            let tokens =
                field.kind == .phone ? Self.split(SearchText.phoneWords(text)) : Self.split(SearchText.words(text))
            return Self.containsPhrase(tokens, words)
        }
    }

    /// Whether `text` holds `part`, byte for byte in UTF-8: the trigram index's rule (code
    /// points, not graphemes), and far quicker than `String.contains` on non-ASCII text.
    static func holds(_ text: String, _ part: String) -> Bool {
        var text = text
        var part = part
        return text.withUTF8 { text in
            part.withUTF8 { part in
                guard !part.isEmpty else { return true }
                guard let base = text.baseAddress, let needle = part.baseAddress, text.count >= part.count else {
                    return false
                }
                let first = part[0]
                var start = 0
                while start <= text.count - part.count {
                    if text[start] == first && memcmp(base + start, needle, part.count) == 0 { return true }
                    start += 1
                }
                return false
            }
        }
    }

    /// `"text"` with inner quotes doubled: a phrase, whatever it holds.
    static func quoted(_ text: String) -> String {
        "\"" + text.replacing("\"", with: "\"\"") + "\""
    }

    /// Words as SQLite's `unicode61` tokenizer splits them: runs of letters, digits and
    /// private-use characters (its default `categories = 'L* N* Co'`).
    static func split(_ text: String) -> [String] {
        var words: [String] = []
        var current = String.UnicodeScalarView()
        for scalar in text.unicodeScalars {
            switch scalar.properties.generalCategory {
            case .uppercaseLetter, .lowercaseLetter, .titlecaseLetter, .modifierLetter, .otherLetter,
                .decimalNumber, .letterNumber, .otherNumber, .privateUse:
                current.append(scalar)
            default:
                if !current.isEmpty { words.append(String(current)) }
                current = String.UnicodeScalarView()
            }
        }
        if !current.isEmpty { words.append(String(current)) }
        return words
    }

    /// Whether `tokens` holds `phrase` in a row, its last word as a prefix.
    static func containsPhrase(_ tokens: [String], _ phrase: [String]) -> Bool {
        guard !phrase.isEmpty, tokens.count >= phrase.count else { return false }
        for start in 0...(tokens.count - phrase.count) {
            var ok = true
            for (offset, word) in phrase.enumerated() {
                let token = tokens[start + offset]
                if offset == phrase.count - 1 ? !token.hasPrefix(word) : token != word {
                    ok = false
                    break
                }
            }
            if ok { return true }
        }
        return false
    }
}
