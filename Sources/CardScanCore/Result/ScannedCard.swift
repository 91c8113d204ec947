public import CardModels

/// Something the extraction was unsure of, or left out, about one field (or the card).
public struct ScanNote: Sendable, Equatable, Hashable, Codable, CustomStringConvertible {
    /// The field it is about (`name`, `phone`, …), or `nil` for the card as a whole.
    public var field: String?
    /// What, for a person: `read with low confidence (54 %)`.
    public var text: String

    /// A note.
    public init(field: String?, text: String) {
        self.field = field
        self.text = text
    }

    /// `phone: …`, or the text alone for the card.
    public var description: String { field.map { "\($0): \(text)" } ?? text }
}

/// A photo's card: the fields found, what the extraction was unsure of, and the text read.
public struct ScannedCard: Sendable, Equatable {
    /// The fields found, under the card's field names. `name` is empty when none was found
    /// (a card cannot be added then); absent optional fields are `nil`. Every value passes
    /// `CardFields.validate()`.
    public var fields: CardFields
    /// What it was unsure of or left out, in the order of the card's fields.
    public var notes: [ScanNote]
    /// The text the OCR read.
    public var page: OCRPage

    /// A scanned card.
    public init(fields: CardFields, notes: [ScanNote], page: OCRPage) {
        self.fields = fields
        self.notes = notes
        self.page = page
    }

    /// Whether a name was found (needed to add the card).
    public var hasName: Bool { !fields.name.isEmpty }

    /// The fields found, in the card's order, as (field, value) pairs; lists left out.
    public var foundFields: [(field: CardField, value: String)] {
        CardField.allCases.compactMap { field in
            guard field.kind.isText else { return nil }
            let value = fields[field]
            return value.isEmpty ? nil : (field, value)
        }
    }
}
