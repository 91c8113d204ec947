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
            switch field {
            case .tmi: parts += fields.tmi.map { (field.formPartName, $0) }
            case .tags: parts += fields.tags.map { (field.formPartName, $0) }
            default:
                let value = fields[field]
                if !value.isEmpty || field == .name { parts.append((field.formPartName, value)) }
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
        var tmi: [String] = []
        var tags: [String] = []
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
            switch field {
            case .tmi: tmi.append(value)
            case .tags: tags.append(value)
            case .defaultImage:
                guard let number = Int(value.trimmedForCard) else {
                    problems[field.key] = "must be a number from 0 to \(CardLimits.defaultImageRange.upperBound)"
                    continue
                }
                fields.defaultImage = number
            default: fields[field] = value
            }
        }
        fields.tmi = tmi
        fields.tags = tags
        fields.vcardProperties = vcardProperties
        return (fields, problems)
    }
}
