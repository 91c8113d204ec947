import CardModels

extension VCardImporter {
    /// The value an original kept for a field is written with, escaped as vCard 3.0 and 4.0
    /// escape text — vCard 2.1 leaves commas (and, in single values, semicolons) bare, which in
    /// the 3.0 or 4.0 the writer gives it back in would split the value; the same text, read
    /// either way —, or `nil` when the value is kept as it was read. Which properties, and how,
    /// comes from the fields' descriptors (``FieldRule/versionTwoForms``).
    static func escapedValue(_ property: VCardProperty, _ version: VCardVersion) -> String? {
        guard version == .v21, !property.isBinary else { return nil }
        switch FieldRule.versionTwoForms[property.key] {
        case .text?: return VCardText.escape(property.text)
        case .components?: return VCardText.join(property.components, separator: ";")
        case .list?: return VCardText.join(property.listValues, separator: ",")
        case nil: return nil
        }
    }

    /// Whether `property` (with `value` instead of its own, when given) is exactly what the
    /// writer makes of the fields (`canonical`): no group, the same parameters, the same value
    /// parts.
    static func isCanonical(_ property: VCardProperty, _ canonical: String, value: String? = nil) -> Bool {
        guard property.group == nil, !property.isBinary else { return false }
        // Written the same way: the same (the common case, compared on the bytes).
        if case .bytes(let view) = property.storage, view.damage == nil, !view.layout.hasParameters {
            if view.plainLine(equals: canonical, value: value) { return true }
        } else if case .bytes(let view) = property.storage, view.layout.flags.contains(.otherParameters),
            !hasParameters(canonical)
        {
            // Parameters on one side only (a typed TEL against the writer's plain one).
            return false
        } else {
            let line = ContentLine.render(property, marker: nil, withoutMarkers: false, value: value)
            if line == canonical { return true }
            // Parameters on one side only (a typed TEL against the writer's plain one): not the same.
            if hasParameters(line) != hasParameters(canonical) { return false }
        }
        guard let written = ContentLine.parse(canonical) else { return false }
        var property = property
        if let value { property.value = value }
        return property.parameters == written.parameters && property.components == written.components
    }

    /// Whether a rendered content line has parameters: a `;` before its first `:` (names hold
    /// neither).
    private static func hasParameters(_ line: String) -> Bool {
        for byte in line.utf8 {
            if byte == UInt8(ascii: ":") { return false }
            if byte == UInt8(ascii: ";") { return true }
        }
        return false
    }

    /// The photo in a PHOTO property: `.none` when it is a link (kept as a line), the image,
    /// or the problem with it.
    static func photo(in property: VCardProperty, limit: Int) -> Result<VCardPhoto, VCardProblem>? {
        var bytes = property.binary
        if bytes == nil, case .bytes(let view) = property.storage, let dataURI = view.dataURI() {
            // A data: URI read from the bytes, without a string of it.
            guard let decoded = dataURI else {
                return .failure(VCardProblem(line: property.line, "PHOTO: the data: URI is not base64 image data"))
            }
            bytes = decoded
        } else if bytes == nil {
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

    /// ``CardModels/CardFields/problem(for:)``, without counting the characters of text the
    /// mapping clipped to its field already (``FieldClip``: at most as long as the field holds,
    /// counted when clipped): such text is asked only when it holds a NUL.
    private static func fieldProblem(_ fields: CardFields, _ field: CardField) -> String? {
        switch field {
        case .title, .company, .department, .address, .bio:
            let text = fields[field]
            if text.utf8.count > field.maxLength, !text.utf8.contains(0) { return nil }
        default: break
        }
        return fields.problem(for: field)
    }

    /// The first problem the server would still refuse the card for, at the line it came from
    /// (none once the values are clipped and the kept lines fitted; kept as a net under them).
    static func problem(
        in fields: CardFields, source: (CardField) -> (line: Int, property: String)?, card: VCard
    ) -> VCardProblem? {
        for field in CardField.allCases {
            guard let message = fieldProblem(fields, field) else { continue }
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
