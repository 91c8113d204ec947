public import CardModels
public import Foundation

extension VCardResource {
    /// A vCard for a new card: `VERSION`, `PRODID`, `FN`, `N`, the fields in the mapping
    /// table's order, the `UID` given, the picture, `REV`.
    ///
    /// vCard 3.0 by default: RFC 6352 §5.1.1 makes 3.0 the one version every CardDAV server
    /// supports (4.0 is optional, and iCloud stores 3.0 only), and the group conventions
    /// Nextcloud and iCloud use (`X-ADDRESSBOOKSERVER-…`) are 3.0's. Written by ``VCardWriter``,
    /// so a card made here and a card exported are the same text; lines the wallet kept from an
    /// imported vCard (`fields.vcardProperties`) come along; a `UID` among them is written as
    /// it was when it is the `uid` given (a card that arrived with a UID of its own keeps it
    /// byte for byte), and left out otherwise.
    ///
    /// - Parameters:
    ///   - uid: the card's `UID`, which the caller also uses for the resource's name when it
    ///     is a safe one (``newUID()`` makes one; ``keptUID(of:)`` is the card's own).
    ///   - fields: the card.
    ///   - photo: its picture.
    ///   - version: `.v30` or `.v40` (2.1 is written as 3.0).
    ///   - revision: written as `REV` when given.
    /// - Throws: ``VCardResourceError/invalidUID`` for an empty `UID` or one with control
    ///   characters, ``VCardResourceError/invalidField(_:_:)`` as ``edited(fields:picture:revision:)``.
    public static func new(
        uid: String, fields: CardFields, photo: VCardPhoto? = nil, version: VCardVersion = .v30,
        revision: Date? = nil
    ) throws(VCardResourceError) -> VCardResource {
        let uid = uid.trimmingVCardWhitespace
        guard !uid.isEmpty, !uid.unicodeScalars.contains(where: { $0.value < 32 || $0.value == 127 }) else {
            throw .invalidUID
        }
        var wanted = wanted(fields)
        for field in CardField.allCases { try check(field, in: wanted) }
        // The card's own UID line, as it was written, when it is the UID asked for.
        let ownLine = keptUIDLine(of: fields).flatMap { $0.value == uid ? $0.line : nil }
        // Unfolded content lines only: a line break or NUL would smuggle in a line of its own.
        func isSafe(_ line: String) -> Bool { !line.utf8.contains(where: { $0 == 0 || $0 == 10 || $0 == 13 }) }
        wanted.vcardProperties =
            fields.vcardProperties.filter { line in
                let kept = KeptLine(line)
                return isSafe(line) && !(kept.key == "UID" && !kept.grouped)
                    && !["VERSION", "PRODID", "REV", "BEGIN", "END"].contains(kept.key)
            } + [ownLine.flatMap { isSafe($0) ? $0 : nil } ?? "UID:" + VCardText.escape(uid)]
        let date = revision ?? Date(timeIntervalSince1970: 0)
        let card = Card(id: "", fields: wanted, createdAt: date, updatedAt: date)
        var out: [UInt8] = []
        for line in VCardWriter(version: version).lines(for: card, photo: photo)
        where revision != nil || !line.text.hasPrefix("REV:") {
            LineFolding.append(line.text, to: &out)
        }
        var result = try VCardResource(bytes: out)
        if let website = wanted.website, let line = result.index.slots["URL"], escapedURL(website) != website {
            // The writer's URL as this layer writes it (see `escapedURL`).
            var plan = EditPlan()
            plan.rewrite(line, value: escapedURL(website), in: result)
            result = try VCardResource(bytes: plan.apply(to: result))
        }
        // A value an import clipped to its field is written whole (its original kept line): it
        // reads back whole, which the clipped value is the start of.
        try verify(result, wanted: result.keepingWholeValues(of: wanted))
        guard result.keepingWholeValues(of: wanted).name == result.fields.name else {
            throw .invalidField(.name, "cannot be written so that it reads back the same")
        }
        return result
    }

    /// `fields` with each value that is this card's value as an import clips it to its field
    /// (a long note cut at 500 characters and `…`, the first 10 tags) replaced by the card's
    /// whole value: what the card says, not a change. A vCard keeps values whole, whatever
    /// their length; the import that clipped them kept the whole line, which wrote them.
    public func keepingWholeValues(of fields: CardFields) -> CardFields {
        var result = fields
        for field in CardField.allCases where FieldClip.clips(field) {
            let mine = self.fields.value(of: field)
            let theirs = fields.value(of: field)
            if mine != theirs, FieldClip.value(mine, of: field) == theirs { result.set(mine, of: field) }
        }
        return result
    }
}
