/// Puts back the space OCR drops after a country code.
enum CountryCodes {
    /// `+822-837-7180` → `+82 2-837-7180`: when the first group after `+` is longer than any
    /// code that starts it could be, the group is split after the code (``ScanRules/shortCountryCodes``).
    /// Three-digit codes are not split: `+358 9…` printed as `+3589…` cannot be told from a
    /// two-digit code followed by digits.
    static func spaced(_ number: String) -> String {
        areaCodeSpaced(codeSpaced(number))
    }

    /// `+33 123 45 67 89` → `+33 1 23 45 67 89` (``ScanRules/singleDigitAreaCodes``).
    static func areaCodeSpaced(_ number: String) -> String {
        let groups = number.split(separator: " ", maxSplits: 2).map(String.init)
        guard groups.count >= 2, groups[0].hasPrefix("+"),
            let rule = ScanRules.singleDigitAreaCodes[String(groups[0].dropFirst())],
            let first = groups[1].first, rule.digits.contains(first)
        else { return number }
        let group = groups[1].prefix(while: \.isDigit)
        let national = String(number.dropFirst(groups[0].count)).digitCount
        guard group.count >= 3, rule.nationalLengths.contains(national) else { return number }
        return groups[0] + " " + String(first) + " " + groups[1].dropFirst() + (groups.count > 2 ? " " + groups[2] : "")
    }

    /// `+822-837-7180` → `+82 2-837-7180`.
    static func codeSpaced(_ number: String) -> String {
        guard number.hasPrefix("+") else { return number }
        let rest = number.dropFirst()
        let group = rest.prefix(while: \.isDigit)
        guard group.count >= 3 else { return number }
        for length in [1, 2] {
            let code = String(group.prefix(length))
            // `+1 415…`, `+44 20…`: codes of one and two digits that are not the start of a
            // longer code (`+35…` begins many three-digit ones and is left alone).
            if ScanRules.shortCountryCodes.contains(code), group.count > length,
                !startsLongerCode(String(group.prefix(3)))
            {
                return "+" + code + " " + rest.dropFirst(length)
            }
        }
        return number
    }

    /// Whether three digits are themselves a country code (`358`, `852`, `971`).
    static func startsLongerCode(_ digits: String) -> Bool {
        guard digits.count == 3, let first = digits.first else { return false }
        let two = String(digits.prefix(2))
        // Two-digit prefixes that are not codes themselves: what follows makes a three-digit code.
        let threeDigitPrefixes: Set<String> = [
            "21", "22", "23", "24", "25", "26", "29", "35", "37", "38", "42", "50", "59", "67", "68", "69", "80",
            "85", "87", "88", "96", "97", "99",
        ]
        return first != "1" && first != "7" && threeDigitPrefixes.contains(two)
    }
}
