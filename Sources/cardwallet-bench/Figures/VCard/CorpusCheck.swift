import CardModels
import CardVCard
import Foundation

/// What a reader found on one card, in the terms the checks compare: the fields the issue
/// names (names, organisations, emails, phones, notes, photos) and the anchors' faults
/// (birthdays, `X-SOCIALPROFILE`).
struct CardView: Equatable, Sendable, Decodable {
    var name: String?
    var org: [String]
    var emails: [String]
    var phones: [String]
    var notes: [String]
    /// Base64 of each photo's bytes.
    var photos: [String]
    var birthday: String?
    var social: [String]
}

extension CardView {
    /// Our card as the wallet holds it: the fields, and the kept lines for what the fields do
    /// not hold (the other emails and phones, a note's whole text, a social profile).
    init(_ card: ImportedCard) {
        let fields = card.fields
        var emails = fields.email.map { [$0] } ?? []
        var phones = fields.phone.map { [$0] } ?? []
        var notes: [String] = []
        var social: [String] = []
        for line in fields.vcardProperties {
            guard let property = ContentLine.property(line) else { continue }
            let marker = property.values(of: WalletProperty.fieldParameter).first
            switch property.key {
            case "EMAIL" where marker == nil:
                emails.append(property.text.trimmingCharacters(in: .whitespaces))
            case "TEL" where marker == nil:
                phones.append(Self.number(property.text))
            case "NOTE":
                notes.append(property.text)
            case "X-SOCIALPROFILE":
                social.append(property.text)
            default: break
            }
        }
        if notes.isEmpty, let bio = fields.bio { notes = [bio] }
        let org = [fields.company, fields.department].compactMap { $0 }
        self.init(
            name: fields.name, org: org, emails: emails, phones: phones, notes: notes,
            photos: card.photo.map { [Data($0.bytes).base64EncodedString()] } ?? [], birthday: fields.birthday,
            social: social)
    }

    /// What the corpus wrote on the card.
    init(_ expected: RealisticCorpus.Expected) {
        self.init(
            name: expected.name, org: [expected.company, expected.department].compactMap { $0 },
            emails: expected.emails,
            phones: expected.phones, notes: expected.note.map { [$0] } ?? [],
            photos: expected.photo.map { [Data($0).base64EncodedString()] } ?? [], birthday: expected.birthday,
            social: expected.socialProfile.map { [$0] } ?? [])
    }

    /// A `tel:` URI's number, without its parameters (`;ext=`).
    static func number(_ text: String) -> String {
        let trimmed = text.trimmingCharacters(in: .whitespaces)
        guard trimmed.lowercased().hasPrefix("tel:") else { return trimmed }
        return String(trimmed.dropFirst(4).prefix { $0 != ";" })
    }

    /// The same card, compared as sets where order does not matter (the chosen email comes
    /// first in ours, in file order in the file) and without empty organisation parts.
    var normalised: CardView {
        var copy = self
        copy.emails.sort()
        copy.phones.sort()
        copy.org = org.prefix(2).filter { !$0.isEmpty }
        // A line break is CR LF in a quoted-printable value as ez-vcard gives it back, LF in ours.
        copy.notes = notes.map { $0.replacingOccurrences(of: "\r\n", with: "\n") }
        return copy
    }

    /// The fields that differ from `other`, by name.
    func differences(from other: CardView) -> [String] {
        let (a, b) = (normalised, other.normalised)
        var names: [String] = []
        if a.name != b.name { names.append("name") }
        if a.org != b.org { names.append("organisation") }
        if a.emails != b.emails { names.append("emails") }
        if a.phones != b.phones { names.append("phones") }
        if a.notes != b.notes { names.append("notes") }
        if a.photos != b.photos { names.append("photos") }
        if a.birthday != b.birthday { names.append("birthday") }
        if a.social != b.social { names.append("X-SOCIALPROFILE") }
        return names
    }
}

/// The checks #15 runs on the realistic corpus before it times anything.
enum CorpusCheck {
    /// Reads `file` with ours and compares every card with what the corpus wrote on it; then
    /// exports every card (3.0 and 4.0), reads the export back and compares again.
    ///
    /// - Returns: a line for the table's notes.
    /// - Throws: ``BenchError`` naming the first cards that differ.
    static func ours(file: String, expected: [RealisticCorpus.Expected]) throws -> String {
        let document = try read(file: file)
        try compare(document, expected, what: "reading the corpus")
        let date = Date(timeIntervalSince1970: 1_700_000_000)
        for version in [VCardVersion.v30, .v40] {
            let writer = VCardWriter(version: version)
            var out: [UInt8] = []
            for (index, card) in document.cards.enumerated() {
                writer.append(
                    Card(id: "c\(index)", fields: card.fields, createdAt: date, updatedAt: date), photo: card.photo,
                    to: &out)
            }
            try compare(
                VCardDocument.read(bytes: out), expected, what: "reading our vCard \(version.rawValue) export back")
        }
        return
            "Ours checked before timing: all \(Formatting.grouped(expected.count)) cards read with the names, organisations, emails, phones, notes, photos (byte-equal), full birthdays and X-SOCIALPROFILE the corpus wrote, and again from our vCard 3.0 and 4.0 exports of them."
    }

    /// Compares ez-vcard's reading of `file` with ours, field by field.
    ///
    /// - Returns: a line for the table's notes: how many cards agree, and the documented
    ///   differences (``documented``) counted by kind.
    /// - Throws: ``BenchError`` for a difference that is not documented.
    static func ezVCard(
        _ peer: NativePeer, file: String, expected: [RealisticCorpus.Expected]
    ) throws -> String {
        let session = try NativePeer.Session(peer, file: file, warmups: 0)
        defer { session.stop() }
        let lines = try session.lines(command: "dump")
        let document = try read(file: file)
        guard lines.count == document.cards.count else {
            throw BenchError("\(peer.name) read \(lines.count) cards, ours \(document.cards.count)")
        }
        var agreeing = 0
        var explained: [String: Int] = [:]
        var unexplained: [String] = []
        for (index, line) in lines.enumerated() {
            guard let theirs = try? JSONDecoder().decode(CardView.self, from: Data(line.utf8)) else {
                throw BenchError("\(peer.name) dumped “\(line.prefix(120))”")
            }
            let ours = CardView(document.cards[index])
            let differences = ours.differences(from: theirs)
            if differences.isEmpty {
                agreeing += 1
                continue
            }
            // Ours must agree with what the corpus wrote (checked already); a difference is
            // theirs, and must be one we documented.
            let truth = CardView(expected[index])
            guard ours.differences(from: truth).isEmpty,
                let reason = documented(expected[index], ours: ours, theirs: theirs, fields: differences)
            else {
                unexplained.append(
                    "card \(index + 1) (\(expected[index].style.rawValue)): \(differences.joined(separator: ", "))")
                continue
            }
            explained[reason, default: 0] += 1
        }
        guard unexplained.isEmpty else {
            throw BenchError(
                "\(peer.name) and ours differ beyond docs/BENCHMARKS.md's list: \(unexplained.prefix(5).joined(separator: "; "))"
            )
        }
        let reasons = explained.sorted { $0.key < $1.key }.map {
            "\($0.value) card\($0.value == 1 ? "" : "s"): \($0.key)"
        }
        return
            "\(peer.name) and ours read the corpus field by field alike (names, organisations, emails, phones, notes, photos byte-equal, birthdays, X-SOCIALPROFILE) on \(Formatting.grouped(agreeing)) of \(Formatting.grouped(lines.count)) cards"
            + (reasons.isEmpty
                ? "." : "; the others differ only as documented — " + reasons.joined(separator: "; ") + ".")
    }

    /// Why ez-vcard reads a card differently, when it is a difference docs/BENCHMARKS.md
    /// lists; `nil` otherwise.
    static func documented(
        _ expected: RealisticCorpus.Expected, ours: CardView, theirs: CardView, fields: [String]
    ) -> String? {
        // A naive writer folded inside a UTF-8 sequence: ez-vcard decodes the file's text before
        // it unfolds, so each half of the character becomes U+FFFD; ours joins the bytes first.
        if expected.style == .naive40 {
            let replaced = [theirs.name ?? ""] + theirs.org + theirs.notes
            if replaced.contains(where: { $0.contains("\u{FFFD}") }) {
                return "a fold inside a UTF-8 sequence (naive 4.0 writer) read by ez-vcard as U+FFFD"
            }
        }
        return nil
    }

    private static func read(file: String) throws -> VCardDocument {
        guard let handle = FileHandle(forReadingAtPath: file) else { throw BenchError("cannot read \(file)") }
        defer { try? handle.close() }
        return VCardDocument.read(source: FileByteSource(handle: handle))
    }

    private static func compare(_ document: VCardDocument, _ expected: [RealisticCorpus.Expected], what: String) throws
    {
        guard document.refusal == nil, document.problems.isEmpty, document.cards.count == expected.count else {
            throw BenchError(
                "\(what): \(document.cards.count) cards of \(expected.count), problems: \(document.problems.prefix(3)), \(document.refusal.map(\.reason) ?? "")"
            )
        }
        var wrong: [String] = []
        for (index, card) in document.cards.enumerated() {
            let view = CardView(card)
            let truth = CardView(expected[index])
            var differences = view.differences(from: truth)
            if card.fields.email != expected[index].email { differences.append("the email field") }
            if card.fields.phone != expected[index].phone { differences.append("the phone field") }
            if card.fields.title != expected[index].title { differences.append("title") }
            if !differences.isEmpty {
                wrong.append(
                    "card \(index + 1) (\(expected[index].style.rawValue)): \(differences.joined(separator: ", "))")
            }
        }
        guard wrong.isEmpty else {
            throw BenchError(
                "\(what): ours differs from the corpus on \(wrong.count) cards: \(wrong.prefix(5).joined(separator: "; "))"
            )
        }
    }
}
