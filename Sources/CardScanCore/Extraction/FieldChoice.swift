import CardModels

/// Chooses the name, company, title, department and address among the lines that are not
/// contacts, from what ``LineKinds`` says of each and from the layout.
struct FieldChoice {
    /// What is known of one line.
    struct Judged {
        var line: ScanLine
        var isTitle: Bool
        var isDepartment: Bool
        var isAddress: Bool
        var hasLegalForm: Bool
        var matchesDomain: Bool
        var isNameShaped: Bool
        var agreement: Int
    }

    private(set) var judged: [Judged]
    private let emailLocal: String?
    private let emailDomain: String?
    /// The label of the email's domain that names the organisation (`acme-robotics.co.uk` →
    /// `acmerobotics`), `nil` for a free provider's.
    private let organisation: String?
    /// The fields chosen, each from one line.
    private(set) var chosen: [(CardField, ScanLine)] = []
    /// The address, from one or more lines.
    private(set) var address: (text: String, confidence: Double)?
    private(set) var notes = Notes()
    private var used = Set<Int>()
    /// A name read on another reading of the photo, taken instead of this reading's
    /// (``NameReadings``).
    private let given: GivenName?

    /// Local parts that name a role or a mailbox, not a person.
    static let genericLocalParts: Set<String> = [
        "info", "contact", "sales", "hello", "office", "admin", "support", "team", "mail", "service", "help",
        "enquiries", "inquiries", "press", "hr", "jobs", "marketing", "webmaster",
    ]

    init(lines: [ScanLine], email: String?, organisation: String?, given: GivenName? = nil) {
        let parts = email?.split(separator: "@").map(String.init)
        emailLocal = parts?.first
        emailDomain = parts?.last
        self.organisation = organisation
        self.given = given
        judged = lines.map { line in
            let text = line.text
            return Judged(
                line: line, isTitle: LineKinds.isTitle(text), isDepartment: LineKinds.isDepartment(text),
                isAddress: LineKinds.isAddress(text), hasLegalForm: LineKinds.hasLegalForm(text),
                matchesDomain: LineKinds.matchesDomain(text, organisation: organisation),
                isNameShaped: LineKinds.isNameShaped(text),
                agreement: parts.map { LineKinds.agreement(name: text, emailLocal: $0[0]) } ?? 0)
        }
    }

    mutating func choose() {
        let company = chooseCompanyByEvidence()
        let anchor: Double
        if let given {
            anchor = takeGivenName(given)
        } else {
            anchor = chooseName().map { Double($0.line.index) } ?? 0
        }
        if company == nil { chooseCompanyByShape() }
        chooseTitle(near: anchor)
        chooseDepartment()
        chooseAddress()
        for item in judged
        where !used.contains(item.line.index) && item.line.text.letterCount >= 3 && item.line.confidence >= 50 {
            notes.add(nil, "not used: “\(item.line.text)”")
        }
    }

    private mutating func take(_ field: CardField, _ item: Judged) {
        chosen.append((field, item.line))
        used.insert(item.line.index)
    }

    private func free(_ item: Judged) -> Bool { !used.contains(item.line.index) }

    /// The company by its legal form (3) or the email's domain (2); the larger line wins ties.
    private mutating func chooseCompanyByEvidence() -> Judged? {
        let scored = judged.compactMap { item -> (Judged, Int)? in
            // A person's name matches a personal domain (`ada@lovelace.dev`): not a company.
            let domain = item.matchesDomain && !(item.isNameShaped && item.agreement > 0 && !item.hasLegalForm)
            let score = (item.hasLegalForm ? 3 : 0) + (domain ? 2 : 0)
            guard score > 0, !(item.isTitle && !item.hasLegalForm), !item.isAddress else { return nil }
            return (item, score)
        }
        guard let best = scored.max(by: { a, b in a.1 != b.1 ? a.1 < b.1 : a.0.line.height < b.0.line.height }) else {
            return nil
        }
        take(.company, best.0)
        return best.0
    }

    /// The largest name-shaped line that is no title, department, address or company; one that
    /// agrees with the email counts half as large again per name part it shares.
    private mutating func chooseName() -> Judged? {
        let candidates = judged.filter { item in
            free(item) && item.isNameShaped && !item.isTitle && !item.isDepartment && !item.isAddress
                && !item.hasLegalForm
        }
        func score(_ item: Judged) -> Double {
            var value = Double(item.line.height) * (1 + 0.35 * Double(item.agreement))
            if item.line.confidence < 50 { value *= 0.7 }
            if item.line.text.isAllCapitals && item.line.tokens.count >= 3 { value *= 0.8 }
            return value
        }
        if let best = candidates.max(by: { score($0) < score($1) }) {
            take(.name, best)
            let local = emailLocal?.lowercased() ?? ""
            if best.agreement == 0, best.line.text.hangulCount == 0, local.foldedLetters.count >= 3,
                !Self.genericLocalParts.contains(local)
            {
                notes.add(.name, "the email’s “\(local)” does not match it: check it")
            }
            return best
        }
        // No name on the card that reads as one: the email's `first.last` is the next best thing.
        if let local = emailLocal, !Self.genericLocalParts.contains(local.lowercased()) {
            let parts = local.split(whereSeparator: { "._-".contains($0) }).map(String.init)
            if parts.count == 2, parts.allSatisfy({ $0.count >= 2 && $0.allSatisfy(\.isLetter) }) {
                let name = parts.map { $0.prefix(1).uppercased() + $0.dropFirst().lowercased() }.joined(separator: " ")
                chosen.append((.name, ScanLine(words: [], text: name, index: -1)))
                notes.add(.name, "not found on the card; made from the email address")
                return nil
            }
        }
        notes.add(.name, "not found: a card needs one")
        return nil
    }

    /// The name read on the other reading: where it stands on this one, a line there (misread)
    /// is used up by it. Returns where it stands among this reading's lines, for the title.
    private mutating func takeGivenName(_ given: GivenName) -> Double {
        chosen.append((.name, given.line))
        notes.add(.name, given.note)
        let box = given.line.box
        let place = judged.first { item in
            let other = item.line.box
            let overlap = min(box.maxY, other.maxY) - max(box.y, other.y)
            // As tall as a name nearly, and on its row: the name misread (`오승` for `오승현`).
            return free(item) && other.height * 2 >= box.height && overlap * 2 >= box.height && other.x < box.maxX
                && box.x < other.maxX
        }
        if let place {
            used.insert(place.line.index)
            return Double(place.line.index)
        }
        // Between the lines above and below it.
        return Double(judged.filter { $0.line.box.midY < box.midY }.count) - 0.5
    }

    /// Without a legal form or a domain to go by: a capitalised line (Latin) or a Hangul line of
    /// three or more syllables that is nothing else; else the email's domain.
    private mutating func chooseCompanyByShape() {
        let candidates = judged.filter { item in
            guard free(item), !item.isTitle, !item.isDepartment, !item.isAddress else { return false }
            if item.line.text.hangulCount > 0 {
                return item.line.text.squashed.count >= 3 && item.line.text.squashed.allSatisfy(\.isHangul)
            }
            return LineKinds.isCapitalisedPhrase(item.line.text) && item.line.text.letterCount >= 3
                && item.line.confidence >= 50
        }
        if let best = candidates.max(by: { $0.line.height < $1.line.height }) {
            take(.company, best)
            notes.add(.company, "no legal form or matching email domain: guessed from the layout, check it")
            return
        }
        // A company made up from the domain would be saved as if it were printed: say it instead.
        if let domain = emailDomain, let name = organisation, name.count >= 3 {
            notes.add(.company, "not found on the card; the email’s domain suggests “\(domain)”")
        }
    }

    /// The title line nearest the name (below it first), whose place among the lines is
    /// `anchor`; others get a note.
    private mutating func chooseTitle(near anchor: Double) {
        let titles = judged.filter { free($0) && $0.isTitle }
        guard !titles.isEmpty else { return }
        let best = titles.min { a, b in
            let da = Double(a.line.index) - anchor
            let db = Double(b.line.index) - anchor
            // Below the name (positive distance) before above it.
            return (da > 0 ? da : 100 - da) < (db > 0 ? db : 100 - db)
        }!
        take(.title, best)
        for other in titles where other.line.index != best.line.index {
            notes.add(.title, "another line reads like one too: “\(other.line.text)”")
        }
    }

    private mutating func chooseDepartment() {
        if let department = judged.first(where: { free($0) && $0.isDepartment }) {
            take(.department, department)
        }
    }

    /// Every address line, top to bottom, joined with `, `.
    private mutating func chooseAddress() {
        let lines = judged.filter { free($0) && $0.isAddress }
        guard !lines.isEmpty else { return }
        for line in lines { used.insert(line.line.index) }
        let parts = lines.map { item -> String in
            var words = item.line.tokens
            if let first = words.first, ScanRules.labels[first.ruleKey] == .address, words.count > 1 {
                words.removeFirst()
            }
            words = words.map { LineKinds.misreadStrasse($0) ?? $0 }
            return words.joined(separator: " ").trimmed(of: ",")
        }
        let confidence = lines.map(\.line.confidence).min() ?? 0
        address = (parts.joined(separator: ", "), confidence)
    }
}

/// A name read on another reading of the same photo (``NameReadings``), its words' boxes in
/// this reading's pixels, and the note that says so.
struct GivenName: Sendable {
    var line: ScanLine
    var note: String
}
