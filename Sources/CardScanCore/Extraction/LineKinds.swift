/// What a line that is not a contact may be, judged by ``ScanRules``' tables alone.
enum LineKinds {
    // MARK: Titles and departments

    /// A job title: it holds a role word (`Director`, `Engineer`, `팀장`, `수석 엔지니어`).
    static func isTitle(_ text: String) -> Bool {
        let words = text.words
        guard !words.isEmpty, words.count <= 8, !text.contains("@"), text.digitCount <= 1 else { return false }
        if words.contains(where: { ScanRules.roleWords.contains($0.ruleKey) }) { return true }
        // `Co-Founder`, `Director/Partner`.
        let pieces = words.flatMap { $0.split(whereSeparator: { "-/&,".contains($0) }).map { String($0).ruleKey } }
        if pieces.contains(where: ScanRules.roleWords.contains) { return true }
        return words.contains { word in
            word.contains(where: \.isHangul)
                && ScanRules.hangulRoleWords.contains { word == $0 || (word.hasSuffix($0) && $0.count >= 2) }
        }
    }

    /// A department: a department word (`Team`, `Division`) or a function named alone
    /// (`Engineering`), or Hangul ending like one (`개발팀`, `영업본부`), and no role word.
    static func isDepartment(_ text: String) -> Bool {
        guard !isTitle(text), text.digitCount == 0, !text.contains("@") else { return false }
        let words = text.words
        guard !words.isEmpty, words.count <= 6 else { return false }
        if ScanRules.departmentNames.contains(text.lowercased()) { return true }
        if words.contains(where: { ScanRules.departmentWords.contains($0.ruleKey) }) { return true }
        let squashed = text.squashed
        return squashed.allSatisfy(\.isHangul) && squashed.count >= 2
            && ScanRules.hangulDepartmentEndings.contains { squashed.hasSuffix($0) && squashed.count > $0.count }
    }

    // MARK: Companies

    /// Whether the line names a company by its legal form: a suffix as its last word (`Ltd`,
    /// `GmbH`, `S.A.`, `AB` in capitals) or a Korean mark anywhere (`주식회사`, `㈜`).
    static func hasLegalForm(_ text: String) -> Bool {
        let squashed = text.squashed
        if ScanRules.hangulCompanyMarks.contains(where: { squashed.contains($0.lowercased()) }) { return true }
        let words = text.words
        guard words.count >= 2, let last = words.last else { return false }
        let key = last.ruleKey
        if ScanRules.legalSuffixes.contains(key) { return true }
        let bare = last.trimmed(of: ".")
        if ScanRules.capitalLegalSuffixes.contains(bare), bare == bare.uppercased() { return true }
        // `Co., Ltd.` read as one word, `S. A.` as two.
        if key.replacingCommas().split(separator: ".").last.map({ ScanRules.legalSuffixes.contains(String($0)) })
            == true
        {
            return true
        }
        if words.count >= 3, ScanRules.legalSuffixes.contains((words[words.count - 2] + last).ruleKey) { return true }
        return false
    }

    /// Whether the line's letters and the email's domain name the same thing: `Acme Robotics
    /// Inc.` and `acme-robotics.com`, `Blue Harbor Logistics` and `blueharbor.de`. `organisation`
    /// is the domain's name (``HostNames/organisationName(of:)``: `acmerobotics`, `blueharbor`).
    static func matchesDomain(_ text: String, organisation name: String?) -> Bool {
        guard let name, name.count >= 3 else { return false }
        let letters = text.foldedLetters
        guard letters.count >= 3 else { return false }
        return letters.contains(name) || (name.contains(letters) && letters.count >= 4)
    }

    /// Capitalised words only (`Northwind Traders`, `ACME`), as company names are printed.
    static func isCapitalisedPhrase(_ text: String) -> Bool {
        let words = text.words.filter { $0.letterCount > 0 }
        guard !words.isEmpty, words.count <= 6, text.digitCount == 0 else { return false }
        let small: Set<String> = ["&", "and", "of", "the", "for", "und", "de", "la", "du", "y", "et"]
        return words.allSatisfy { $0.isCapitalised || small.contains($0.lowercased()) } && text.hangulCount == 0
    }

    // MARK: Addresses

    /// A line of a postal address: a number with a street word (`123 Market Street`,
    /// `Friedrichstraße 12`), a postcode with a town (`10117 Berlin`, `Seattle, WA 98167`,
    /// `London EC1A 1BB`), or a Korean region and place words (`서울특별시 강남구 테헤란로 152`).
    static func isAddress(_ text: String) -> Bool {
        let words = text.words
        guard !words.isEmpty, !text.contains("@") else { return false }
        let keys = words.map(\.ruleKey)
        let squashed = text.squashed
        if text.hangulCount > 0 {
            if ScanRules.hangulRegions.contains(where: { squashed.hasPrefix($0) }) { return true }
            if words.count >= 2, ScanRules.hangulRegionShortNames.contains(words[0]) { return true }
            let placeWords = words.filter { word in
                ScanRules.hangulAddressEndings.contains { word.hasSuffix($0) && word.count > $0.count }
            }
            return text.digitCount > 0 && placeWords.count >= (words.count == 1 ? 1 : 2)
        }
        let hasNumber = words.contains { $0.contains(where: \.isDigit) }
        let hasStreet =
            keys.contains { ScanRules.streetWords.contains($0) }
            || keys.contains { key in ScanRules.streetEndings.contains { key.hasSuffix($0) && key.count > $0.count + 2 }
            }
            || words.contains { misreadStrasse($0) != nil }
        if hasNumber && hasStreet { return true }
        let hasPlace =
            keys.contains(where: ScanRules.places.contains)
            || zip(keys, keys.dropFirst()).contains { ScanRules.places.contains($0 + " " + $1) }
        if hasPlace && (hasNumber || words.count <= 3) && !isTitle(text) { return true }
        // `Seattle, WA 98167`: a region code before a ZIP code.
        for (code, zip) in zip(words, words.dropFirst())
        where ScanRules.regionCodes.contains(code.ruleKey)
            && code.trimmed(of: ",.") == code.trimmed(of: ",.").uppercased()
        {
            let digits = zip.trimmed(of: ",.")
            if (5...10).contains(digits.count), digits.filter(\.isDigit).count >= 5 { return true }
        }
        // `10117 Berlin`, `75002 Paris`, `111 51 Stockholm`: a postcode, then a capitalised town.
        if let first = words.first, first.allSatisfy(\.isDigit), (4...5).contains(first.count), words.count >= 2,
            words.count <= 4,
            words.last!.isCapitalised
        {
            return true
        }
        return false
    }

    /// A German street name whose `ß` OCR read as one or two other characters
    /// (`Bahnhofstraf&e`, `LindenstraBe`), with the `ß` put back; `nil` for any other word.
    static func misreadStrasse(_ word: String) -> String? {
        let characters = Array(word)
        let lower = Array(word.lowercased())
        for length in [1, 2] {
            let stem = lower.count - length - 5  // where `stra` starts
            guard stem >= 2, lower.last == "e", String(lower[stem..<(stem + 4)]) == "stra" else { continue }
            let middle = String(lower[(stem + 4)..<(lower.count - 1)])
            if middle == "ss" || middle == "ß" || middle.contains(where: { "aeiou".contains($0) }) { continue }
            return String(characters[..<(stem + 4)]) + "ße"
        }
        return nil
    }

    // MARK: Names

    /// Shaped like a person's name: two to four capitalised words of letters (`Ada Lovelace`,
    /// `Jean-Luc O'Neil`, `GRACE HOPPER`), or two to five Hangul syllables (`김민준`).
    static func isNameShaped(_ text: String) -> Bool {
        guard text.digitCount == 0, !text.contains("@") else { return false }
        let words = text.words
        if text.hangulCount > 0 {
            let squashed = text.squashed
            return squashed.allSatisfy(\.isHangul) && (2...5).contains(squashed.count) && words.count <= 2
        }
        guard (1...4).contains(words.count) else { return false }
        let honorifics: Set<String> = ["dr", "prof", "mr", "mrs", "ms", "mx", "sir", "dipl.-ing", "ing"]
        let named = words.filter { !honorifics.contains($0.ruleKey) }
        guard !named.isEmpty else { return false }
        return named.allSatisfy { word in
            let letters = word.letterCount
            return word.isCapitalised && letters >= 1 && letters * 10 >= word.count * 8 && word.count <= 24
        } && (named.count >= 2 || words.count >= 2)
    }

    /// How well a name agrees with an email's local part: 2 when both first and last name are in
    /// it (`ada.lovelace`, `alovelace`, `a.lovelace`), 1 for one of them (`ada`), 0 otherwise.
    static func agreement(name: String, emailLocal: String) -> Int {
        let parts = name.words.map(\.foldedLetters).filter { $0.count >= 2 }
        let local = emailLocal.foldedLetters
        guard parts.count >= 1, local.count >= 2 else { return 0 }
        guard let first = parts.first, let last = parts.last else { return 0 }
        if parts.count >= 2 {
            if local.contains(first) && local.contains(last) { return 2 }
            if local == String(first.prefix(1)) + last || local == first + String(last.prefix(1)) { return 2 }
            if local.contains(last) && last.count >= 3 { return 1 }
        }
        return local == first || (local.hasPrefix(first) && first.count >= 3) ? 1 : 0
    }
}
