/// Host names, as emails and websites end, judged by a list of ``DomainEndings``.
struct HostNames: Sendable {
    /// What a host may end in.
    let endings: DomainEndings

    /// Letters, digits, `-` and `.`.
    static func isHostCharacter(_ character: Character) -> Bool {
        character.isASCII && (character.isLetter || character.isNumber || character == "-" || character == ".")
    }

    /// Two or more non-empty labels of host characters: what an email's domain or a website's
    /// host must look like before ``HostReading`` judges its ending.
    static func isHostShaped(_ host: String) -> Bool {
        let labels = host.split(separator: ".", omittingEmptySubsequences: false)
        return labels.count >= 2 && labels.allSatisfy { !$0.isEmpty && $0.allSatisfy(isHostCharacter) }
    }

    /// Spelled as a host name whatever it ends in: two or more labels of letters, digits and
    /// inner dashes, the last one spelled as a top-level domain is (2–63 letters, or `xn--…`).
    static func isWellFormed(_ host: String) -> Bool {
        let labels = host.split(separator: ".", omittingEmptySubsequences: false)
        guard labels.count >= 2, let last = labels.last, isTopLevelShaped(last) else { return false }
        return labels.allSatisfy { label in
            !label.isEmpty && label.count <= 63 && label.allSatisfy(isHostCharacter) && !label.hasPrefix("-")
                && !label.hasSuffix("-")
        }
    }

    /// 2–63 ASCII letters, or an internationalised name's `xn--` form.
    static func isTopLevelShaped(_ label: some StringProtocol) -> Bool {
        guard (2...63).contains(label.count) else { return false }
        if label.lowercased().hasPrefix("xn--") {
            return label.dropFirst(4).allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "-") }
        }
        return label.allSatisfy { $0.isASCII && $0.isLetter }
    }

    /// Well formed, ending in a known top-level domain, with a name before its ending
    /// (`acme.co.kr`, not `co.kr`).
    func isComplete(_ host: String) -> Bool {
        guard Self.isWellFormed(host), let ending = endings.endingLabelCount(of: host) else { return false }
        return host.split(separator: ".").count > ending
    }

    /// Whether `label` read apart after `host` belongs to it, its dot lost (`blueharbor fr`,
    /// `acme.co kr`): joined, the host is complete where it was not, or the host's last label
    /// and `label` make one ending (`co` and `kr`: `co.kr`; not `com` and `de`). `label` must be
    /// letters in the host's case, as OCR keeps case.
    func belongs(_ label: String, after host: String) -> Bool {
        let host = host.trimmed(of: ".")
        guard Self.isTopLevelShaped(label), endings.isTopLevel(label), sameCase(label, host) else { return false }
        let joined = host + "." + label
        guard isComplete(joined) else { return false }
        return !isComplete(host) || (endings.endingLabelCount(of: joined) ?? 0) >= 2
    }

    /// Both lower-case, or both capitals, or `host` mixed (`Acme.co KR` is still one host).
    private func sameCase(_ label: String, _ host: String) -> Bool {
        let letters = host.filter(\.isLetter)
        if letters.allSatisfy(\.isLowercase) { return label.allSatisfy(\.isLowercase) }
        if letters.allSatisfy(\.isUppercase) { return label.allSatisfy(\.isUppercase) }
        return true
    }

    /// `miraeenergy-kr` → `miraeenergy.kr`: the dot before the top-level domain read as `-`,
    /// when the host has no known ending otherwise.
    func repairingLastDash(_ host: String) -> String {
        guard !isComplete(host), let dash = host.lastIndex(of: "-") else { return host }
        let ending = String(host[host.index(after: dash)...])
        guard endings.isTopLevel(ending) else { return host }
        let repaired = host[..<dash] + "." + ending
        return isComplete(repaired) ? repaired : host
    }

    /// `domain` (ending in `-`) continued by `next` with the dash read as a dot
    /// (`miraeenergy-` `padova.it` → `miraeenergy.padova.it`), when that makes a longer known
    /// ending than the dash does (`.padova.it` against `.it`); `nil` otherwise.
    func dashAsDot(before next: String, in domain: String) -> String? {
        let dashed = domain + next
        let dotted = domain.dropLast() + "." + next
        guard isComplete(dotted) else { return nil }
        return (endings.endingLabelCount(of: dotted) ?? 0) > (endings.endingLabelCount(of: dashed) ?? 0) ? dotted : nil
    }

    /// `host` with the last dash before its ending read as a dot, when that makes a longer
    /// known ending (`miraeenergy-padova.it` → `miraeenergy.padova.it`: `.padova.it` is an
    /// ending of the list); `nil` otherwise. Only for doubtful readings: `hotel-roma.it` read
    /// clearly stays as printed.
    func dashAsDot(_ host: String) -> String? {
        var labels = host.split(separator: ".", omittingEmptySubsequences: false).map(String.init)
        let ending = endings.endingLabelCount(of: host) ?? 1
        guard labels.count > ending else { return nil }
        // The last dash of the label right before the ending.
        let position = labels.count - ending - 1
        let label = labels[position]
        guard let dash = label.lastIndex(of: "-") else { return nil }
        labels.replaceSubrange(
            position...position, with: [String(label[..<dash]), String(label[label.index(after: dash)...])])
        let candidate = labels.joined(separator: ".")
        guard isComplete(candidate), (endings.endingLabelCount(of: candidate) ?? 0) > ending else { return nil }
        return candidate
    }

    /// The readings of `host` with one of OCR's misreadings in its last label put right
    /// (``ScanRules/endingMisreadings``: `acme.corn` → `acme.com`) that are complete, without
    /// repeats.
    func endingRepairs(of host: String) -> [String] {
        guard let dot = host.lastIndex(of: ".") else { return [] }
        let name = String(host[...dot])
        let label = Array(host[host.index(after: dot)...].lowercased())
        var repairs: [String] = []
        for (read, meant) in ScanRules.endingMisreadings {
            let pattern = Array(read)
            guard pattern.count <= label.count else { continue }
            for start in 0...(label.count - pattern.count) where Array(label[start..<start + pattern.count]) == pattern
            {
                let fixed = String(label[..<start]) + meant + String(label[(start + pattern.count)...])
                let candidate = name + fixed
                if isComplete(candidate), !repairs.contains(candidate) { repairs.append(candidate) }
            }
        }
        return repairs
    }

    /// The ending as a note shows it: `.corn`, `.co.kr`.
    func ending(of host: String) -> String {
        let count = endings.endingLabelCount(of: host) ?? 1
        return "." + host.split(separator: ".").suffix(count).joined(separator: ".")
    }

    /// The name registered for the host: the organisation's label and the ending
    /// (`www.hanbitsoft.co.kr`, `mail.hanbitsoft.co.kr` → `hanbitsoft.co.kr`); `nil` when it has
    /// no label before its ending or the ending is unknown.
    func registeredName(of host: String) -> String? {
        let labels = host.lowercased().split(separator: ".")
        guard let ending = endings.endingLabelCount(of: host), labels.count > ending else { return nil }
        return labels.suffix(ending + 1).joined(separator: ".")
    }

    /// The label that names the organisation, the one before the ending, letters and digits
    /// only: `acme-robotics.co.uk` → `acmerobotics`, `mail.firm.co.jp` → `firm`; `nil` for a free
    /// email provider's domain or one without a name before its ending.
    func organisationName(of domain: String) -> String? {
        let labels = domain.lowercased().split(separator: ".").map(String.init)
        let ending = endings.endingLabelCount(of: domain) ?? 1
        guard labels.count > ending else { return nil }
        let name = labels[labels.count - ending - 1]
        guard !ScanRules.freeMailDomains.contains(name) else { return nil }
        return name.filter { $0.isLetter || $0.isNumber }
    }
}
