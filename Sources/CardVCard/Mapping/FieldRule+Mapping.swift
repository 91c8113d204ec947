import CardModels

extension FieldRule {
    /// The mapping of issue 15, RFC 6350 names, in the order the writer emits them: one row per
    /// property, built from the fields' descriptors (``CardModels/FieldDescriptor/vCard``), so a
    /// field with a vCard place needs nothing here.
    static let mapping: [FieldRule] = {
        var byProperty: [String: [FieldDescriptor]] = [:]
        for descriptor in CardField.table {
            guard let place = descriptor.vCard else { continue }
            byProperty[place.property, default: []].append(descriptor)
        }
        return byProperty.values
            .sorted { ($0[0].vCard!.order, $0[0].vCard!.property) < ($1[0].vCard!.order, $1[0].vCard!.property) }
            .map(rule)
    }()

    /// The rules by property name.
    static let byProperty: [String: FieldRule] = Dictionary(
        mapping.map { ($0.property, $0) }, uniquingKeysWith: { a, _ in a })
    /// The position of each rule in ``mapping``, by property name.
    static let position: [String: Int] = Dictionary(
        mapping.enumerated().map { ($1.property, $0) }, uniquingKeysWith: { a, _ in a })

    /// How a vCard 2.1 value of a modelled property is written again as 3.0 or 4.0 escape text
    /// (``VCardImporter/escaped(_:_:)``), by property: text is escaped, structured values and
    /// lists are joined again; properties not listed (emails, numbers, URIs, dates) are left
    /// as they are.
    static let versionTwoForms: [String: VersionTwoForm] = {
        var forms: [String: VersionTwoForm] = ["N": .components]
        for descriptor in CardField.table {
            guard let place = descriptor.vCard else { continue }
            switch (place.value, descriptor.kind) {
            case (.component, _), (.address, _): forms[place.property] = .components
            case (.list, _): forms[place.property] = .list
            case (.each, _), (.whole, .shortText), (.whole, .longText): forms[place.property] = .text
            case (.whole, _): break
            }
        }
        return forms
    }()

    /// How a vCard 2.1 value is read again (``versionTwoForms``).
    enum VersionTwoForm {
        case text, components, list
    }

    /// The row of one property and the fields it fills (one, or the components of a structured
    /// value, at most two).
    private static func rule(_ descriptors: [FieldDescriptor]) -> FieldRule {
        let place = descriptors[0].vCard!
        let property = place.property
        let choice: Choice = place.value == .each ? .every : place.isPreferred ? .preferred : .first
        if case .component = place.value {
            let parts = descriptors.map { descriptor -> (field: CardField, index: Int) in
                guard case .component(let index) = descriptor.vCard!.value else { return (descriptor.field, 0) }
                return (descriptor.field, index)
            }.sorted { $0.index < $1.index }
            precondition(parts.count <= 2, "\(property): a rule fills at most two fields")
            return components(property, parts, choice: choice)
        }
        precondition(descriptors.count == 1, "\(property): only the components of a structured value share one")
        let descriptor = descriptors[0]
        let field = descriptor.field
        switch place.value {
        case .address:
            return FieldRule(
                property: property, fields: [field], choice: choice,
                read: { property in
                    let line = AddressLine.line(from: property.components)
                    return line.isEmpty ? nil : FieldValues(field, line)
                },
                write: { fields, _ in
                    fields[value: field].text.map {
                        property + ":" + VCardText.join(["", "", $0, "", "", "", ""], separator: ";")
                    }
                })
        case .each:
            // The writer emits one line per item (``VCardWriter``), each read back as one.
            return FieldRule(
                property: property, fields: [field], choice: choice,
                read: { property in
                    let item = property.text.trimmingVCardWhitespace
                    return item.isEmpty ? nil : FieldValues(field, list: [item])
                },
                write: { _, _ in nil })
        case .list:
            return FieldRule(
                property: property, fields: [field], choice: choice,
                read: { property in
                    let items = property.listValues.map { $0.trimmingVCardWhitespace.replacingNewlines }.filter {
                        !$0.isEmpty
                    }
                    return items.isEmpty ? nil : FieldValues(field, list: items)
                },
                write: { fields, _ in
                    let items = fields[value: field].list
                    return items.isEmpty ? nil : property + ":" + VCardText.join(items, separator: ",")
                })
        case .whole, .component:
            return whole(property, descriptor, choice: choice)
        }
    }

    /// A property whose whole value is one field, read and written as its kind says.
    private static func whole(_ property: String, _ descriptor: FieldDescriptor, choice: Choice) -> FieldRule {
        let field = descriptor.field
        let read: @Sendable (VCardProperty) -> FieldValues?
        let write: @Sendable (CardFields, VCardVersion) -> String?
        // Text, escaped: the common case.
        let escapedText: @Sendable (CardFields, VCardVersion) -> String? = { fields, _ in
            guard let value = fields[value: field].text, !value.isEmpty else { return nil }
            return property + ":" + VCardText.escape(value)
        }
        switch descriptor.kind {
        case .shortText, .list:
            read = { text($0, field) }
            write = escapedText
        case .longText:
            // Line breaks kept.
            read = { property in
                let text = property.text.trimmingVCardWhitespace
                return text.isEmpty ? nil : FieldValues(field, text)
            }
            write = escapedText
        case .email:
            read = { property in
                var address = property.text.trimmingVCardWhitespace
                if address.lowercased().hasPrefix("mailto:") { address = String(address.dropFirst(7)) }
                return CardFormat.isEmail(address) ? FieldValues(field, address) : nil
            }
            write = escapedText
        case .phone:
            read = { property in
                var number = property.text.trimmingVCardWhitespace
                // RFC 3966 tel: URIs (vCard 4.0): the number, without parameters such as ;ext=.
                if number.lowercased().hasPrefix("tel:") {
                    number = String(number.dropFirst(4).prefix { $0 != ";" })
                }
                return CardFormat.isPhone(number) ? FieldValues(field, number) : nil
            }
            write = escapedText
        case .url:
            read = { property in
                let address = property.text.trimmingVCardWhitespace
                return CardFormat.isWebURL(address) ? FieldValues(field, address) : nil
            }
            // A URI value: not escaped (RFC 6350 §6.7.8), which every reader takes back as is.
            write = { fields, _ in fields[value: field].text.map { property + ":" + $0 } }
        case .date:
            read = { property in BirthdayValue.fullDate(property.text).map { FieldValues(field, $0) } }
            // vCard 4.0 writes a date without dashes (RFC 6350 §4.3.1).
            write = { fields, version in
                guard let date = fields[value: field].text else { return nil }
                return property + ":" + (version == .v40 ? date.filter { $0 != "-" } : date)
            }
        case .number(let range):
            // 0 is "not set": neither read nor written.
            read = { property in
                guard let number = Int(property.text.trimmingVCardWhitespace), range.contains(number) else {
                    return nil
                }
                return FieldValues(field, number == 0 ? "" : String(number))
            }
            write = { fields, _ in
                let number = fields[value: field].number
                return number == 0 ? nil : property + ":\(number)"
            }
        }
        return FieldRule(property: property, fields: [field], choice: choice, read: read, write: write)
    }

    /// A structured value whose components are fields (`ORG`: the company, the department).
    private static func components(
        _ property: String, _ parts: [(field: CardField, index: Int)], choice: Choice
    ) -> FieldRule {
        FieldRule(
            property: property, fields: parts.map(\.field), choice: choice,
            read: { property in
                let components = property.components.map { $0.trimmingVCardWhitespace.replacingNewlines }
                func part(_ index: Int) -> String { index < components.count ? components[index] : "" }
                var values = FieldValues(parts[0].field, part(parts[0].index))
                if parts.count > 1 {
                    values = FieldValues(parts[0].field, part(parts[0].index), parts[1].field, part(parts[1].index))
                }
                return values.isEmpty ? nil : values
            },
            write: { fields, _ in
                // Up to the last component that holds something.
                var values = [String](repeating: "", count: (parts.map(\.index).max() ?? 0) + 1)
                for part in parts { values[part.index] = fields[value: part.field].text ?? "" }
                while values.count > 1, values.last!.isEmpty { values.removeLast() }
                if values.allSatisfy(\.isEmpty) { return nil }
                return property + ":" + VCardText.join(values, separator: ";")
            })
    }

    private static func text(_ property: VCardProperty, _ field: CardField) -> FieldValues? {
        let value = property.text.trimmingVCardWhitespace.replacingNewlines
        return value.isEmpty ? nil : FieldValues(field, value)
    }
}

/// The properties CardWallet writes for what vCard has no property for.
public enum WalletProperty {
    /// One fun fact per line (the property of ``CardModels/CardField/funFacts``'s descriptor).
    public static let funFacts = CardField.funFacts.descriptor.vCard!.property
    /// The avatar number (1–7) shown when the card has no image.
    public static let avatar = CardField.defaultImage.descriptor.vCard!.property
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
