import CardModels

extension VCardImporter {
    /// An original kept for a field, with its value escaped as vCard 3.0 and 4.0 escape text:
    /// vCard 2.1 leaves commas (and, in single values, semicolons) bare, which in the 3.0 or 4.0
    /// the writer gives it back in would split the value. The same text, read either way.
    static func escaped(_ property: VCardProperty, _ version: VCardVersion) -> VCardProperty {
        guard version == .v21, property.binary == nil else { return property }
        var copy = property
        switch FieldRule.versionTwoForms[property.key] {
        case .text?: copy.value = VCardText.escape(property.text)
        case .components?: copy.value = VCardText.join(property.components, separator: ";")
        case .list?: copy.value = VCardText.join(property.listValues, separator: ",")
        case nil: break
        }
        return copy
    }

    /// Whether `property` is exactly what the writer makes of the fields (`canonical`): no
    /// group, the same parameters, the same value parts.
    static func isCanonical(_ property: VCardProperty, _ canonical: String) -> Bool {
        guard property.group == nil, property.binary == nil else { return false }
        // Written the same way: the same (the common case, without parsing anything).
        if property.parameters.isEmpty {
            let key = property.key.utf8
            let value = property.value.utf8
            let line = canonical.utf8
            if line.count == key.count + 1 + value.count, line.starts(with: key),
                line[line.index(line.startIndex, offsetBy: key.count)] == UInt8(ascii: ":"),
                line.suffix(value.count).elementsEqual(value)
            {
                return true
            }
        } else if ContentLine.render(property) == canonical {
            return true
        }
        guard let written = ContentLine.parse(canonical) else { return false }
        return property.parameters == written.parameters && property.components == written.components
    }

    /// The photo in a PHOTO property: `.none` when it is a link (kept as a line), the image,
    /// or the problem with it.
    static func photo(in property: VCardProperty, limit: Int) -> Result<VCardPhoto, VCardProblem>? {
        var bytes = property.binary
        if bytes == nil {
            let value = property.text.trimmingVCardWhitespace
            guard value.lowercased().hasPrefix("data:") else { return nil }
            guard let comma = value.firstIndex(of: ","),
                value[..<comma].lowercased().hasSuffix(";base64"),
                let decoded = TransferEncoding.base64Decode(value[value.index(after: comma)...].utf8)
            else {
                return .failure(VCardProblem(line: property.line, "PHOTO: the data: URI is not base64 image data"))
            }
            bytes = decoded
        }
        guard let bytes, !bytes.isEmpty else {
            return .failure(VCardProblem(line: property.line, "PHOTO: the photo is empty"))
        }
        guard let format = CardImageFormat(sniffing: bytes) else {
            return .failure(VCardProblem(line: property.line, "PHOTO: the photo is not a PNG or JPEG image"))
        }
        guard bytes.count <= limit else {
            return .failure(
                VCardProblem(
                    line: property.line,
                    "PHOTO: the photo is \(bytes.count) bytes, more than the \(limit) a card image may be"))
        }
        return .success(VCardPhoto(bytes: bytes, format: format))
    }

    /// The first problem the server would still refuse the card for, at the line it came from
    /// (none once the values are clipped and the kept lines fitted; kept as a net under them).
    static func problem(
        in fields: CardFields, source: (CardField) -> (line: Int, property: String)?, card: VCard
    ) -> VCardProblem? {
        for field in CardField.allCases {
            guard let message = fields.problem(for: field) else { continue }
            let source = source(field)
            return VCardProblem(
                line: source?.line ?? card.beginLine,
                "\(source?.property ?? "the card") (\(field.label.lowercased())) \(message)")
        }
        if let message = fields.vcardPropertiesProblem() {
            return VCardProblem(line: card.beginLine, "the kept properties \(message)")
        }
        return nil
    }
}
