/// One editable field of a card, with what forms, command lines and validation need to know.
///
/// `CardFields[field]` reads and writes every field as text, so a form or a `--field value`
/// flag can treat them alike: lists (`tmi`, `tags`) are joined with `; ` and `, `.
public enum CardField: String, CaseIterable, Sendable, Hashable, Codable {
    case name, title, company, department, email, phone, website, address, bio, birthday
    case tmi, tags, defaultImage

    /// The JSON key and the multipart part suffix (`card.<key>`).
    public var key: String { rawValue }

    /// The name of the multipart part carrying this field in `POST /card`.
    public var formPartName: String { "card." + rawValue }

    /// A label for people.
    public var label: String {
        switch self {
        case .name: "Name"
        case .title: "Title"
        case .company: "Company"
        case .department: "Department"
        case .email: "Email"
        case .phone: "Phone"
        case .website: "Website"
        case .address: "Address"
        case .bio: "Bio"
        case .birthday: "Birthday"
        case .tmi: "TMI"
        case .tags: "Tags"
        case .defaultImage: "Avatar"
        }
    }

    /// A hint on the expected format, for forms and `--help`.
    public var hint: String {
        switch self {
        case .name: "required, 1–\(CardLimits.nameMaxLength) characters"
        case .email: "name@example.com"
        case .phone: "digits, spaces and + - ( ) ."
        case .website: "https://…"
        case .birthday: "YYYY-MM-DD"
        case .tmi: "up to \(CardLimits.tmiMaxCount) fun facts, separated by ;"
        case .tags: "separated by ,"
        case .defaultImage: "avatar number 0–\(CardLimits.defaultImageRange.upperBound)"
        case .bio: "up to \(CardLimits.bioMaxLength) characters"
        default: "up to \(maxLength) characters"
        }
    }

    /// The longest text accepted for one value of this field, in characters.
    public var maxLength: Int {
        switch self {
        case .name: CardLimits.nameMaxLength
        case .bio: CardLimits.bioMaxLength
        case .address: CardLimits.addressMaxLength
        case .website: CardLimits.websiteMaxLength
        case .email: CardLimits.emailMaxLength
        case .phone: CardLimits.phoneMaxLength
        case .birthday: 10
        case .tmi: CardLimits.tmiItemMaxLength
        case .tags: CardLimits.tagMaxLength
        case .defaultImage: 1
        default: CardLimits.shortTextMaxLength
        }
    }

    /// The separator used when the field is a list shown as one line of text.
    public var listSeparator: String? {
        switch self {
        case .tmi: ";"
        case .tags: ","
        default: nil
        }
    }
}

extension CardFields {
    /// The field as one line of text (lists joined), `""` when absent.
    public subscript(field: CardField) -> String {
        get {
            switch field {
            case .name: name
            case .title: title ?? ""
            case .company: company ?? ""
            case .department: department ?? ""
            case .email: email ?? ""
            case .phone: phone ?? ""
            case .website: website ?? ""
            case .address: address ?? ""
            case .bio: bio ?? ""
            case .birthday: birthday ?? ""
            case .tmi: tmi.joined(separator: "; ")
            case .tags: tags.joined(separator: ", ")
            case .defaultImage: String(defaultImage)
            }
        }
        set {
            let trimmed = newValue.trimmedForCard
            let optional: String? = trimmed.isEmpty ? nil : trimmed
            switch field {
            case .name: name = trimmed
            case .title: title = optional
            case .company: company = optional
            case .department: department = optional
            case .email: email = optional
            case .phone: phone = optional
            case .website: website = optional
            case .address: address = optional
            case .bio: bio = optional
            case .birthday: birthday = optional
            case .tmi: tmi = Self.splitList(trimmed, separator: ";")
            case .tags: tags = Self.splitList(trimmed, separator: ",")
            case .defaultImage:
                // An unparsable number is kept as an out-of-range value so validation reports it.
                defaultImage = trimmed.isEmpty ? 0 : (Int(trimmed) ?? -1)
            }
        }
    }

    static func splitList(_ text: String, separator: Character) -> [String] {
        text.split(separator: separator, omittingEmptySubsequences: true)
            .map { String($0).trimmedForCard }
            .filter { !$0.isEmpty }
    }
}
