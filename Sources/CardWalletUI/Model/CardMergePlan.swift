public import CardModels

/// Two cards to merge into one (issue 40), field by field: which side each field takes, and
/// which card (and so which book) keeps the result; the other card is deleted. By default the
/// fuller value wins each field (the longer text, the longer list, a set avatar), the left
/// card's on a tie, and the left card is kept. The email and the phone not taken are not lost:
/// the glue keeps them as extra lines of the merged card, with every property of both cards the
/// wallet does not model.
public struct CardMergePlan: Equatable, Sendable {
    /// A side of the merge.
    public enum Side: String, Equatable, Sendable, CaseIterable {
        case left, right

        /// The other side.
        public var other: Side { self == .left ? .right : .left }
    }

    /// The first card named.
    public var left: Card
    /// The second card named.
    public var right: Card
    /// The side each field takes.
    public var choices: [CardField: Side]
    /// The card written over with the merged one (its book keeps it); the other is deleted.
    public var keep: Side

    /// The merge of `left` and `right`, each field the fuller value's, `left` kept.
    public init(left: Card, right: Card) {
        self.left = left
        self.right = right
        self.keep = .left
        self.choices = Dictionary(
            uniqueKeysWithValues: CardField.allCases.map {
                ($0, Self.fuller(left.fields[value: $0], right.fields[value: $0]))
            })
    }

    /// The side whose value says more: text by its length, a list by its items, a number set
    /// over one that is not; the left on a tie.
    public static func fuller(_ left: FieldValue, _ right: FieldValue) -> Side {
        switch (left, right) {
        case (.text(let a), .text(let b)):
            (b?.trimmedForCard.count ?? 0) > (a?.trimmedForCard.count ?? 0) ? .right : .left
        case (.list(let a), .list(let b)):
            b.count > a.count ? .right : .left
        case (.number(let a), .number(let b)):
            a == 0 && b != 0 ? .right : .left
        default:
            .left
        }
    }

    /// The card of `side`.
    public func card(_ side: Side) -> Card { side == .left ? left : right }

    /// The fields shown side by side: every field either card has a value in, in the
    /// descriptors' order.
    public var rows: [CardField] {
        CardField.allCases.filter { !left.fields[value: $0].isEmpty || !right.fields[value: $0].isEmpty }
    }

    /// The fields that differ (where a choice changes something).
    public var differing: [CardField] {
        rows.filter { left.fields[value: $0] != right.fields[value: $0] }
    }

    /// The merged card's fields (without kept lines: the glue adds those).
    public var fields: CardFields {
        var fields = card(keep).fields
        fields.vcardProperties = []
        for field in CardField.allCases {
            fields[value: field] = card(choices[field] ?? .left).fields[value: field]
        }
        return fields
    }

    /// The email the merged card does not take, when the other card has another one: kept as a
    /// second email.
    public var otherEmail: String? {
        other(of: .email) { $0.lowercased() }
    }

    /// The phone number the merged card does not take, when the other card has another one (by
    /// its digits): kept as a second number.
    public var otherPhone: String? {
        other(of: .phone) { String($0.filter(\.isNumber)) }
    }

    private func other(of field: CardField, _ key: (String) -> String) -> String? {
        let chosen = choices[field] ?? .left
        guard let value = card(chosen.other).fields[value: field].text?.trimmedForCard, !value.isEmpty else {
            return nil
        }
        let taken = card(chosen).fields[value: field].text.map(key)
        return taken == key(value) ? nil : value
    }
}
