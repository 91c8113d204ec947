/// An email address, website or phone number found on a line.
struct ContactHit: Sendable, Equatable {
    /// What was found.
    enum Kind: Sendable, Equatable {
        case email
        case website
        /// A phone, with what its label said (`nil` when it had none).
        case phone(ScanRules.LabelKind?)
    }

    var kind: Kind
    /// The value as the card keeps it (`https://…` for a website, the number without its label
    /// or extension for a phone).
    var value: String
    /// A phone's extension, when one was printed.
    var phoneExtension: String?
    /// The line it was on.
    var line: Int
    /// How sure the OCR was of that line.
    var confidence: Double
}

/// Finds email addresses, websites and phone numbers in a line's words, repairing what OCR
/// typically breaks in them: a space inside (`pureu nsoop.co.kr`), a dot read as a comma or
/// lost (`acme-robotics fr`), `O` for `0` and `l` for `1` among digits, `=` for `-`.
enum ContactFinder {
    /// The contacts of `line`, and the text left when they and their labels are taken out
    /// (`nil` when nothing that reads as words is left).
    static func contacts(in line: ScanLine) -> (hits: [ContactHit], rest: String?) {
        var tokens = splitGluedLabels(line.tokens)
        var used = Array(repeating: false, count: tokens.count)
        var hits: [ContactHit] = []
        func hit(_ kind: ContactHit.Kind, _ value: String, _ ext: String? = nil) {
            hits.append(
                ContactHit(kind: kind, value: value, phoneExtension: ext, line: line.index, confidence: line.confidence)
            )
        }
        for index in tokens.indices where !used[index] && tokens[index].contains("@") {
            if let (email, range) = EmailReader.email(at: index, in: tokens) {
                for token in range { used[token] = true }
                hit(.email, email)
            }
        }
        for index in tokens.indices where !used[index] {
            if let (site, range) = WebsiteReader.website(at: index, in: tokens, used: used) {
                for token in range { used[token] = true }
                hit(.website, site)
            }
        }
        for phone in PhoneReader.phones(in: &tokens, used: &used) {
            hit(.phone(phone.label), phone.number, phone.extension)
        }
        // Labels of what was found are used up too.
        if !hits.isEmpty {
            for index in tokens.indices where !used[index] && ScanRules.labels[tokens[index].ruleKey] != nil {
                used[index] = true
            }
        }
        let rest = tokens.indices.filter { !used[$0] }.map { tokens[$0] }.joined(separator: " ").trimmed()
        return (hits, rest.letterCount >= 2 ? rest : nil)
    }

    /// Labels glued to their value split off: `Tel:+44`, `E:ada@x.com`, `T.02-555` → two words.
    static func splitGluedLabels(_ tokens: [String]) -> [String] {
        tokens.flatMap { token -> [String] in
            for separator in [":", "."] {
                guard let cut = token.firstIndex(of: Character(separator)) else { continue }
                let label = String(token[..<cut])
                let rest = String(token[token.index(after: cut)...])
                if !rest.isEmpty, ScanRules.labels[label.ruleKey] != nil, label.count <= 8,
                    rest.first.map({ $0.isDigit || $0 == "+" || $0 == "(" || $0.isLetter }) == true,
                    !(separator == "." && rest.first!.isLetter)  // `e.g`, `p.o`
                {
                    return [label + separator, rest]
                }
            }
            return [token]
        }
    }
}

/// Email addresses.
enum EmailReader {
    /// The email around the word at `index` (which holds `@`), and the words it took.
    static func email(at index: Int, in tokens: [String]) -> (String, ClosedRange<Int>)? {
        let token = tokens[index]
        guard let at = token.firstIndex(of: "@") else { return nil }
        var first = index
        var last = index
        var local = String(token[..<at])
        var domain = String(token[token.index(after: at)...])
        // `seojun. jang@…`: the local part broken by a space after a dot.
        if local.isEmpty || local.hasPrefix(".") {
            if index > 0, isLocalPart(tokens[index - 1]) {
                local = tokens[index - 1] + local
                first = index - 1
            }
        } else if index > 0, isLocalPart(tokens[index - 1]), ScanRules.labels[tokens[index - 1].ruleKey] == nil,
            tokens[index - 1].hasSuffix(".") || tokens[index - 1].hasSuffix("_")
                || (tokens[index - 1].contains(".") && tokens[index - 1] == tokens[index - 1].lowercased())
                || local.count <= 2
        {
            // `seojun.ja ng@…`, `i. whitfield@…`: a space read inside the local part.
            local = tokens[index - 1] + local
            first = index - 1
        }
        // A label glued before the address (`E:ada@…`, `Email:ada@…`).
        if let colon = local.lastIndex(of: ":") { local = String(local[local.index(after: colon)...]) }
        local = local.replacingInnerCommas()
        domain = domain.replacingCommas()
        while last + 1 < tokens.count {
            let next = tokens[last + 1].replacingCommas().trimmed()
            guard !next.isEmpty, next.count <= 40, next.allSatisfy(Domain.isHostCharacter) else { break }
            // `…co kr`: a second-level name whose country code OCR set apart.
            let countryAfterSecondLevel =
                Domain.endsWithSecondLevel(domain) && next.count == 2 && Domain.isTopLevel(next)
            guard !Domain.isComplete(domain) || domain.hasSuffix(".") || countryAfterSecondLevel else { break }
            if domain.hasSuffix(".") || next.hasPrefix(".") {
                domain += next
            } else if Domain.isTopLevel(next.ruleKey), !domain.contains(".") || Domain.endsWithSecondLevel(domain) {
                domain += "." + next
            } else {
                domain += next
            }
            last += 1
        }
        local = local.trimmed(of: "(<\"'")
        domain = Domain.repairingLastDash(domain.trimmed(of: ".)>\"'").lowercased())
        let email = local.lowercased() + "@" + domain
        guard !local.isEmpty, local.allSatisfy(isLocalCharacter), Domain.isComplete(domain) else { return nil }
        return (email, first...last)
    }

    static func isLocalCharacter(_ character: Character) -> Bool {
        character.isASCII && (character.isLetter || character.isNumber || "._%+-'".contains(character))
    }

    static func isLocalPart(_ token: String) -> Bool {
        !token.isEmpty && token.allSatisfy(isLocalCharacter) && token.letterCount >= 1
    }
}

/// Host names, as emails and websites end.
enum Domain {
    /// Letters, digits, `-` and `.`.
    static func isHostCharacter(_ character: Character) -> Bool {
        character.isASCII && (character.isLetter || character.isNumber || character == "-" || character == ".")
    }

    /// A top-level domain: a common generic one, or any two letters (a country's).
    static func isTopLevel(_ label: String) -> Bool {
        let lower = label.lowercased()
        return ScanRules.topLevelDomains.contains(lower)
            || (lower.count == 2 && lower.allSatisfy { $0.isASCII && $0.isLetter })
    }

    /// Whether the host ends in `.co`, `.or`… that a country code should follow (`acme.co`
    /// is a whole domain, but `acme.co kr` is `acme.co.kr` broken by OCR).
    static func endsWithSecondLevel(_ host: String) -> Bool {
        let labels = host.split(separator: ".")
        guard labels.count >= 2, let last = labels.last else { return false }
        return ScanRules.secondLevelDomains.contains(String(last).lowercased())
    }

    /// `miraeenergy-kr` → `miraeenergy.kr`: the dot before the top-level domain read as `-`,
    /// when the host has no top-level domain otherwise.
    static func repairingLastDash(_ host: String) -> String {
        guard !isComplete(host), let dash = host.lastIndex(of: "-") else { return host }
        let ending = String(host[host.index(after: dash)...])
        guard isTopLevel(ending) else { return host }
        let repaired = host[..<dash] + "." + ending
        return isComplete(repaired) ? repaired : host
    }

    /// Two or more labels of host characters, the last a top-level domain.
    static func isComplete(_ host: String) -> Bool {
        let labels = host.split(separator: ".", omittingEmptySubsequences: false)
        guard labels.count >= 2, let last = labels.last, isTopLevel(String(last)) else { return false }
        return labels.allSatisfy { label in
            !label.isEmpty && label.allSatisfy(isHostCharacter) && !label.hasPrefix("-") && !label.hasSuffix("-")
        }
    }
}

extension String {
    /// With `,` read for `.` (OCR's most common slip in addresses) put right.
    func replacingCommas() -> String { String(map { $0 == "," ? "." : $0 }) }

    /// With `,` between two characters read as `.` (`www,acme,com`), but a comma at either end
    /// kept: `Seattle,` is a town before its state.
    func replacingInnerCommas() -> String {
        var characters = Array(self)
        for index in characters.indices.dropFirst().dropLast() where characters[index] == "," {
            characters[index] = "."
        }
        return String(characters)
    }
}
