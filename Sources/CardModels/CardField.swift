/// One editable field of a card. Each is described once, by its row in ``descriptor``: every
/// layer reads the rows (``FieldDescriptor``).
///
/// The order of the cases is the form's, the `--help` options' and the validation's.
/// `CardFields[field]` reads and writes every field as text, so a form or a `--field value`
/// flag can treat them alike: lists (`tmi`, `tags`) are joined with `; ` and `, `.
public enum CardField: String, CaseIterable, Sendable, Hashable, Codable {
    case name, title, company, department, email, phone, website, address, bio, birthday
    /// Up to three short fun facts ("too much information"): `tmi` in JSON, forms and vCards.
    case funFacts = "tmi"
    case tags, defaultImage

    /// The field's row of the table: everything about it.
    public var descriptor: FieldDescriptor { Self.descriptors[self]! }

    /// The table, one row per field. The exhaustive switch makes a new case a compile error
    /// here until it has its row.
    private static func row(_ field: CardField) -> FieldDescriptor {
        switch field {
        case .name:
            FieldDescriptor(
                .name, "Name", .shortText, required: true, maxLength: CardLimits.nameMaxLength,
                vCard: .init("FN", order: 10), searchRank: 10, detail: .heading,
                option: .init(["name"], "text", "The name (required for add): 1–64 characters."))
        case .title:
            FieldDescriptor(
                .title, "Title", .shortText, maxLength: CardLimits.shortTextMaxLength,
                vCard: .init("TITLE", order: 30), searchRank: 40, detail: .subtitle(10),
                option: .init(["title"], "text", "Job title, up to 100 characters."))
        case .company:
            FieldDescriptor(
                .company, "Company", .shortText, maxLength: CardLimits.shortTextMaxLength,
                vCard: .init("ORG", .component(0), order: 20), searchRank: 20, detail: .subtitle(20),
                option: .init(["company"], "text", "Company or organisation, up to 100 characters."))
        case .department:
            FieldDescriptor(
                .department, "Department", .shortText, maxLength: CardLimits.shortTextMaxLength,
                vCard: .init("ORG", .component(1), order: 20), searchRank: 30, detail: .subtitle(30),
                option: .init(["department"], "text", "Department or team, up to 100 characters."))
        case .email:
            FieldDescriptor(
                .email, "Email", .email, maxLength: CardLimits.emailMaxLength,
                vCard: .init("EMAIL", preferred: true, order: 40), searchRank: 50, detail: .row(10),
                option: .init(["email"], "address", "Email address, e.g. ada@example.com."))
        case .phone:
            FieldDescriptor(
                .phone, "Phone", .phone, maxLength: CardLimits.phoneMaxLength,
                vCard: .init("TEL", preferred: true, order: 50), searchRank: 60, detail: .row(20),
                option: .init(
                    ["phone"], "number",
                    "Phone number: at least 3 digits; spaces and the characters + - ( ) . may go between them."))
        case .website:
            FieldDescriptor(
                .website, "Website", .url, maxLength: CardLimits.websiteMaxLength,
                vCard: .init("URL", order: 60), searchRank: 70, detail: .row(30),
                option: .init(["website"], "url", "An http:// or https:// address."))
        case .address:
            FieldDescriptor(
                .address, "Address", .longText, maxLength: CardLimits.addressMaxLength,
                vCard: .init("ADR", .address, preferred: true, order: 70), searchRank: 80, detail: .row(40),
                option: .init(["address"], "text", "Postal address, up to 200 characters."))
        case .bio:
            FieldDescriptor(
                .bio, "Bio", .longText, maxLength: CardLimits.bioMaxLength,
                vCard: .init("NOTE", order: 90), searchRank: 90, detail: .row(60),
                option: .init(["bio"], "text", "A short biography, up to 500 characters."))
        case .birthday:
            FieldDescriptor(
                .birthday, "Birthday", .date, maxLength: 10,
                vCard: .init("BDAY", order: 80), searchRank: nil, detail: .row(50),
                option: .init(["birthday"], "date", "Birthday as YYYY-MM-DD."))
        case .funFacts:
            FieldDescriptor(
                .funFacts, "TMI",
                .list(
                    .init(
                        separator: ";", maximumCount: CardLimits.funFactsMaxCount, noun: "facts", eachOnItsOwnLine: true
                    )),
                maxLength: CardLimits.funFactMaxLength,
                hint: "up to \(CardLimits.funFactsMaxCount) fun facts, separated by ;",
                vCard: .init("X-CARDWALLET-TMI", .each, order: 110), searchRank: 100, detail: .row(70),
                option: .init(
                    ["tmi"], "fact",
                    "A fun fact (up to 3, each up to 100 characters). Repeat the option, or separate facts with ;."))
        case .tags:
            FieldDescriptor(
                .tags, "Tags",
                .list(
                    .init(separator: ",", maximumCount: CardLimits.tagsMaxCount, noun: "tags", eachOnItsOwnLine: false)),
                maxLength: CardLimits.tagMaxLength,
                vCard: .init("CATEGORIES", .list, order: 100), searchRank: 110, detail: .row(80),
                option: .init(
                    ["tag", "tags"], "tag",
                    "A tag (up to 10, each up to 32 characters). Repeat the option, or separate tags with ,."))
        case .defaultImage:
            FieldDescriptor(
                .defaultImage, "Avatar", .number(CardLimits.defaultImageRange), maxLength: 1,
                hint: "avatar number 0–\(CardLimits.defaultImageRange.upperBound)",
                vCard: .init("X-CARDWALLET-AVATAR", order: 120), searchRank: nil, detail: .avatar,
                option: .init(
                    ["avatar", "default-image"], "n",
                    "The avatar shown when the card has no image: a number from 0 to 7."))
        }
    }

    private static let descriptors: [CardField: FieldDescriptor] = Dictionary(
        uniqueKeysWithValues: allCases.map { ($0, row($0)) })

    /// Every field's row, in the order of the cases.
    public static let table: [FieldDescriptor] = allCases.map(\.descriptor)

    /// The searched fields, in the order a match is reported (the first that matches is the
    /// hit's field).
    public static let searched: [CardField] = table.filter { $0.searchRank != nil }
        .sorted { $0.searchRank! < $1.searchRank! }.map(\.field)

    /// The JSON key and the multipart part suffix (`card.<key>`).
    public var key: String { rawValue }

    /// The name of the multipart part carrying this field in `POST /card`.
    public var formPartName: String { "card." + rawValue }

    /// A label for people.
    public var label: String { descriptor.label }

    /// A hint on the expected format, for forms.
    public var hint: String { descriptor.hint }

    /// What the field holds.
    public var kind: FieldDescriptor.Kind { descriptor.kind }

    /// The longest text accepted for one value of this field, in characters.
    public var maxLength: Int { descriptor.maxLength }

    /// The separator used when the field is a list shown as one line of text.
    public var listSeparator: String? { descriptor.kind.list.map { String($0.separator) } }
}
