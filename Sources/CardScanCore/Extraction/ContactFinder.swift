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
    /// What the reader should check: an address's ending the list did not know, or repaired.
    var note: String? = nil
    /// Another reading of an email, with the space OCR read inside its domain taken as a dot,
    /// for the card's website to choose (``AddressAgreement``).
    var alternative: String? = nil
}

/// Finds email addresses, websites and phone numbers in a line's words, repairing what OCR
/// typically breaks in them: a space inside (`pureu nsoop.co.kr`), a dot read as a comma or
/// lost (`acme-robotics fr`), `O` for `0` and `l` for `1` among digits, `=` for `-`. What an
/// address's host becomes is ``HostReading``'s choice.
struct ContactFinder: Sendable {
    /// What was found on one line.
    struct Found: Sendable, Equatable {
        /// The contacts.
        var hits: [ContactHit] = []
        /// The text left when they and their labels are taken out (`nil` when nothing that
        /// reads as words is left).
        var rest: String?
        /// Notes on addresses read but not used (their words are taken out of `rest`).
        var dropped: [String] = []
    }

    /// What hosts may end in.
    var hosts: HostNames
    /// An address whose least sure word was read with this confidence (0–100) or more is
    /// used whatever it ends in.
    var sureReading: Double

    /// The contacts of `line`.
    func contacts(in line: ScanLine) -> Found {
        let split = Self.splitGluedLabels(Array(zip(line.tokens, line.tokenConfidences)))
        var tokens = split.map(\.0)
        let confidences = split.map(\.1)
        var used = Array(repeating: false, count: tokens.count)
        var found = Found()
        func hit(_ kind: ContactHit.Kind, _ value: String, _ ext: String? = nil, note: String? = nil) {
            found.hits.append(
                ContactHit(
                    kind: kind, value: value, phoneExtension: ext, line: line.index, confidence: line.confidence,
                    note: note))
        }
        for index in tokens.indices where !used[index] && tokens[index].contains("@") {
            guard let email = EmailReader.email(at: index, in: tokens, hosts: hosts) else { continue }
            for token in email.range { used[token] = true }
            let confidence = email.range.map { confidences[$0] }.min() ?? 0
            let reading = HostReading.judge(email.domain, sure: confidence >= sureReading, hosts: hosts)
            let note = hosts.note(for: reading, confidence: confidence) { email.local + "@" + $0 }
            if let host = reading.usable {
                hit(.email, email.local + "@" + host, note: note)
                found.hits[found.hits.count - 1].alternative = email.spaceAsDot.map { email.local + "@" + $0 }
            } else if let note {
                found.dropped.append(note)
            }
        }
        for index in tokens.indices where !used[index] {
            guard let site = WebsiteReader.website(at: index, in: tokens, used: used, hosts: hosts) else { continue }
            let confidence = site.range.map { confidences[$0] }.min() ?? 0
            let reading = HostReading.judge(site.host, sure: confidence >= sureReading, hosts: hosts)
            // A bare `name.word` is a website only when its ending is known: without `www.`, a
            // scheme or a label, nothing else says it is one.
            let announced = site.announced || (index > 0 && ScanRules.labels[tokens[index - 1].ruleKey] == .website)
            guard announced || reading == .known(site.host) else { continue }
            for token in site.range { used[token] = true }
            let note = hosts.note(for: reading, confidence: confidence) { site.value(host: $0) }
            if let host = reading.usable {
                hit(.website, site.value(host: host), note: note)
            } else if let note {
                found.dropped.append(note)
            }
        }
        for phone in PhoneReader.phones(in: &tokens, used: &used) {
            hit(.phone(phone.label), phone.number, phone.extension)
        }
        // Labels of what was found are used up too.
        if !found.hits.isEmpty || !found.dropped.isEmpty {
            for index in tokens.indices where !used[index] && ScanRules.labels[tokens[index].ruleKey] != nil {
                used[index] = true
            }
        }
        let rest = tokens.indices.filter { !used[$0] }.map { tokens[$0] }.joined(separator: " ").trimmed()
        found.rest = rest.letterCount >= 2 ? rest : nil
        return found
    }

    /// Labels glued to their value split off: `Tel:+44`, `E:ada@x.com`, `T.02-555` → two words,
    /// each with the glued word's confidence.
    static func splitGluedLabels(_ tokens: [(String, Double)]) -> [(String, Double)] {
        tokens.flatMap { token, confidence -> [(String, Double)] in
            for separator in [":", "."] {
                guard let cut = token.firstIndex(of: Character(separator)) else { continue }
                let label = String(token[..<cut])
                let rest = String(token[token.index(after: cut)...])
                if !rest.isEmpty, ScanRules.labels[label.ruleKey] != nil, label.count <= 8,
                    rest.first.map({ $0.isDigit || $0 == "+" || $0 == "(" || $0.isLetter }) == true,
                    !(separator == "." && rest.first!.isLetter)  // `e.g`, `p.o`
                {
                    return [(label + separator, confidence), (rest, confidence)]
                }
            }
            return [(token, confidence)]
        }
    }
}

/// Email addresses.
enum EmailReader {
    /// An address as read: its local part, its domain before ``HostReading``'s choice, and
    /// the words it took.
    struct Read: Sendable, Equatable {
        var local: String
        var domain: String
        var range: ClosedRange<Int>
        /// The domain with the first space read inside it taken as a lost dot instead
        /// (`mail hanbitsoft.com`: `mail.hanbitsoft.com` rather than `mailhanbitsoft.com`), for
        /// the card's website to choose (``AddressAgreement``).
        var spaceAsDot: String? = nil
    }

    /// The email around the word at `index` (which holds `@`), or `nil` when it is not shaped
    /// as one (no local part, a domain without a dot).
    static func email(at index: Int, in tokens: [String], hosts: HostNames) -> Read? {
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
        local = String(local.replacingInnerCommas().map { ScanRules.localPartMisreadings[$0] ?? $0 })
        domain = domain.replacingCommas()
        var spaceAt: Int?
        while last + 1 < tokens.count {
            let next = tokens[last + 1].replacingCommas().trimmed()
            guard !next.isEmpty, next.count <= 40, next.allSatisfy(HostNames.isHostCharacter) else { break }
            if domain.hasSuffix(".") || next.hasPrefix(".") {
                domain += next  // `acme. com`, `hanbitsoft.co. kr`
            } else if hosts.belongs(next.trimmed(of: "."), after: domain) {
                domain += "." + next.trimmed(of: ".")  // `acme-robotics fr`, `seouldatalab.co kr`
            } else if domain.hasSuffix("-"), let dotted = hosts.dashAsDot(before: next, in: domain) {
                domain = dotted  // `miraeenergy- padova.it`: `.padova.it` is an ending, `.it` a shorter one
            } else if !HostNames.isWellFormed(domain.trimmed(of: ".")) {
                // `pureu nsoop.co.kr`: a space read inside the name; or a lost dot (kept in mind).
                if spaceAt == nil, !domain.isEmpty, !domain.hasSuffix("-") { spaceAt = domain.count }
                domain += next
            } else {
                break
            }
            last += 1
        }
        local = local.trimmed(of: "(<\"'")
        let raw = domain
        domain = hosts.repairingLastDash(domain.trimmed(of: ".)>\"'").lowercased())
        guard !local.isEmpty, local.allSatisfy(isLocalCharacter), HostNames.isHostShaped(domain) else { return nil }
        let alternative = spaceAt.map { offset in
            hosts.repairingLastDash(
                (raw.prefix(offset) + "." + raw.dropFirst(offset)).trimmed(of: ".)>\"'").lowercased())
        }
        return Read(
            local: local.lowercased(), domain: domain, range: first...last,
            spaceAsDot: alternative.flatMap { hosts.isComplete($0) && $0 != domain ? $0 : nil })
    }

    static func isLocalCharacter(_ character: Character) -> Bool {
        character.isASCII && (character.isLetter || character.isNumber || "._%+-'".contains(character))
    }

    static func isLocalPart(_ token: String) -> Bool {
        !token.isEmpty && token.allSatisfy(isLocalCharacter) && token.letterCount >= 1
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
