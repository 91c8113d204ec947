import CardModels

/// Two cards of one input that are the same card (``ImportPlanner``): what the second adds to
/// the first, so that the input makes one card and loses nothing.
///
/// The first card's values stay. A value only the second has fills the first's empty field
/// (with its original form); a value the second has differently is kept as a vCard property of
/// the card, as a second email in one vCard is; fun facts are joined; kept lines the first does
/// not have are added; a photo fills a card without one. So the merge of a card with itself, or
/// with a card that says less, is the first card unchanged.
enum CardMerge {
    /// `first` with what `later` says that it does not; equal to `first` when `later` adds
    /// nothing. What the merged card cannot keep (past the limits of kept lines) is a warning.
    static func merge(_ first: ImportedCard, _ later: ImportedCard, warnings: inout [VCardProblem]) -> ImportedCard {
        var fields = first.fields
        let laterKept = later.fields.vcardProperties.map(KeptLine.init)
        let laterIsNamed = !laterKept.contains { $0.key == WalletProperty.derivedName }
        var added: [String] = []
        func original(of rule: FieldRule) -> KeptLine? {
            laterKept.first {
                $0.key == rule.property && $0.marker(WalletProperty.fieldParameter) == rule.fields[0].key
            }
        }
        for rule in FieldRule.mapping where rule.choice != .every {
            let mine = rule.values(in: first.fields)
            let theirs = rule.values(in: later.fields)
            guard !theirs.isEmpty, mine != theirs else { continue }
            if rule.property == "FN", !laterIsNamed { continue }
            // The name and email the two were matched on, in another case or width, say the same.
            if rule.property == "FN" || rule.property == "EMAIL", case .text(let one?) = mine.value,
                case .text(let other?) = theirs.value, ImportPlanner.fold(one) == ImportPlanner.fold(other)
            {
                continue
            }
            if mine.isEmpty {
                theirs.apply(to: &fields)
                if let line = original(of: rule) { added.append(line.text) }
            } else if let line = original(of: rule)?.property.map(unmarked) ?? rule.write(later.fields, .v30) {
                added.append(line)
            }
        }
        for fact in later.fields.funFacts where !fields.funFacts.contains(fact) {
            if fields.funFacts.count < CardLimits.funFactsMaxCount {
                fields.funFacts.append(fact)
            } else {
                added.append(WalletProperty.funFacts + ":" + VCardText.escape(fact))
            }
        }
        let mineKept = Set(first.fields.vcardProperties)
        let firstHasUID = first.fields.vcardProperties.contains { KeptLine($0).key == "UID" }
        for line in laterKept where !mineKept.contains(line.text) {
            // Originals of fields were handled above; our markers and N belong to their card's name.
            if line.marker(WalletProperty.fieldParameter) != nil || line.key == WalletProperty.derivedName { continue }
            if line.key == "N", line.marker(WalletProperty.nameParameter) != nil {
                let firstHasN = first.fields.vcardProperties.contains { KeptLine($0).key == "N" }
                if firstHasN || line.marker(WalletProperty.nameParameter) != fields.name { continue }
            }
            if line.key == "UID", firstHasUID { continue }
            added.append(line.text)
        }
        var merged = first
        if !added.isEmpty {
            let kept =
                fields.vcardProperties.map { VCardImporter.Kept(line: first.line, text: $0, role: .extra) }
                + added.filter { !mineKept.contains($0) }.map {
                    VCardImporter.Kept(line: later.line, text: $0, role: .extra)
                }
            fields.vcardProperties = VCardImporter.fit(kept, clipped: [], warnings: &warnings).kept.map(\.text)
        }
        merged.fields = fields
        if merged.photo == nil { merged.photo = later.photo }
        if merged.uid == nil { merged.uid = later.uid }
        merged.carriesWalletFields = first.carriesWalletFields || later.carriesWalletFields
        return merged
    }

    /// Whether the two cards give a field two different values — for two cards of one name and
    /// no email, the sign of two people (two Johns with two phone numbers), not one card twice.
    static func conflict(_ a: CardFields, _ b: CardFields) -> Bool {
        FieldRule.mapping.contains { rule in
            guard rule.choice != .every, rule.property != "FN" else { return false }
            let (one, other) = (rule.values(in: a), rule.values(in: b))
            return !one.isEmpty && !other.isEmpty && one != other
        }
    }

    /// A kept line without CardWallet's markers.
    private static func unmarked(_ property: VCardProperty) -> String {
        var property = property
        property.parameters.removeAll { WalletProperty.markers.contains($0.name) }
        return ContentLine.render(property)
    }
}
