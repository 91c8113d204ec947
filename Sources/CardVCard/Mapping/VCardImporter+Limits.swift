import CardModels

extension VCardImporter {
    /// The field and length of a value with a format (email, phone, web address, date) over its
    /// field's length: such a value is kept as a line, never clipped.
    static func overlongFormatted(_ values: FieldValues) -> (field: CardField, length: Int)? {
        // No array of the two: this runs for every candidate of every card.
        func over(_ field: CardField?, _ value: FieldValues.Value?) -> (field: CardField, length: Int)? {
            guard let field, let value, !FieldClip.clips(field), case .text(let text?) = value,
                let length = FieldClip.overLimit(text, field.maxLength)
            else { return nil }
            return (field, length)
        }
        return over(values.field, values.value) ?? over(values.secondField, values.secondValue)
    }

    /// One ``Clip`` for each field of `values` that ``FieldValues/clipped`` changes.
    static func clips(of values: FieldValues, line: Int, property: String) -> [Clip] {
        var clips: [Clip] = []
        for (field, value) in [(values.field, values.value), (values.secondField, values.secondValue)] {
            guard let field, let value, FieldClip.value(value, of: field) != value else { continue }
            let detail: String
            switch value {
            case .text(let text):
                detail =
                    "is \(text.map { SimpleText.count($0) ?? $0.count } ?? 0) characters, more than the \(field.maxLength)"
            case .list(let list):
                if let most = FieldClip.maximumCount(field), list.count > most {
                    detail = "holds \(list.count) entries, more than the \(most)"
                } else {
                    let longest = list.map(\.count).max() ?? 0
                    detail = "has an entry of \(longest) characters, more than the \(field.maxLength)"
                }
            }
            clips.append(Clip(line: line, property: property, field: field, original: values.field, detail: detail))
        }
        return clips
    }

    /// The warning for a clipped field.
    static func warning(for clip: Clip, keptWhole: Bool) -> VCardProblem {
        let outcome =
            keptWhole
            ? "clipped, and kept whole for export"
            : "clipped; the whole \(clip.property) is too long for the card to keep, the rest is left out"
        return VCardProblem(
            line: clip.line, "\(clip.property) (\(clip.field.key)) \(clip.detail) the field holds: \(outcome)")
    }

    /// The kept lines within the limits of the card (``CardModels/CardLimits``): a line over the
    /// longest a kept line may be is left out, then the last lines past the most a card keeps,
    /// then the longest lines until the whole fits. The marker of a derived name is never left
    /// out. Each line left out is a warning, except the originals of the `clipped` fields,
    /// whose clip warnings say it.
    ///
    /// - Returns: the lines kept, in order, and those left out.
    static func fit(_ kept: [Kept], clipped: [Clip], warnings: inout [VCardProblem]) -> (
        kept: [Kept], leftOut: [Kept]
    ) {
        let longest = CardLimits.vcardPropertyMaxLength
        // The common case, answered from the bytes: a line of at most N bytes has at most N
        // characters.
        if kept.count <= CardLimits.vcardPropertiesMaxCount,
            kept.allSatisfy({ $0.text.utf8.count <= longest }),
            kept.reduce(0, { $0 + $1.text.utf8.count }) <= CardLimits.vcardPropertiesMaxTotalLength
        {
            return (kept, [])
        }
        var fitted: [Kept] = []
        var leftOut: [Kept] = []
        func said(_ entry: Kept) -> Bool {
            guard case .original = entry.role else { return false }
            return clipped.contains { $0.line == entry.line && entry.role == .original($0.original) }
        }
        for entry in kept {
            guard let length = FieldClip.overLimit(entry.text, longest), entry.role != .derivedName else {
                fitted.append(entry)
                continue
            }
            leftOut.append(entry)
            if !said(entry) {
                warnings.append(
                    VCardProblem(
                        line: entry.line,
                        "\(name(of: entry)) is \(length) characters, more than the \(longest) a kept vCard property may have: left out"
                    ))
            }
        }
        let most = CardLimits.vcardPropertiesMaxCount
        if fitted.count > most {
            let cut = Array(fitted[most...])
            fitted.removeLast(fitted.count - most)
            leftOut += cut
            let first = cut.map(\.line).min() ?? 0
            warnings.append(
                VCardProblem(
                    line: first,
                    "the card has \(most + cut.count) properties the wallet keeps as they are, more than \(most): the last \(cut.count) (from line \(first)) are left out"
                ))
        }
        let total = CardLimits.vcardPropertiesMaxTotalLength
        // Bytes first: a total of at most `total` bytes is at most `total` characters.
        if fitted.reduce(0, { $0 + $1.text.utf8.count }) > total {
            var lengths = fitted.map(\.text.count)
            var sum = lengths.reduce(0, +)
            while sum > total {
                let candidates = fitted.indices.filter { fitted[$0].role != .derivedName }
                guard let largest = candidates.max(by: { lengths[$0] < lengths[$1] }) else { break }
                let entry = fitted.remove(at: largest)
                sum -= lengths.remove(at: largest)
                leftOut.append(entry)
                if !said(entry) {
                    warnings.append(
                        VCardProblem(
                            line: entry.line,
                            "\(name(of: entry)) (\(entry.text.count) characters) is left out: a card's kept vCard properties may hold \(total) characters in all"
                        ))
                }
            }
        }
        return (fitted, leftOut)
    }

    /// The name of a kept line, for a message: `item1.EMAIL`.
    private static func name(of entry: Kept) -> String {
        String(entry.text.prefix { $0 != ";" && $0 != ":" }.prefix(60))
    }
}
