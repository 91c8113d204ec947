public import CardModels

/// How card fields travel as multipart/form-data parts in `POST /card`.
///
/// Text parts are named `card.<field>`; list fields (`tmi`, `tags`, `vcardProperties`) repeat
/// their part once per item, in order; `card.defaultImage` is a decimal number. The optional image is the part
/// named ``imagePartName``.
public enum CardForm {
    /// The name of the part holding the PNG or JPEG image.
    public static let imagePartName = "image"
    /// The name of the (repeated) part holding one kept vCard property line.
    public static let vcardPropertiesPartName = "card." + CardLimits.vcardPropertiesKey

    /// The parts, in a stable order, that carry `fields`.
    public static func parts(for fields: CardFields) -> [(name: String, value: String)] {
        var parts: [(name: String, value: String)] = []
        for field in CardField.allCases {
            if field.kind.list != nil {
                parts += fields[value: field].list.map { (field.formPartName, $0) }
            } else {
                let value = fields[field]
                if !value.isEmpty || field.descriptor.isRequired { parts.append((field.formPartName, value)) }
            }
        }
        parts += fields.vcardProperties.map { (vcardPropertiesPartName, $0) }
        return parts
    }

    /// Card fields from text parts; unknown `card.*` names are reported by name, as E01 expects.
    ///
    /// - Returns: the fields, and the problems found (part name → problem); parts not named
    ///   `card.*` are ignored here.
    public static func fields(from parts: [(name: String, value: String)]) -> (CardFields, [String: String]) {
        var fields = CardFields(name: "")
        var problems: [String: String] = [:]
        var lists: [CardField: [String]] = [:]
        var vcardProperties: [String] = []
        for (name, value) in parts where name.hasPrefix("card.") {
            if name == vcardPropertiesPartName {
                vcardProperties.append(value)
                continue
            }
            guard let field = CardField(rawValue: String(name.dropFirst(5))) else {
                problems[name] = "is not a card field"
                continue
            }
            switch field.kind {
            case .list: lists[field, default: []].append(value)
            case .number(let range):
                guard let number = Int(value.trimmedForCard) else {
                    problems[field.key] = "must be a number from \(range.lowerBound) to \(range.upperBound)"
                    continue
                }
                fields[value: field] = .number(number)
            case .shortText, .longText, .email, .phone, .url, .date: fields[field] = value
            }
        }
        for (field, list) in lists { fields[value: field] = .list(list) }
        fields.vcardProperties = vcardProperties
        return (fields, problems)
    }
}
