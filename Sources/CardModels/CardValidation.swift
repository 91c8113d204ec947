/// Limits of the card contract, shared by the server's validation and the client's forms.
public enum CardLimits {
    /// Longest name, in characters.
    public static let nameMaxLength = 64
    /// Longest title, company, department (and other short text), in characters.
    public static let shortTextMaxLength = 100
    /// Longest email, in characters.
    public static let emailMaxLength = 254
    /// Longest phone number, in characters.
    public static let phoneMaxLength = 32
    /// Longest website address, in characters.
    public static let websiteMaxLength = 2048
    /// Longest postal address, in characters.
    public static let addressMaxLength = 200
    /// Longest bio, in characters.
    public static let bioMaxLength = 500
    /// Most fun facts.
    public static let funFactsMaxCount = 3
    /// Longest fun fact, in characters.
    public static let funFactMaxLength = 100
    /// Most tags.
    public static let tagsMaxCount = 10
    /// Longest tag, in characters.
    public static let tagMaxLength = 32
    /// The avatar numbers.
    public static let defaultImageRange = 0...7
    /// The default largest image accepted by `POST /card`: 2 MiB.
    public static let imageMaxBytes = 2 * 1024 * 1024
    /// Most kept vCard property lines (``CardFields/vcardProperties``).
    public static let vcardPropertiesMaxCount = 200
    /// Longest kept vCard property line, in characters (unfolded): room for the notes of a few
    /// pages that people keep, and an Outlook card design, whole.
    public static let vcardPropertyMaxLength = 32_000
    /// Most characters in all the kept vCard property lines of a card: what bounds the size of a
    /// card body (the server's allowance for kept lines is computed from it).
    public static let vcardPropertiesMaxTotalLength = 400_000
    /// The JSON key and part suffix of ``CardFields/vcardProperties``.
    public static let vcardPropertiesKey = "vcardProperties"
}

extension CardFields {
    /// The problems with these fields, by field key (`name`, `email`, …); empty when valid.
    ///
    /// Both the server (answering E01 with `fields`) and the client's forms (inline, as you
    /// type) use this, so they never disagree. Lengths count characters, not bytes.
    public func validate() -> [String: String] {
        var problems: [String: String] = [:]
        for field in CardField.allCases {
            if let problem = problem(for: field) {
                problems[field.key] = problem
            }
        }
        if let problem = vcardPropertiesProblem() { problems[CardLimits.vcardPropertiesKey] = problem }
        return problems
    }

    /// The problem with ``vcardProperties``, or `nil` when they are fine: at most
    /// ``CardLimits/vcardPropertiesMaxCount`` lines, each non-empty, at most
    /// ``CardLimits/vcardPropertyMaxLength`` characters, without NUL, CR or LF (lines are
    /// unfolded), and at most ``CardLimits/vcardPropertiesMaxTotalLength`` characters in all.
    public func vcardPropertiesProblem() -> String? {
        if vcardProperties.count > CardLimits.vcardPropertiesMaxCount {
            return "may hold at most \(CardLimits.vcardPropertiesMaxCount) lines"
        }
        var bytes = 0
        for line in vcardProperties {
            bytes += line.utf8.count
            if line.isEmpty { return "must not hold empty lines" }
            if line.utf8.contains(where: { $0 == 0 || $0 == 13 || $0 == 10 }) {
                return "must hold unfolded lines without NUL, CR or LF"
            }
            // At most as many characters as bytes: short lines need no counting.
            if line.utf8.count <= CardLimits.vcardPropertyMaxLength { continue }
            var count = 0
            for _ in line {
                count += 1
                if count > CardLimits.vcardPropertyMaxLength {
                    return "must hold lines of at most \(CardLimits.vcardPropertyMaxLength) characters"
                }
            }
        }
        // At most as many characters as bytes: a total within the limit in bytes needs no counting.
        if bytes > CardLimits.vcardPropertiesMaxTotalLength,
            vcardProperties.reduce(0, { $0 + $1.count }) > CardLimits.vcardPropertiesMaxTotalLength
        {
            return "must hold at most \(CardLimits.vcardPropertiesMaxTotalLength) characters in all"
        }
        return nil
    }

    /// The problem with one field, or `nil` when it is fine: what its kind requires
    /// (``FieldDescriptor/Kind``), within its length.
    public func problem(for field: CardField) -> String? {
        let descriptor = field.descriptor
        switch (descriptor.kind, self[value: field]) {
        case (.list(let style), .list(let items)):
            if items.count > style.maximumCount { return "may hold at most \(style.maximumCount) \(style.noun)" }
            return items.lazy.compactMap { textProblem($0, field: field) }.first
        case (.number(let range), .number(let number)):
            return range.contains(number) ? nil : "must be a number from \(range.lowerBound) to \(range.upperBound)"
        case (let kind, .text(let text)):
            if descriptor.isRequired {
                let trimmed = (text ?? "").trimmedForCard
                if trimmed.isEmpty { return "is required" }
                return textProblem(trimmed, field: field)
            }
            guard let text, !text.isEmpty else { return nil }
            // A date's form says everything; other values must first fit their length, so a
            // 1 MB "email" is refused without being parsed.
            if kind == .date { return Self.formatProblem(text, kind) }
            return textProblem(text, field: field) ?? Self.formatProblem(text, kind)
        default:
            return nil
        }
    }

    /// What is wrong with `text` as a value of `kind`'s format, if anything.
    private static func formatProblem(_ text: String, _ kind: FieldDescriptor.Kind) -> String? {
        switch kind {
        case .email: CardFormat.isEmail(text) ? nil : "is not an email address"
        case .phone: CardFormat.isPhone(text) ? nil : "may hold only digits, spaces and + - ( ) ."
        case .url: CardFormat.isWebURL(text) ? nil : "must be an http:// or https:// address"
        case .date: CardFormat.isCalendarDate(text) ? nil : "must be a real date as YYYY-MM-DD"
        case .shortText, .longText, .list, .number: nil
        }
    }

    private func textProblem(_ text: String, field: CardField) -> String? {
        if text.utf8.contains(0) { return "must not contain NUL characters" }
        // A string has at most as many characters as bytes: short ones need no counting.
        if text.utf8.count <= field.maxLength { return nil }
        // Count characters lazily so a 1 MB string is rejected without walking all of it.
        var count = 0
        for _ in text {
            count += 1
            if count > field.maxLength { return "must be at most \(field.maxLength) characters" }
        }
        return nil
    }
}

/// Format checks shared by the server and the client.
public enum CardFormat {
    /// A pragmatic email check: one `@`, a non-empty local part, a dotted domain, no spaces.
    public static func isEmail(_ text: String) -> Bool {
        if text.utf8.allSatisfy({ $0 < 0x80 }) { return isASCIIEmail(text.utf8) }
        let parts = text.split(separator: "@", omittingEmptySubsequences: false)
        guard parts.count == 2, !parts[0].isEmpty else { return false }
        let domain = parts[1]
        // Character comparisons (not Foundation's substring search, which costs ~100× more:
        // the vCard import checks every email it reads).
        let dot: Character = "."
        guard domain.contains(dot), domain.first != dot, domain.last != dot,
            !zip(domain, domain.dropFirst()).contains(where: { $0 == dot && $1 == dot })
        else { return false }
        return !text.contains(where: { $0.isWhitespace || $0.isNewline })
    }

    /// ``isEmail(_:)`` for ASCII text, on its bytes (where characters and bytes are the same
    /// thing, CR LF aside, which is whitespace either way).
    private static func isASCIIEmail(_ bytes: String.UTF8View) -> Bool {
        let at = UInt8(ascii: "@")
        let dot = UInt8(ascii: ".")
        guard let sign = bytes.firstIndex(of: at), sign != bytes.startIndex else { return false }
        let domain = bytes[bytes.index(after: sign)...]
        guard !domain.contains(at), domain.contains(dot), domain.first != dot, domain.last != dot,
            !zip(domain, domain.dropFirst()).contains(where: { $0 == dot && $1 == dot })
        else { return false }
        // The ASCII characters that are whitespace or line breaks: tab, LF, VT, FF, CR, space.
        return !bytes.contains(where: { $0 == 32 || (9...13).contains($0) })
    }

    /// Digits, spaces and `+ - ( ) .`, with at least three digits.
    public static func isPhone(_ text: String) -> Bool {
        // Every allowed character is one ASCII byte, so the bytes decide (a combining mark after
        // a digit is a non-ASCII byte, refused as the character check refused it).
        var digits = 0
        for byte in text.utf8 {
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): digits += 1
            case UInt8(ascii: " "), UInt8(ascii: "+"), UInt8(ascii: "-"), UInt8(ascii: "("), UInt8(ascii: ")"),
                UInt8(ascii: "."):
                break
            default: return false
            }
        }
        return digits >= 3
    }

    /// `http://` or `https://` followed by a host without spaces.
    public static func isWebURL(_ text: String) -> Bool {
        // The scheme, ignoring ASCII case (no other character lower-cases to h, t, p or s).
        func scheme(_ prefix: String) -> Bool {
            text.utf8.count >= prefix.utf8.count
                && zip(text.utf8, prefix.utf8).allSatisfy { ($0 >= 65 && $0 <= 90 ? $0 + 32 : $0) == $1 }
        }
        let rest: Substring
        if scheme("https://") {
            rest = text.dropFirst(8)
        } else if scheme("http://") {
            rest = text.dropFirst(7)
        } else {
            return false
        }
        let host = rest.prefix { $0 != "/" && $0 != "?" && $0 != "#" }
        guard !host.isEmpty else { return false }
        if text.utf8.allSatisfy({ $0 < 0x80 }) {
            return !text.utf8.contains(where: { $0 == 32 || (9...13).contains($0) })
        }
        return !text.contains(where: { $0.isWhitespace || $0.isNewline })
    }

    /// A real Gregorian date written `YYYY-MM-DD` (leap years included).
    public static func isCalendarDate(_ text: String) -> Bool {
        let utf8 = Array(text.utf8)
        guard utf8.count == 10, utf8[4] == UInt8(ascii: "-"), utf8[7] == UInt8(ascii: "-") else { return false }
        func number(_ range: Range<Int>) -> Int? {
            var value = 0
            for byte in utf8[range] {
                guard byte >= UInt8(ascii: "0"), byte <= UInt8(ascii: "9") else { return nil }
                value = value * 10 + Int(byte - UInt8(ascii: "0"))
            }
            return value
        }
        guard let year = number(0..<4), let month = number(5..<7), let day = number(8..<10),
            year >= 1, (1...12).contains(month), day >= 1
        else { return false }
        let isLeap = (year % 4 == 0 && year % 100 != 0) || year % 400 == 0
        let days = [31, isLeap ? 29 : 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31][month - 1]
        return day <= days
    }
}
