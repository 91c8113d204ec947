import CardModels

/// Maps a ``VCard`` onto a card (issue 15's table, in ``FieldRule/table``), losslessly: every
/// property the card does not model is kept as a content line in
/// ``CardModels/CardFields/vcardProperties``, and so is a modelled property whose line the
/// writer would not reproduce exactly (a grouped `item1.EMAIL`, a typed `TEL;TYPE=CELL`, an ADR
/// in parts), so that the export gives it back as it came.
public struct VCardImporter: Sendable {
    /// The options.
    public var options: VCardImportOptions

    /// An importer.
    public init(options: VCardImportOptions = VCardImportOptions()) {
        self.options = options
    }

    /// The card `vcard` maps to, or the problem that keeps it out (no name, an unreadable photo,
    /// a value over a limit), at the line of the property at fault.
    public func card(from vcard: VCard) -> Result<ImportedCard, VCardProblem> {
        var fields = CardFields(name: "")
        var extras: [Int] = []
        var candidates = [[(index: Int, values: FieldValues)]](repeating: [], count: FieldRule.table.count)
        var nameIndex: Int?
        var photo: VCardPhoto?
        var uid: String?
        var carriesWalletFields = false
        var properties = vcard.properties
        // CardWallet's markers are its own business: never taken from a file.
        for index in properties.indices
        where properties[index].parameters.contains(where: { WalletProperty.markers.contains($0.name) }) {
            properties[index].parameters.removeAll { WalletProperty.markers.contains($0.name) }
        }

        for (index, property) in properties.enumerated() {
            switch property.key {
            case "PRODID", "REV":
                // About the file, not the person: the writer makes its own.
                continue
            case "UID" where uid == nil:
                let value = property.text.trimmingVCardWhitespace
                uid = value
                // A UID CardWallet derived from a card id belongs to that wallet: not kept.
                if value.hasPrefix(WalletProperty.uidPrefix) { continue }
                extras.append(index)
            case "N" where nameIndex == nil:
                nameIndex = index
            case "PHOTO" where photo == nil:
                switch Self.photo(in: property, limit: options.maximumImageBytes) {
                case .none: extras.append(index)
                case .some(.success(let image)): photo = image
                case .some(.failure(let problem)): return .failure(problem)
                }
            default:
                guard let rule = FieldRule.byProperty[property.key], let values = rule.read(property) else {
                    extras.append(index)
                    continue
                }
                if property.key.hasPrefix("X-CARDWALLET-") { carriesWalletFields = true }
                if rule.choice == .every {
                    if case .list(let list) = values.value {
                        fields.set(.list(fields.values(of: values.field) + list), of: values.field)
                    }
                } else {
                    candidates[FieldRule.position[rule.property]!].append((index, values))
                }
            }
        }

        // The chosen property of each rule fills its fields; the others are kept.
        var chosen: [(rule: FieldRule, index: Int)] = []
        for (position, rule) in FieldRule.table.enumerated() where rule.choice != .every {
            let list = candidates[position]
            guard !list.isEmpty else { continue }
            let pick: (index: Int, values: FieldValues)
            switch rule.choice {
            case .preferred:
                pick = list.min { properties[$0.index].preference < properties[$1.index].preference } ?? list[0]
            default:
                pick = list[0]
            }
            pick.values.apply(to: &fields)
            chosen.append((rule, pick.index))
            extras += list.map(\.index).filter { $0 != pick.index }
        }

        if fields.name.isEmpty, let nameIndex {
            fields.name = NameParts.name(from: properties[nameIndex].components)
        }
        guard !fields.name.isEmpty else {
            return .failure(VCardProblem(line: vcard.beginLine, "the card has no name (no FN, no N)"))
        }
        var marked: [Int: VCardParameter] = [:]
        if let nameIndex, !Self.isCanonical(properties[nameIndex], NameParts.derivedLine(for: fields.name)) {
            // N says more than the name (a title, the family name of a one-word name…): kept,
            // with the name it goes with, so an export after a rename does not bring the old N back.
            marked[nameIndex] = VCardParameter(name: WalletProperty.nameParameter, values: [fields.name])
            extras.append(nameIndex)
        }

        // The chosen properties the writer would not reproduce exactly ("shadows") first, in
        // table order, marked with the field they stand for; then the rest in file order. The
        // writer emits them in the same order, so an export read back gives the same list.
        var kept: [(line: Int, text: String)] = []
        for (rule, index) in chosen {
            let property = properties[index]
            if let canonical = rule.write(fields, vcard.version), Self.isCanonical(property, canonical) { continue }
            let marker = VCardParameter(name: WalletProperty.fieldParameter, values: [rule.fields[0].key])
            kept.append((property.line, ContentLine.render(property, marker: marker)))
        }
        for index in extras.sorted() {
            kept.append((properties[index].line, ContentLine.render(properties[index], marker: marked[index])))
        }
        fields.vcardProperties = kept.map(\.text)
        // Where a field came from, asked only when it has a problem.
        let source: (CardField) -> (line: Int, property: String)? = { field in
            if let pick = chosen.last(where: { $0.rule.fields.contains(field) }) {
                return (properties[pick.index].line, pick.rule.property)
            }
            if field == .name, let nameIndex { return (properties[nameIndex].line, "N") }
            guard let rule = FieldRule.table.first(where: { $0.fields.contains(field) }),
                let last = properties.last(where: { $0.key == rule.property })
            else { return nil }
            return (last.line, rule.property)
        }
        if let problem = Self.problem(in: fields, kept: kept, source: source, card: vcard) {
            return .failure(problem)
        }
        return .success(
            ImportedCard(
                fields: fields, photo: photo, uid: uid, carriesWalletFields: carriesWalletFields, line: vcard.beginLine)
        )
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

    /// The first problem the server would refuse the card for, at the line it came from.
    private static func problem(
        in fields: CardFields, kept: [(line: Int, text: String)], source: (CardField) -> (line: Int, property: String)?,
        card: VCard
    ) -> VCardProblem? {
        for field in CardField.allCases {
            guard let message = fields.problem(for: field) else { continue }
            let source = source(field)
            return VCardProblem(
                line: source?.line ?? card.beginLine,
                "\(source?.property ?? "the card") (\(field.label.lowercased())) \(message)")
        }
        if kept.count > CardLimits.vcardPropertiesMaxCount {
            return VCardProblem(
                line: card.beginLine,
                "the card has \(kept.count) properties the wallet keeps as they are, more than \(CardLimits.vcardPropertiesMaxCount)"
            )
        }
        for entry in kept where entry.text.utf8.count > CardLimits.vcardPropertyMaxLength {
            var count = 0
            for _ in entry.text {
                count += 1
                if count > CardLimits.vcardPropertyMaxLength { break }
            }
            if count > CardLimits.vcardPropertyMaxLength {
                let name = entry.text.prefix { $0 != ";" && $0 != ":" }
                return VCardProblem(
                    line: entry.line,
                    "\(name) is longer than the \(CardLimits.vcardPropertyMaxLength) characters a kept property may have"
                )
            }
        }
        if let message = fields.vcardPropertiesProblem() {
            return VCardProblem(line: card.beginLine, "the kept properties \(message)")
        }
        return nil
    }
}
