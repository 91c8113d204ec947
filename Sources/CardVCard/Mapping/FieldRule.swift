import CardModels

/// One row of the mapping between vCard properties and card fields: how a property is read
/// into fields and how fields are written as a property. The table (``FieldRule/mapping``) drives
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
        var values = FieldValues(self.fields[0], "")
        values.value = fields.value(of: self.fields[0])
        if self.fields.count > 1 {
            values.secondField = self.fields[1]
            values.secondValue = fields.value(of: self.fields[1])
        }
        return values
    }
}

/// The values of a rule's fields (one or two), as a property holds them or a card has them.
///
/// No collections: a value is text or a list, and a rule has at most two fields, so reading a
/// property allocates nothing beyond its strings (the importer reads tens of thousands).
struct FieldValues: Sendable, Equatable {
    /// One field's value.
    enum Value: Sendable, Equatable {
        /// A text field (`nil`: absent).
        case text(String?)
        /// A list field (fun facts, tags).
        case list([String])

        var isEmpty: Bool {
            switch self {
            case .text(let text): text == nil
            case .list(let list): list.isEmpty
            }
        }
    }

    var field: CardField
    var value: Value
    var secondField: CardField?
    var secondValue: Value?

    /// One text field; empty text is absent.
    init(_ field: CardField, _ text: String) {
        self.field = field
        value = .text(text.isEmpty ? nil : text)
    }

    /// One list field.
    init(_ field: CardField, list: [String]) {
        self.field = field
        value = .list(list)
    }

    /// Two text fields; empty text is absent.
    init(_ field: CardField, _ text: String, _ second: CardField, _ secondText: String) {
        self.init(field, text)
        secondField = second
        secondValue = .text(secondText.isEmpty ? nil : secondText)
    }

    /// Whether every field is absent.
    var isEmpty: Bool { value.isEmpty && (secondValue?.isEmpty ?? true) }

    /// Sets the fields in `card`.
    func apply(to card: inout CardFields) {
        card.set(value, of: field)
        if let secondField, let secondValue { card.set(secondValue, of: secondField) }
    }
}

extension CardFields {
    /// A field as a ``FieldValues/Value``: a list as it is, text and numbers as text (absent
    /// when empty, or 0).
    func value(of field: CardField) -> FieldValues.Value {
        switch self[value: field] {
        case .list(let list): return .list(list)
        case .number(let number): return .text(number == 0 ? nil : String(number))
        case .text(let text): return .text(text?.isEmpty == false ? text : nil)
        }
    }

    /// A field as a list: a list as it is, other fields as one value or none.
    func values(of field: CardField) -> [String] {
        switch value(of: field) {
        case .list(let list): list
        case .text(let text): text.map { [$0] } ?? []
        }
    }

    /// Sets a field from a ``FieldValues/Value``.
    mutating func set(_ value: FieldValues.Value, of field: CardField) {
        switch (field.kind, value) {
        case (.list, .list(let list)): self[value: field] = .list(list)
        case (.list, .text(let text)): self[value: field] = .list(text.map { [$0] } ?? [])
        case (.number, .text(let text)): self[value: field] = .number(text.flatMap { Int($0) } ?? 0)
        case (.number, .list(let list)): self[value: field] = .number(list.first.flatMap { Int($0) } ?? 0)
        case (_, .list(let list)): self[field] = list.first ?? ""
        case (_, .text(let text)): self[field] = text ?? ""
        }
    }
}

/// Values over a limit of the card, cut to fit rather than refused: text over its field's
/// length is clipped at a character boundary and ends in `…`; a list keeps its first entries.
/// The importer clips what it reads and the writer clips a kept original the same way to tell
/// whether the field still says what the original said, so the two cannot disagree.
enum FieldClip {
    /// The mark at the end of clipped text.
    static let ellipsis: Character = "…"

    /// Whether a field's values may be clipped: free text and lists. A value with a format (an
    /// email, a phone number, a web address, a date) cut short would be another value.
    static func clips(_ field: CardField) -> Bool { field.kind.isClippable }

    /// The most entries of a list field.
    static func maximumCount(_ field: CardField) -> Int? { field.kind.list?.maximumCount }

    /// The length of `text` in characters when it is over `limit`, else `nil` (short text is
    /// never counted: it has at most as many characters as bytes).
    static func overLimit(_ text: String, _ limit: Int) -> Int? {
        guard text.utf8.count > limit else { return nil }
        let count = SimpleText.count(text) ?? text.count
        return count > limit ? count : nil
    }

    /// `text` in at most `limit` characters: as it is when it fits, else its first characters
    /// (trailing white space dropped) and `…`.
    static func text(_ text: String, to limit: Int) -> String {
        guard overLimit(text, limit) != nil else { return text }
        var head = SimpleText.prefix(text, limit - 1) ?? Substring(text.prefix(limit - 1))
        while let last = head.last, last.isWhitespace { head.removeLast() }
        return String(head) + String(ellipsis)
    }

    /// `value` as `field` can hold it.
    static func value(_ value: FieldValues.Value, of field: CardField) -> FieldValues.Value {
        guard clips(field) else { return value }
        // Most values fit, answered from their bytes without building anything (this runs for
        // every field of every card read).
        let limit = field.maxLength
        switch value {
        case .text(let text):
            guard let text, text.utf8.count > limit else { return value }
            return .text(Self.text(text, to: limit))
        case .list(let list):
            let most = maximumCount(field) ?? Int.max
            if list.count <= most, list.allSatisfy({ $0.utf8.count <= limit }) { return value }
            return .list(list.prefix(most).map { Self.text($0, to: limit) })
        }
    }
}

extension FieldValues {
    /// The values as the card can hold them (``FieldClip``).
    /// The values without control characters (a tab aside, and line breaks in a field that
    /// holds several lines), which no field holds and vCard text cannot carry; `nil` when there
    /// were none (the common case, found on the bytes).
    var withoutControlCharacters: FieldValues? {
        func clean(_ value: Value, of field: CardField) -> Value? {
            let keepsLines = field == .bio
            func dirty(_ text: String) -> Bool {
                text.utf8.contains { ($0 < 32 && $0 != 9 && !(keepsLines && ($0 == 10 || $0 == 13))) || $0 == 127 }
            }
            func cleaned(_ text: String) -> String {
                String(
                    String.UnicodeScalarView(
                        text.unicodeScalars.filter { scalar in
                            !((scalar.value < 32 && scalar != "\t"
                                && !(keepsLines && (scalar == "\n" || scalar == "\r")))
                                || scalar.value == 127)
                        }))
            }
            switch value {
            case .text(let text?) where dirty(text):
                let result = cleaned(text)
                return .text(result.isEmpty ? nil : result)
            case .list(let list) where list.contains(where: dirty):
                return .list(list.map(cleaned).filter { !$0.isEmpty })
            default:
                return nil
            }
        }
        var copy = self
        var changed = false
        if let value = clean(value, of: field) {
            copy.value = value
            changed = true
        }
        if let secondField, let secondValue, let value = clean(secondValue, of: secondField) {
            copy.secondValue = value
            changed = true
        }
        return changed ? copy : nil
    }

    var clipped: FieldValues {
        var copy = self
        copy.value = FieldClip.value(value, of: field)
        if let secondField, let secondValue { copy.secondValue = FieldClip.value(secondValue, of: secondField) }
        return copy
    }
}
