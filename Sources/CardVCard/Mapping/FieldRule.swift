import CardModels

/// One row of the mapping between vCard properties and card fields: how a property is read
/// into fields and how fields are written as a property. The table (``FieldRule/table``) drives
/// both the importer and the writer, so they cannot disagree.
struct FieldRule: Sendable {
    /// Which property of several of the same name fills the fields.
    enum Choice: Sendable {
        /// The first usable one.
        case first
        /// The most preferred usable one (`PREF`), the first among equals.
        case preferred
        /// Every one, each adding a value to a list field.
        case every
    }

    /// The property name, upper-case.
    let property: String
    /// The fields it fills.
    let fields: [CardField]
    /// Which property fills them.
    let choice: Choice
    /// The field values a property holds, or `nil` when it is not usable here (empty, or not a
    /// valid email, phone, web address or full date): then it is kept as a line instead.
    let read: @Sendable (VCardProperty) -> FieldValues?
    /// The content line for the fields, or `nil` when they are empty.
    let write: @Sendable (CardFields, VCardVersion) -> String?

    /// The values of the rule's fields in `fields`, to compare with what a property reads.
    func values(in fields: CardFields) -> FieldValues {
        FieldValues(self.fields.map { ($0, fields.values(of: $0)) })
    }
}

/// Field values a property holds: every field as a list (one element for a text field, none
/// when absent), so text and list fields compare alike.
struct FieldValues: Sendable, Equatable {
    var values: [CardField: [String]]

    init(_ pairs: [(CardField, [String])]) {
        values = Dictionary(pairs, uniquingKeysWith: { $1 })
    }

    init(_ field: CardField, _ text: String) {
        self.init([(field, text.isEmpty ? [] : [text])])
    }

    /// Whether every field is absent.
    var isEmpty: Bool { values.values.allSatisfy(\.isEmpty) }

    /// Sets the fields in `card`.
    func apply(to card: inout CardFields) {
        for (field, list) in values { card.setValues(list, of: field) }
    }
}

extension CardFields {
    /// A field as a list: tmi and tags as they are, other fields as one value or none.
    func values(of field: CardField) -> [String] {
        switch field {
        case .tmi: tmi
        case .tags: tags
        case .defaultImage: defaultImage == 0 ? [] : [String(defaultImage)]
        default: self[field].isEmpty ? [] : [self[field]]
        }
    }

    /// Sets a field from a list (see ``values(of:)``).
    mutating func setValues(_ values: [String], of field: CardField) {
        switch field {
        case .tmi: tmi = values
        case .tags: tags = values
        case .defaultImage: defaultImage = values.first.flatMap { Int($0) } ?? 0
        default: self[field] = values.first ?? ""
        }
    }
}
