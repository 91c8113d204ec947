/// One field's value as a card stores it: text (`nil` when absent), a list, or a number. A
/// field's ``FieldDescriptor/Kind`` says which.
public enum FieldValue: Sendable, Hashable {
    /// A text field; `nil` when absent (the name is never absent, but may be empty).
    case text(String?)
    /// A list field.
    case list([String])
    /// A number field.
    case number(Int)

    /// The text, for a text value.
    public var text: String? {
        if case .text(let text) = self { return text }
        return nil
    }

    /// The items, for a list value (one text is a list of one).
    public var list: [String] {
        switch self {
        case .list(let list): list
        case .text(let text): text.map { [$0] } ?? []
        case .number: []
        }
    }

    /// The number, for a number value (0 otherwise).
    public var number: Int {
        if case .number(let number) = self { return number }
        return 0
    }

    /// Whether nothing is set: absent or empty text, no items, the number 0.
    public var isEmpty: Bool {
        switch self {
        case .text(let text): text?.isEmpty ?? true
        case .list(let list): list.isEmpty
        case .number(let number): number == 0
        }
    }
}

extension CardFields {
    /// The field as one line of text (lists joined with their separator and a space, a number
    /// in decimal), `""` when absent.
    ///
    /// Setting it trims the text, splits a list at its separator and reads a number (one that
    /// cannot be read is kept as -1, out of every range, so validation reports it).
    public subscript(field: CardField) -> String {
        get {
            switch self[value: field] {
            case .text(let text): text ?? ""
            case .list(let list): list.joined(separator: field.kind.list?.joiner ?? ", ")
            case .number(let number): String(number)
            }
        }
        set {
            let trimmed = newValue.trimmedForCard
            switch field.kind {
            case .list(let style):
                self[value: field] = .list(Self.splitList(trimmed, separator: style.separator))
            case .number:
                self[value: field] = .number(trimmed.isEmpty ? 0 : (Int(trimmed) ?? -1))
            case .shortText, .longText, .email, .phone, .url, .date:
                self[value: field] = .text(trimmed.isEmpty && !field.descriptor.isRequired ? nil : trimmed)
            }
        }
    }

    static func splitList(_ text: String, separator: Character) -> [String] {
        text.split(separator: separator, omittingEmptySubsequences: true)
            .map { String($0).trimmedForCard }
            .filter { !$0.isEmpty }
    }
}
