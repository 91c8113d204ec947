/// Phone numbers, in any country's way of grouping digits: `+1 (415) 555-0142`,
/// `+44 (0)20 7946 0321`, `02-555-0123`, `+49 30 123456-78`, `415.555.0142`.
enum PhoneReader {
    /// A phone number found.
    struct Found: Sendable, Equatable {
        /// The number, without label or extension.
        var number: String
        /// The extension's digits, when one was printed.
        var `extension`: String?
        /// What its label said; `nil` without one.
        var label: ScanRules.LabelKind?
    }

    /// The fewest and most digits of a phone number (E.164 allows 15; `(0)` adds one).
    static let digitRange = 7...16

    /// The phone numbers among the words not `used` yet, marking the words they take (their
    /// labels and extensions included).
    static func phones(in tokens: inout [String], used: inout [Bool]) -> [Found] {
        var found: [Found] = []
        var label: (kind: ScanRules.LabelKind, index: Int)?
        var index = 0
        while index < tokens.count {
            defer { index += 1 }
            if used[index] { continue }
            if let kind = ScanRules.labels[tokens[index].ruleKey], [.phone, .mobile, .fax].contains(kind) {
                label = (kind, index)
                continue
            }
            guard repaired(tokens[index]) != nil, !isExtensionWord(tokens[index]) else {
                if tokens[index].letterCount >= 2 { label = nil }
                continue
            }
            var end = index
            while end + 1 < tokens.count, !used[end + 1], repaired(tokens[end + 1]) != nil,
                !isExtensionWord(tokens[end + 1])
            {
                end += 1
            }
            let number = normalised((index...end).compactMap { repaired(tokens[$0]) }.joined(separator: " "))
            guard digitRange.contains(number.digitCount) else {
                index = end
                continue
            }
            var taken = Array(index...end)
            let ext = extensionAfter(end, in: tokens, used: used)
            if let ext { taken += ext.indices }
            if let label { taken.append(label.index) }
            for token in taken { used[token] = true }
            found.append(Found(number: number, extension: ext?.digits, label: label?.kind))
            label = nil
            index = taken.max() ?? end
        }
        return found
    }

    /// The word with OCR's slips among digits put right (`O`→`0`, `l`/`I`/`|`→`1`, `=`/`—`→`-`),
    /// or `nil` when it is not part of a phone number: only digits and `+ - ( ) . /`, with more
    /// digits than repaired letters.
    static func repaired(_ token: String) -> String? {
        // Icons read as punctuation stuck to the number (`『+1`, `+44…:`).
        var text = Substring(token)
        while let first = text.first, !(first.isLetter || first.isNumber || "+(".contains(first)) { text.removeFirst() }
        while let last = text.last, !(last.isLetter || last.isNumber || ")".contains(last)) { text.removeLast() }
        var digits = 0
        var fixes = 0
        var result = ""
        for character in text {
            switch character {
            case "0"..."9":
                digits += 1
                result.append(character)
            case "O", "o", "D":
                fixes += 1
                result.append("0")
            case "l", "I", "|", "i":
                fixes += 1
                result.append("1")
            case "=", "—", "–", "_", "~", "‐", "−":
                result.append("-")
            case "+", "-", "(", ")", ".", "/":
                result.append(character)
            case "·", ",":
                result.append(".")
            default:
                return nil
            }
        }
        if text == "+" || text == "(0)" { return String(text) }
        guard digits >= 1, fixes * 2 <= digits else { return nil }
        return result
    }

    /// `ext.`, `x`, `Ext`, `내선`, or such a word glued to its digits (`x204`, `(내선`).
    static func isExtensionWord(_ token: String) -> Bool {
        let key = token.trimmed(of: "()").ruleKey
        if ScanRules.extensionWords.contains(key) { return true }
        return ScanRules.extensionWords.contains { word in
            key.hasPrefix(word) && key.dropFirst(word.count).allSatisfy { $0.isDigit || $0 == "." || $0 == ":" }
                && key.count > word.count
        }
    }

    /// The extension after the word at `end`: its digits and the words it took.
    static func extensionAfter(_ end: Int, in tokens: [String], used: [Bool]) -> (digits: String, indices: [Int])? {
        let next = end + 1
        guard next < tokens.count, !used[next], isExtensionWord(tokens[next]) else { return nil }
        let glued = tokens[next].filter(\.isDigit)
        if !glued.isEmpty { return (glued, [next]) }
        let after = next + 1
        guard after < tokens.count, !used[after] else { return nil }
        let digits = tokens[after].trimmed(of: "().:").filter(\.isDigit)
        guard !digits.isEmpty, digits.count <= 6, tokens[after].trimmed(of: "().:").allSatisfy(\.isDigit) else {
            return nil
        }
        return (digits, [next, after])
    }

    /// The number as the card's phone field accepts it: `/` as a space, no separators at
    /// either end, single spaces.
    static func normalised(_ number: String) -> String {
        var text = number.replacingSlashes().words.joined(separator: " ")
        // A country code starts a number: what stands before it is a label or icon misread
        // (`7: +34 93…` for `T: +34 93…`).
        if let plus = text.firstIndex(of: "+"), plus != text.startIndex {
            text = String(text[plus...])
        }
        text = CountryCodes.spaced(text)
        while let last = text.last, "-.(/ ".contains(last) { text.removeLast() }
        while let first = text.first, "-.)/ ".contains(first) { text.removeFirst() }
        // An opening bracket whose closing one was not printed (or read).
        if text.filter({ $0 == "(" }).count > text.filter({ $0 == ")" }).count, text.hasSuffix(")") == false,
            let open = text.lastIndex(of: "("), text[open...].count <= 2
        {
            text = String(text[..<open]).trimmed()
        }
        return text
    }
}

extension String {
    /// With `/` (a German area code's separator) as a space: the phone field takes no `/`.
    fileprivate func replacingSlashes() -> String { String(map { $0 == "/" ? " " : $0 }) }
}
