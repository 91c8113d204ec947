import CardModels

extension FieldRule {
    /// The mapping of issue 15, RFC 6350 names, in the order the writer emits them.
    static let table: [FieldRule] = [
        FieldRule(
            property: "FN", fields: [.name], choice: .first,
            read: { text($0, .name) },
            write: { fields, _ in fields.name.isEmpty ? nil : "FN:" + VCardText.escape(fields.name) }),
        FieldRule(
            property: "ORG", fields: [.company, .department], choice: .first,
            read: { property in
                let parts = property.components.map { $0.trimmingVCardWhitespace.replacingNewlines }
                let company = parts.first ?? ""
                let department = parts.count > 1 ? parts[1] : ""
                let values = FieldValues(.company, company, .department, department)
                return values.isEmpty ? nil : values
            },
            write: { fields, _ in
                let company = fields.company ?? ""
                let department = fields.department ?? ""
                if company.isEmpty, department.isEmpty { return nil }
                return "ORG:" + VCardText.join(department.isEmpty ? [company] : [company, department], separator: ";")
            }),
        simple("TITLE", .title),
        FieldRule(
            property: "EMAIL", fields: [.email], choice: .preferred,
            read: { property in
                var address = property.text.trimmingVCardWhitespace
                if address.lowercased().hasPrefix("mailto:") { address = String(address.dropFirst(7)) }
                return CardFormat.isEmail(address) ? FieldValues(.email, address) : nil
            },
            write: { fields, _ in fields.email.map { "EMAIL:" + VCardText.escape($0) } }),
        FieldRule(
            property: "TEL", fields: [.phone], choice: .preferred,
            read: { property in
                var number = property.text.trimmingVCardWhitespace
                // RFC 3966 tel: URIs (vCard 4.0): the number, without parameters such as ;ext=.
                if number.lowercased().hasPrefix("tel:") {
                    number = String(number.dropFirst(4).prefix { $0 != ";" })
                }
                return CardFormat.isPhone(number) ? FieldValues(.phone, number) : nil
            },
            write: { fields, _ in fields.phone.map { "TEL:" + VCardText.escape($0) } }),
        FieldRule(
            property: "URL", fields: [.website], choice: .first,
            read: { property in
                let address = property.text.trimmingVCardWhitespace
                return CardFormat.isWebURL(address) ? FieldValues(.website, address) : nil
            },
            // A URI value: not escaped (RFC 6350 §6.7.8), which every reader takes back as is.
            write: { fields, _ in fields.website.map { "URL:" + $0 } }),
        FieldRule(
            property: "ADR", fields: [.address], choice: .preferred,
            read: { property in
                let line = AddressLine.line(from: property.components)
                return line.isEmpty ? nil : FieldValues(.address, line)
            },
            write: { fields, _ in
                fields.address.map { "ADR:" + VCardText.join(["", "", $0, "", "", "", ""], separator: ";") }
            }),
        FieldRule(
            property: "BDAY", fields: [.birthday], choice: .first,
            read: { property in BirthdayValue.fullDate(property.text).map { FieldValues(.birthday, $0) } },
            write: { fields, version in
                guard let birthday = fields.birthday else { return nil }
                return "BDAY:" + (version == .v40 ? birthday.filter { $0 != "-" } : birthday)
            }),
        FieldRule(
            property: "NOTE", fields: [.bio], choice: .first,
            read: { property in
                let note = property.text.trimmingVCardWhitespace
                return note.isEmpty ? nil : FieldValues(.bio, note)
            },
            write: { fields, _ in fields.bio.map { "NOTE:" + VCardText.escape($0) } }),
        FieldRule(
            property: "CATEGORIES", fields: [.tags], choice: .first,
            read: { property in
                let tags = property.listValues.map { $0.trimmingVCardWhitespace.replacingNewlines }.filter {
                    !$0.isEmpty
                }
                return tags.isEmpty ? nil : FieldValues(.tags, list: tags)
            },
            write: { fields, _ in
                fields.tags.isEmpty ? nil : "CATEGORIES:" + VCardText.join(fields.tags, separator: ",")
            }),
        FieldRule(
            property: WalletProperty.tmi, fields: [.tmi], choice: .every,
            read: { property in
                let fact = property.text.trimmingVCardWhitespace
                return fact.isEmpty ? nil : FieldValues(.tmi, list: [fact])
            },
            write: { _, _ in nil }),
        FieldRule(
            property: WalletProperty.avatar, fields: [.defaultImage], choice: .first,
            read: { property in
                guard let number = Int(property.text.trimmingVCardWhitespace),
                    CardLimits.defaultImageRange.contains(number)
                else { return nil }
                return FieldValues(.defaultImage, number == 0 ? "" : String(number))
            },
            write: { fields, _ in fields.defaultImage == 0 ? nil : WalletProperty.avatar + ":\(fields.defaultImage)" }),
    ]

    /// The rules by property name.
    static let byProperty: [String: FieldRule] = Dictionary(
        table.map { ($0.property, $0) }, uniquingKeysWith: { a, _ in a })
    /// The position of each rule in ``table``, by property name.
    static let position: [String: Int] = Dictionary(
        table.enumerated().map { ($1.property, $0) }, uniquingKeysWith: { a, _ in a })

    private static func simple(_ property: String, _ field: CardField) -> FieldRule {
        FieldRule(
            property: property, fields: [field], choice: .first,
            read: { text($0, field) },
            write: { fields, _ in
                let value = fields[field]
                return value.isEmpty ? nil : property + ":" + VCardText.escape(value)
            })
    }

    private static func text(_ property: VCardProperty, _ field: CardField) -> FieldValues? {
        let value = property.text.trimmingVCardWhitespace.replacingNewlines
        return value.isEmpty ? nil : FieldValues(field, value)
    }
}

/// The properties CardWallet writes for what vCard has no property for.
public enum WalletProperty {
    /// One fun fact per line.
    public static let tmi = "X-CARDWALLET-TMI"
    /// The avatar number (1–7) shown when the card has no image.
    public static let avatar = "X-CARDWALLET-AVATAR"
    /// The `PRODID` of every card CardWallet writes: how the vdir writer knows its own files.
    public static let productID = "-//CardWallet//CardWallet vCard//EN"
    /// The parameter marking a kept line that is the original form of a modelled field
    /// (`item1.EMAIL;X-CARDWALLET-FIELD=email;TYPE=INTERNET:…`); its value is the field's key.
    /// The writer emits the line (without the marker) while the field still says the same, and
    /// drops it once the field was edited.
    public static let fieldParameter = "X-CARDWALLET-FIELD"
    /// The parameter of a kept `N` giving the name it goes with; the writer derives a new N once
    /// the card was renamed.
    public static let nameParameter = "X-CARDWALLET-NAME"
    /// Both markers.
    static let markers: Set<String> = [fieldParameter, nameParameter]
    /// The kept line of a card whose vCard had no name: its value is the name the card was given
    /// (from its organisation, email or phone number). While the card keeps that name, the
    /// writer writes an empty `FN` rather than invent one; a line of this name in a file is
    /// ignored.
    public static let derivedName = "X-CARDWALLET-DERIVED-NAME"
    /// The prefix of the `UID` derived from a card id when the card has none of its own.
    public static let uidPrefix = "cardwallet-"
}

/// Birthdays: only full dates become the card's birthday.
enum BirthdayValue {
    /// `YYYY-MM-DD` for `1990-03-15`, `19900315`, `1990-03-15T00:00:00Z` (or with a time
    /// zone); `nil` for a date without a year (`--0315`, `--03-15`) or anything else.
    static func fullDate(_ text: String) -> String? {
        // On the bytes: a date is ASCII, and anything else is not one.
        var bytes = Array(text.trimmingVCardWhitespace.utf8)
        if let time = bytes.firstIndex(where: { $0 == UInt8(ascii: "T") || $0 == UInt8(ascii: "t") }) {
            bytes.removeSubrange(time...)
        }
        let dash = UInt8(ascii: "-")
        guard bytes.first != dash else { return nil }
        // The dashes, when present, must be where ISO 8601 puts them.
        if bytes.contains(dash) {
            guard bytes.count == 10, bytes[4] == dash, bytes[7] == dash else { return nil }
            bytes.removeAll { $0 == dash }
        }
        guard bytes.count == 8, bytes.allSatisfy({ $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }) else {
            return nil
        }
        bytes.insert(dash, at: 6)
        bytes.insert(dash, at: 4)
        let result = String(decoding: bytes, as: UTF8.self)
        return CardFormat.isCalendarDate(result) ? result : nil
    }
}
