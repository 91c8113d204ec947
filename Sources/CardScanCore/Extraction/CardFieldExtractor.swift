import CardModels

/// Turns the text of a card's photo into the card's fields.
///
/// The steps, each driven by ``ScanRules``' tables:
/// 1. Lines are cleaned (``ScanLineBuilder``): specks dropped, rows holding two items split,
///    Korean syllables joined back.
/// 2. Email addresses, websites and phone numbers are found by their shape wherever they are
///    (``ContactFinder``), with their labels (`T`, `Tel`, `M`, `☎`, `전화`…) and extensions.
///    The office phone is the card's phone (a mobile when there is none); a second number,
///    a mobile or a fax is kept as a vCard line in ``CardFields/vcardProperties``.
/// 3. The other lines are judged (``LineKinds``): job title by role words, department by
///    department words, address by street words and postcodes, company by legal form or the
///    email's domain, and the name by layout — the largest name-shaped line that is not the
///    company, favoured when it agrees with the email's local part (``FieldChoice``).
/// 4. Every value is checked with `CardFields.problem(for:)`; one that fails is left out
///    with a note. Whatever was guessed or read with low confidence gets a note too.
public struct CardFieldExtractor: Sendable {
    /// Below this OCR confidence (0–100) a field gets a "check it" note.
    public var lowConfidence: Double
    /// An email or website whose every word was read with this confidence (0–100) or more is
    /// used whatever its domain ends in; below it, the list of ``endings`` decides (``HostReading``).
    public var sureReading: Double
    /// What a domain may end in: the Public Suffix List, or the built-in list without it.
    public var endings: DomainEndings

    /// An extractor.
    ///
    /// - Parameters:
    ///   - lowConfidence: below this confidence a field gets a "check it" note.
    ///   - sureReading: from this confidence on an address is used whatever it ends in.
    ///   - endings: what a domain may end in (``DomainEndings/system`` by default: the list is
    ///     read at the first extraction and kept).
    public init(lowConfidence: Double = 70, sureReading: Double = 80, endings: DomainEndings = .system) {
        self.lowConfidence = lowConfidence
        self.sureReading = sureReading
        self.endings = endings
    }

    /// The card on `page`.
    public func extract(from page: OCRPage) -> ScannedCard {
        extract(from: page, nameReading: nil)
    }

    /// The card on `page`, its name chosen between `page`'s and `nameReading`'s: the same photo
    /// read at a smaller scale, where large Hangul names read better (``NameReadings``). Every
    /// other field comes from `page`.
    public func extract(from page: OCRPage, nameReading: OCRPage?) -> ScannedCard {
        let hosts = HostNames(endings: endings)
        let finder = ContactFinder(hosts: hosts, sureReading: sureReading)
        var notes = Notes()
        let (contacts, rest) = Self.contactsAndRest(of: page, finder: finder, notes: &notes)
        var fields = CardFields(name: "")
        var extra: [String] = []
        var confidences: [CardField: Double] = [:]

        let emails = contacts.filter { $0.kind == .email }
        let sites = contacts.filter { $0.kind == .website }
        if let email = emails.first {
            let (value, note) = AddressAgreement.email(email, website: sites.first, hosts: hosts)
            fields.email = value
            confidences[.email] = email.confidence
            if let note { notes.add(.email, note) }
        }
        for other in emails.dropFirst() { extra.append("EMAIL;TYPE=WORK:" + other.value) }
        if let site = sites.first {
            fields.website = site.value
            confidences[.website] = site.confidence
        }
        for other in sites.dropFirst() { extra.append("URL:" + other.value) }
        // What the list of endings said of an address: on its field, or the card for a second one.
        for (field, hits) in [(CardField.email, emails), (.website, sites)] {
            for (position, hit) in hits.enumerated() {
                if let note = hit.note { notes.add(position == 0 ? field : nil, note) }
            }
        }
        choosePhone(contacts, into: &fields, extra: &extra, confidences: &confidences, notes: &notes)

        let organisation = fields.email.flatMap { email in
            email.split(separator: "@").last.flatMap { hosts.organisationName(of: String($0)) }
        }
        var choice = FieldChoice(lines: rest, email: fields.email, organisation: organisation)
        choice.choose()
        if let nameReading,
            let given = givenName(
                from: nameReading, over: page, first: choice, finder: finder, email: fields.email,
                organisation: organisation)
        {
            choice = FieldChoice(lines: rest, email: fields.email, organisation: organisation, given: given)
            choice.choose()
        }
        for (field, line) in choice.chosen {
            fields[field] = line.text
            // Lines made from the email have no words, and no OCR confidence to speak of.
            if !line.words.isEmpty { confidences[field] = line.confidence }
        }
        if let address = choice.address {
            fields.address = address.text
            confidences[.address] = address.confidence
        }
        notes.append(contentsOf: choice.notes)
        repairEmail(&fields, confidences: confidences, notes: &notes)
        fields.vcardProperties = extra
        for (field, confidence) in confidences where confidence < lowConfidence && !fields[field].isEmpty {
            notes.add(field, "read with low confidence (\(Int(confidence.rounded())) %): check it")
        }
        return ScannedCard(fields: validated(fields, notes: &notes), notes: notes.sorted(), page: page)
    }

    /// An unsure email's local part put right by a sure name (``EmailRepair``).
    private func repairEmail(_ fields: inout CardFields, confidences: [CardField: Double], notes: inout Notes) {
        guard let email = fields.email, let at = email.firstIndex(of: "@"),
            let emailConfidence = confidences[.email], emailConfidence < EmailRepair.unsureEmail,
            let nameConfidence = confidences[.name], nameConfidence >= EmailRepair.sureName,
            let local = EmailRepair.corrected(String(email[..<at]), name: fields.name)
        else { return }
        fields.email = local + email[at...]
        notes.add(
            .email,
            "read as “\(email)” (\(Int(emailConfidence.rounded())) % sure); one letter changed to match the name: check it"
        )
    }

    /// The office phone, else a mobile, as the card's phone; the other numbers as vCard lines.
    private func choosePhone(
        _ contacts: [ContactHit], into fields: inout CardFields, extra: inout [String],
        confidences: inout [CardField: Double], notes: inout Notes
    ) {
        let phones = contacts.compactMap { hit -> (ScanRules.LabelKind?, ContactHit)? in
            if case .phone(let label) = hit.kind { return (label, hit) }
            return nil
        }
        // A number labelled as the office's, else one without a label, else a mobile.
        let main = phones.first { $0.0 == .phone } ?? phones.first { $0.0 == nil } ?? phones.first { $0.0 == .mobile }
        if let (_, hit) = main {
            fields.phone = hit.value
            confidences[.phone] = hit.confidence
            if let ext = hit.phoneExtension {
                notes.add(.phone, "extension \(ext) left out: the phone field holds only the number")
            }
        } else if !phones.isEmpty {
            notes.add(.phone, "only a fax number was found; it is kept as a vCard line, not as the phone")
        }
        for (label, hit) in phones where hit != main?.1 {
            let type =
                switch label {
                case .mobile: "CELL"
                case .fax: "FAX"
                default: "WORK"
                }
            extra.append("TEL;TYPE=\(type):" + hit.value + (hit.phoneExtension.map { " ext. " + $0 } ?? ""))
        }
    }

    /// `fields` with every value that fails the card's own checks left out, and a note saying so.
    private func validated(_ fields: CardFields, notes: inout Notes) -> CardFields {
        var fields = fields
        for field in CardField.allCases where field != .name {
            guard let problem = fields.problem(for: field) else { continue }
            notes.add(field, "left out: “\(fields[field])” \(problem)")
            fields[field] = ""
        }
        if !fields.name.isEmpty, let problem = fields.problem(for: .name) {
            notes.add(.name, "left out: “\(fields.name)” \(problem)")
            fields.name = ""
        }
        if fields.vcardPropertiesProblem() != nil { fields.vcardProperties = [] }
        return fields
    }
}

/// The notes of one extraction, kept in the order of the card's fields.
struct Notes {
    private(set) var items: [ScanNote] = []

    mutating func add(_ field: CardField?, _ text: String) {
        let note = ScanNote(field: field?.key, text: text)
        if !items.contains(note) { items.append(note) }
    }

    mutating func append(contentsOf other: Notes) {
        for note in other.items where !items.contains(note) { items.append(note) }
    }

    /// By field in the card's order, then the card-wide ones, each group in the order added.
    func sorted() -> [ScanNote] {
        let order = Dictionary(uniqueKeysWithValues: CardField.allCases.enumerated().map { ($1.key, $0) })
        return items.enumerated().sorted { a, b in
            let rankA = a.element.field.flatMap { order[$0] } ?? Int.max
            let rankB = b.element.field.flatMap { order[$0] } ?? Int.max
            return rankA != rankB ? rankA < rankB : a.offset < b.offset
        }.map(\.element)
    }
}
