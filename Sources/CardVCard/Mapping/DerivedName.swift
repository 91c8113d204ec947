import CardModels

/// A name for a contact that has none (no `FN`, an empty `N`), the way phones show such a
/// contact: by its organisation, else its email, else its phone number. Phones export such
/// contacts (a number saved without a name); the card needs a name, the vCard had none.
///
/// The card keeps ``WalletProperty/derivedName`` with the name it was given, so that the writer
/// gives back a card without a name (an empty `FN`, which vCard 3.0 and 4.0 require) rather than
/// one it made up, for as long as the card keeps that name.
enum DerivedName {
    /// Where a derived name came from.
    enum Source: Equatable {
        case organisation, email, phone

        /// For the report: `its organisation`.
        var phrase: String {
            switch self {
            case .organisation: "its organisation"
            case .email: "its email address"
            case .phone: "its phone number"
            }
        }
    }

    /// The name for `fields` (which have none), clipped to the name's length, and where it came
    /// from; `nil` when there is nothing to name the card by.
    static func name(for fields: CardFields) -> (name: String, source: Source)? {
        let candidates: [(String?, Source)] = [
            (fields.company, .organisation), (fields.department, .organisation), (fields.email, .email),
            (fields.phone, .phone),
        ]
        for case (let value?, let source) in candidates {
            let name = FieldClip.text(value.trimmingVCardWhitespace.replacingNewlines, to: CardLimits.nameMaxLength)
            if !name.isEmpty { return (name, source) }
        }
        return nil
    }

    /// The kept line that marks `name` as derived.
    static func marker(for name: String) -> String {
        WalletProperty.derivedName + ":" + VCardText.escape(name)
    }

    /// The name a kept marker line holds, or `nil` when the line is not one.
    static func name(inMarker line: KeptLine) -> String? {
        guard line.key == WalletProperty.derivedName, let property = line.parsed() else { return nil }
        return property.text
    }
}
