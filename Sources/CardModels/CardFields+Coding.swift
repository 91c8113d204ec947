extension CardFields {
    /// A JSON key: a field's, or ``CardLimits/vcardPropertiesKey``.
    private struct Key: CodingKey {
        let stringValue: String
        init(_ stringValue: String) { self.stringValue = stringValue }
        init?(stringValue: String) { self.init(stringValue) }
        var intValue: Int? { nil }
        init?(intValue: Int) { nil }
    }

    /// Each field with its key, made once (every card read decodes them all).
    private static let keys: [(field: CardField, key: Key)] = CardField.allCases.map { ($0, Key($0.key)) }
    private static let vcardPropertiesKey = Key(CardLimits.vcardPropertiesKey)

    /// Decodes the fields by their descriptors' keys: the name is required; absent text is
    /// `nil`, absent lists are empty and an absent number is 0.
    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: Key.self)
        self.init(name: "")
        for (field, key) in Self.keys {
            switch field.kind {
            case .list:
                self[value: field] = .list(try c.decodeIfPresent([String].self, forKey: key) ?? [])
            case .number:
                self[value: field] = .number(try c.decodeIfPresent(Int.self, forKey: key) ?? 0)
            case .shortText, .longText, .email, .phone, .url, .date:
                let text =
                    field.descriptor.isRequired
                    ? try c.decode(String.self, forKey: key) : try c.decodeIfPresent(String.self, forKey: key)
                self[value: field] = .text(text)
            }
        }
        vcardProperties = try c.decodeIfPresent([String].self, forKey: Self.vcardPropertiesKey) ?? []
    }

    /// Encodes the fields, leaving out absent optional text (lists and numbers always).
    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: Key.self)
        for (field, key) in Self.keys {
            switch self[value: field] {
            case .text(let text): try c.encodeIfPresent(text, forKey: key)
            case .list(let list): try c.encode(list, forKey: key)
            case .number(let number): try c.encode(number, forKey: key)
            }
        }
        // Left out when empty, so cards without an imported vCard look as they always did.
        if !vcardProperties.isEmpty { try c.encode(vcardProperties, forKey: Self.vcardPropertiesKey) }
    }
}
