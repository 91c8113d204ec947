import CardModels

/// Maps a ``VCard`` onto a card (issue 15's table, in ``FieldRule/mapping``), losslessly: every
/// property the card does not model is kept as a content line in
/// ``CardModels/CardFields/vcardProperties``, and so is a modelled property whose line the
/// writer would not reproduce exactly (a grouped `item1.EMAIL`, a typed `TEL;TYPE=CELL`, an ADR
/// in parts, a NOTE longer than the bio), so that the export gives it back as it came.
///
/// A card is never refused for a limit of the card model: a value over its field's limit is
/// clipped (``FieldClip``) and its whole property kept; fun facts past the third are kept as
/// lines; a card without a name is named after its organisation, email or phone number
/// (``DerivedName``); kept lines past the limits of ``CardModels/CardLimits`` are left out. Each
/// of these is a warning of the ``ImportedCard``, at its line.
public struct VCardImporter: Sendable {
    /// The options.
    public var options: VCardImportOptions

    /// An importer.
    public init(options: VCardImportOptions = VCardImportOptions()) {
        self.options = options
    }

    /// What one kept line stands for, which decides how it is reported when it cannot be kept.
    enum KeptRole: Equatable {
        /// ``WalletProperty/derivedName``: never left out.
        case derivedName
        /// The original form of the chosen property of a field.
        case original(CardField)
        /// Anything else.
        case extra
    }

    /// One kept line, with where it came from.
    struct Kept {
        var line: Int
        var text: String
        var role: KeptRole
    }

    /// A field whose value was clipped, for its warning.
    struct Clip {
        var line: Int
        var property: String
        var field: CardField
        /// The field whose original (``KeptRole/original(_:)``) holds the whole value.
        var original: CardField
        var detail: String
    }

    /// The card `vcard` maps to, or the problem that keeps it out (no name nor anything to name
    /// it by, an unreadable photo), at the line of the property at fault.
    public func card(from vcard: VCard) -> Result<ImportedCard, VCardProblem> {
        var fields = CardFields(name: "")
        var extras: [Int] = []
        var candidates = [[(index: Int, values: FieldValues)]](repeating: [], count: FieldRule.mapping.count)
        var facts: [(index: Int, fact: String)] = []
        var nameIndex: Int?
        var photo: VCardPhoto?
        var uid: String?
        var carriesWalletFields = false
        var warnings = vcard.warnings
        var clips: [Clip] = []
        var properties = vcard.properties
        // CardWallet's markers are its own business: never taken from a file.
        for index in properties.indices
        where properties[index].mayHaveWalletMarker
            && properties[index].parameters.contains(where: { WalletProperty.markers.contains($0.name) })
        {
            properties[index].parameters.removeAll { WalletProperty.markers.contains($0.name) }
        }
        // Properties that are kept as their lines though they are not used: what was wrong
        // with each, for its warning once the kept lines are fitted.
        var unused: [(index: Int, problem: String, kept: Bool)] = []

        for (index, property) in properties.enumerated() {
            if let damage = property.damage {
                // A value the reader could not decode costs that property, and its line is not
                // kept: written back, it would make a CardDAV server refuse the whole card
                // (Radicale answers 400, Xandikos 500, to a PHOTO that is not base64).
                unused.append((index, damage, false))
                continue
            }
            // Matched on the name's bytes: no string per property.
            if property.isNamed("PRODID") || property.isNamed("REV") || property.isNamed(WalletProperty.derivedName) {
                // About the file, not the person (the writer makes its own), or ours alone.
                continue
            }
            if uid == nil, property.isNamed("UID") {
                let value = property.text.trimmingVCardWhitespace
                uid = value
                // A UID CardWallet derived from a card id belongs to that wallet: not kept.
                if value.hasPrefix(WalletProperty.uidPrefix) { continue }
                extras.append(index)
                continue
            }
            if nameIndex == nil, property.isNamed("N") {
                nameIndex = index
                continue
            }
            if photo == nil, property.isNamed("PHOTO") {
                switch Self.photo(in: property, limit: options.maximumImageBytes) {
                case .none: extras.append(index)
                case .some(.success(let image)): photo = image
                case .some(.failure(let problem)):
                    // A photo the card cannot hold costs the photo, not the card: its line is
                    // kept, and a later PHOTO may still be the picture.
                    unused.append((index, problem.message, true))
                    extras.append(index)
                }
                continue
            }
            guard let position = FieldRule.position(of: property) else {
                extras.append(index)
                continue
            }
            let rule = FieldRule.mapping[position]
            guard let values = rule.read(property) else {
                extras.append(index)
                continue
            }
            if rule.property.hasPrefix("X-CARDWALLET-") { carriesWalletFields = true }
            if rule.choice == .every {
                if case .list(let list) = values.value { facts += list.map { (index: index, fact: $0) } }
            } else {
                candidates[position].append((index, values))
            }
        }

        // Fun facts: the first ones the card holds (clipped), the rest kept as lines.
        var clippedFacts: [Int] = []
        for (number, entry) in facts.enumerated() {
            guard number < CardLimits.funFactsMaxCount else {
                extras.append(entry.index)
                continue
            }
            let fact = FieldClip.text(entry.fact, to: CardField.funFacts.maxLength)
            fields.funFacts.append(fact)
            if fact != entry.fact {
                clippedFacts.append(entry.index)
                clips.append(
                    Clip(
                        line: properties[entry.index].line, property: WalletProperty.funFacts, field: .funFacts,
                        original: .funFacts,
                        detail: "is \(entry.fact.count) characters, more than the \(CardField.funFacts.maxLength)"))
            }
        }
        if facts.count > CardLimits.funFactsMaxCount {
            let other = facts.count - CardLimits.funFactsMaxCount
            warnings.append(
                VCardProblem(
                    line: properties[facts[CardLimits.funFactsMaxCount].index].line,
                    "\(WalletProperty.funFacts) (tmi): a card holds \(CardLimits.funFactsMaxCount) fun facts; the other \(other) \(other == 1 ? "is" : "are") kept for export only"
                ))
        }

        // The chosen property of each rule fills its fields (clipped to fit); the others are kept.
        var chosen: [(rule: FieldRule, index: Int)] = []
        var withoutControls = Set<Int>()
        for (position, rule) in FieldRule.mapping.enumerated() where rule.choice != .every {
            var list = candidates[position]
            guard !list.isEmpty else { continue }
            if rule.choice == .preferred, list.count > 1 {
                // Stable: the first among equally preferred ones.
                let preferences = list.map { properties[$0.index].preference }
                list = list.indices.sorted { a, b in
                    preferences[a] != preferences[b] ? preferences[a] < preferences[b] : a < b
                }.map { list[$0] }
            }
            // A value with a format (an email, a phone number…) over its field's length cannot be
            // clipped: the next one is used, and it is kept as a line.
            var pick: (index: Int, values: FieldValues)?
            for candidate in list {
                if pick == nil, let over = Self.overlongFormatted(candidate.values) {
                    warnings.append(
                        VCardProblem(
                            line: properties[candidate.index].line,
                            "\(rule.property) (\(over.field.key)) is \(over.length) characters, more than the \(over.field.maxLength) the field holds: kept for export only"
                        ))
                    extras.append(candidate.index)
                } else if pick == nil {
                    pick = candidate
                } else {
                    extras.append(candidate.index)
                }
            }
            guard let pick else { continue }
            var fitting = pick.values.clipped
            if fitting != pick.values {
                clips += Self.clips(of: pick.values, line: properties[pick.index].line, property: rule.property)
            }
            if let cleaned = fitting.withoutControlCharacters {
                // A damaged value costs its control characters, not the card (a CardDAV server
                // cannot hold them; the card API's would show them escaped). Its line is not kept.
                fitting = cleaned
                withoutControls.insert(pick.index)
                warnings.append(
                    VCardProblem(
                        line: properties[pick.index].line,
                        "\(rule.property) (\(rule.fields[0].key)): control characters left out"))
            }
            fitting.apply(to: &fields)
            chosen.append((rule, pick.index))
        }

        if fields.name.isEmpty, let nameIndex {
            let name = NameParts.name(from: properties[nameIndex].components)
            fields.name = FieldClip.text(name, to: CardLimits.nameMaxLength)
            if fields.name != name {
                clips.append(
                    Clip(
                        line: properties[nameIndex].line, property: "N", field: .name, original: .name,
                        detail: "spells a name of \(name.count) characters, more than the \(CardLimits.nameMaxLength)"))
            }
        }
        var kept: [Kept] = []
        var keptN: Int?
        if fields.name.isEmpty {
            guard let (name, source) = DerivedName.name(for: fields) else {
                // Left without a name by lines the reader could not read: the first of them is
                // the reason.
                if let first = vcard.dropped.first { return .failure(first) }
                return .failure(
                    VCardProblem(
                        line: vcard.beginLine,
                        "the card has no name (no FN, no N), nor an organisation, email or phone number to name it by"))
            }
            fields.name = name
            kept.append(Kept(line: vcard.beginLine, text: DerivedName.marker(for: name), role: .derivedName))
            warnings.append(
                VCardProblem(
                    line: vcard.beginLine,
                    "the card has no name (no FN, no N): it is named “\(name)” after \(source.phrase)"))
            // An empty FN or N says nothing the writer's empty FN will not say again.
            extras.removeAll { properties[$0].key == "FN" && properties[$0].text.trimmingVCardWhitespace.isEmpty }
        } else if let nameIndex,
            !Self.isCanonical(
                properties[nameIndex], NameParts.derivedLine(for: fields.name),
                value: Self.escapedValue(properties[nameIndex], vcard.version))
        {
            // N says more than the name (a title, the family name of a one-word name…): kept,
            // with the name it goes with, so an export after a rename does not bring the old N back.
            keptN = nameIndex
            extras.append(nameIndex)
        }

        // The chosen properties the writer would not reproduce exactly ("shadows") first, in
        // table order, marked with the field they stand for; then the rest in file order. The
        // writer emits them in the same order, so an export read back gives the same list.
        for (rule, index) in chosen where !withoutControls.contains(index) {
            let property = properties[index]
            let value = Self.escapedValue(property, vcard.version)
            if let canonical = rule.write(fields, vcard.version), Self.isCanonical(property, canonical, value: value) {
                continue
            }
            let marker = VCardParameter(name: WalletProperty.fieldParameter, values: [rule.fields[0].key])
            kept.append(
                Kept(
                    line: property.line,
                    text: ContentLine.render(property, marker: marker, withoutMarkers: false, value: value),
                    role: .original(rule.fields[0])))
        }
        for index in clippedFacts {
            let marker = VCardParameter(name: WalletProperty.fieldParameter, values: [CardField.funFacts.key])
            kept.append(
                Kept(
                    line: properties[index].line,
                    text: ContentLine.render(
                        properties[index], marker: marker, withoutMarkers: false,
                        value: Self.escapedValue(properties[index], vcard.version)),
                    role: .original(.funFacts)))
        }
        for index in extras.sorted() {
            if index == keptN {
                let marker = VCardParameter(name: WalletProperty.nameParameter, values: [fields.name])
                kept.append(
                    Kept(
                        line: properties[index].line,
                        text: ContentLine.render(
                            properties[index], marker: marker, withoutMarkers: false,
                            value: Self.escapedValue(properties[index], vcard.version)),
                        role: .original(.name)))
            } else {
                kept.append(
                    Kept(line: properties[index].line, text: ContentLine.render(properties[index]), role: .extra))
            }
        }

        let (fitted, leftOut) = Self.fit(kept, clipped: clips, warnings: &warnings)
        fields.vcardProperties = fitted.map(\.text)
        for (index, problem, isKept) in unused {
            let line = properties[index].line
            let lost = !isKept || leftOut.contains { $0.role == .extra && $0.line == line }
            warnings.append(
                VCardProblem(
                    line: line,
                    problem + ": the card comes in without it"
                        + (lost ? "" : "; its line is kept as it was, for export")))
        }
        for clip in clips {
            let lost = leftOut.contains { $0.role == .original(clip.original) && $0.line == clip.line }
            warnings.append(Self.warning(for: clip, keptWhole: !lost))
        }
        warnings.sort { $0.line < $1.line }
        // Where a field came from, asked only when it has a problem.
        let source: (CardField) -> (line: Int, property: String)? = { field in
            if let pick = chosen.last(where: { $0.rule.fields.contains(field) }) {
                return (properties[pick.index].line, pick.rule.property)
            }
            if field == .name, let nameIndex { return (properties[nameIndex].line, "N") }
            guard let rule = FieldRule.mapping.first(where: { $0.fields.contains(field) }),
                let last = properties.last(where: { $0.isNamed(rule.property) })
            else { return nil }
            return (last.line, rule.property)
        }
        if let problem = Self.problem(in: fields, source: source, card: vcard) {
            return .failure(problem)
        }
        return .success(
            ImportedCard(
                fields: fields, photo: photo, uid: uid, carriesWalletFields: carriesWalletFields, line: vcard.beginLine,
                warnings: warnings))
    }
}
