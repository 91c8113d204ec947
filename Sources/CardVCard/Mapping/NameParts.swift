/// From N's parts to a name and back.
///
/// N is `Family;Given;Additional;Prefix;Suffix`. A name made from it reads "Prefix Given
/// Additional Family Suffix", except for names in Hangul, kana or Han characters, which are
/// written family name first without a space (김 + 민지 → 김민지).
enum NameParts {
    /// The name N's parts spell, or "" when they are all empty.
    static func name(from components: [String]) -> String {
        func part(_ index: Int) -> String {
            index < components.count ? components[index].trimmingVCardWhitespace.replacingNewlines : ""
        }
        let family = part(0)
        let given = part(1)
        if !family.isEmpty, !given.isEmpty, isEastAsian(family), isEastAsian(given), part(2).isEmpty {
            return [part(3), family + given, part(4)].filter { !$0.isEmpty }.joined(separator: " ")
        }
        return [part(3), given, part(2), family, part(4)].filter { !$0.isEmpty }.joined(separator: " ")
    }

    /// The N line the writer derives from a name: the last word is the family name and the
    /// rest the given name, which reads back as the same name; a single word is a given name.
    static func derivedLine(for name: String) -> String {
        // The common case, words with one space between them: split at the last space.
        let utf8 = name.utf8
        if let space = utf8.lastIndex(of: 32), space != utf8.startIndex, utf8.first != 32,
            !zip(utf8, utf8.dropFirst()).contains(where: { $0 == 32 && $1 == 32 })
        {
            let given = String(name[..<space])
            let family = String(name[name.utf8.index(after: space)...])
            if !family.isEmpty { return "N:" + VCardText.escape(family) + ";" + VCardText.escape(given) + ";;;" }
        }
        let words = name.split(separator: " ", omittingEmptySubsequences: true)
        let family = words.count > 1 ? String(words.last!) : ""
        let given = words.count > 1 ? words.dropLast().joined(separator: " ") : name
        return "N:" + VCardText.join([family, given, "", "", ""], separator: ";")
    }

    private static func isEastAsian(_ text: String) -> Bool {
        text.unicodeScalars.allSatisfy { scalar in
            switch scalar.value {
            case 0xAC00...0xD7A3, 0x1100...0x11FF, 0x3130...0x318F,  // Hangul
                0x3040...0x30FF,  // kana
                0x4E00...0x9FFF, 0x3400...0x4DBF:  // Han
                return true
            default:
                return false
            }
        }
    }
}

/// ADR's parts as one readable line.
enum AddressLine {
    /// `PO Box, Extended, Street, Locality, Region Code, Country`, leaving out empty parts; a
    /// street on several lines is joined with commas.
    static func line(from components: [String]) -> String {
        func part(_ index: Int) -> String {
            guard index < components.count else { return "" }
            // Most parts are on one line.
            if !SimpleText.hasNewline(components[index]) { return components[index].trimmingVCardWhitespace }
            return components[index].split(whereSeparator: \.isNewline)
                .map { $0.trimmingVCardWhitespaceSubstring }
                .filter { !$0.isEmpty }
                .joined(separator: ", ")
        }
        let regionAndCode = [part(4), part(5)].filter { !$0.isEmpty }.joined(separator: " ")
        return [part(0), part(1), part(2), part(3), regionAndCode, part(6)]
            .filter { !$0.isEmpty }
            .joined(separator: ", ")
    }
}

extension String {
    /// Line breaks replaced by spaces (for one-line fields).
    var replacingNewlines: String {
        // ASCII without CR or LF has no line break to replace.
        guard SimpleText.hasNewline(self) else { return self }
        return String(map { $0.isNewline ? " " : $0 })
    }
}

extension Substring {
    var trimmingVCardWhitespaceSubstring: String { String(self).trimmingVCardWhitespace }
}
