public import CardModels
public import Foundation

extension VCardResource {
    /// The vCard with the wallet's edit applied, rewriting only what the edit changes.
    ///
    /// Each field is compared with ``fields``; for a field that changed, only the line it came
    /// from is touched:
    /// - a new value rewrites that line's value, keeping its group and parameters (`item1.EMAIL;
    ///   type=INTERNET;type=pref:`), less those that described the old value (`ENCODING`,
    ///   `CHARSET`, `VALUE`; an ADR's `LABEL`; an N's or ORG's `SORT-AS`); a field without a line
    ///   fills an empty line of its property (`ORG:`) or a year-less `BDAY`, else a new line is
    ///   added before `END:VCARD`;
    /// - an empty value removes that line (and what its group then only labels: `item1.X-ABLabel`);
    /// - a new name rewrites `FN` and `N` (an `N` is added in 3.0, which requires one; a group's
    ///   `N` is its name alone);
    /// - an `ORG` keeps its parts after the department.
    ///
    /// Every other line stays byte for byte as it was, in its place, folded as it was. Rewritten
    /// lines are folded at 75 octets; line ends are CR LF. Nothing changes (the same bytes come
    /// back) when no field and no picture differ, also for a 2.1 card.
    ///
    /// - Parameters:
    ///   - fields: the card as the wallet edited it (`vcardProperties` is not used).
    ///   - picture: what to do with the picture.
    ///   - revision: when given and something changed, written as `REV` (in place, or added).
    /// - Returns: the edited vCard, read again.
    /// - Throws: ``VCardResourceError/readOnly(_:)`` for a change to a 2.1 card,
    ///   ``VCardResourceError/invalidField(_:_:)`` for a value the vCard cannot hold as asked.
    public func edited(
        fields: CardFields, picture: VCardPictureEdit = .keep, revision: Date? = nil
    ) throws(VCardResourceError) -> VCardResource {
        let wanted = Self.wanted(fields)
        var plan = EditPlan()
        if wanted.name != self.fields.name {
            try Self.check(.name, in: wanted)
            planName(wanted.name, into: &plan)
        }
        for rule in FieldRule.mapping where rule.property != "FN" {
            let new = rule.values(in: wanted)
            guard new != rule.values(in: self.fields) else { continue }
            for field in rule.fields { try Self.check(field, in: wanted) }
            planRule(rule, wanted: wanted, into: &plan)
        }
        planPicture(picture, into: &plan)
        guard !plan.isEmpty else { return self }
        guard version != .v21 else { throw .readOnly(version) }
        if let revision {
            let stamp = VCardWriter.timestamp(revision, version: version)
            if let line = index.first["REV"], index.groups[line] == nil {
                plan.rewrite(line, value: stamp, in: self)
            } else {
                plan.append("REV:" + stamp)
            }
        }
        plan.removeOrphanedLabels(in: self)
        let result = try VCardResource(bytes: plan.apply(to: self))
        try Self.verify(result, wanted: wanted)
        if wanted.name != self.fields.name, result.fields.name != wanted.name {
            throw .invalidField(.name, "cannot be written so that it reads back the same")
        }
        return result
    }

    /// The fields as they are compared and written: trimmed, a bio's line breaks as `\n`.
    static func wanted(_ fields: CardFields) -> CardFields {
        var wanted = fields.normalized()
        wanted.vcardProperties = []
        if let bio = wanted.bio, bio.utf8.contains(13) {
            wanted.bio = bio.split(omittingEmptySubsequences: false) { $0 == "\r\n" || $0 == "\r" }
                .joined(separator: "\n")
        }
        return wanted
    }

    private func planName(_ name: String, into plan: inout EditPlan) {
        let formatted = VCardText.escape(name)
        if let line = index.slots["FN"] ?? index.blanks["FN"] {
            plan.rewrite(line, value: formatted, in: self)
        } else {
            plan.append("FN:" + formatted)
        }
        // A group's N is its name alone, as Apple's clients write it (`N:Friends`).
        let structured =
            group == nil ? String(NameParts.derivedLine(for: name).dropFirst(2)) : VCardText.escape(name)
        if let line = index.first["N"] {
            plan.rewrite(line, value: structured, in: self, dropping: ["SORT-AS"])
        } else if version == .v30 {
            // RFC 2426 requires an N in every 3.0 card.
            plan.append("N:" + structured)
        }
    }

    private func planRule(_ rule: FieldRule, wanted: CardFields, into plan: inout EditPlan) {
        if rule.choice == .every {
            // Fun facts are one line each: the old lines go, the new ones take the first's place.
            let lines = index.every[rule.property] ?? []
            let texts = wanted.values(of: rule.fields[0]).map { rule.property + ":" + VCardText.escape($0) }
            for line in lines { plan.remove(line) }
            if let first = lines.first {
                plan.insert(texts, before: first)
            } else {
                for text in texts { plan.append(text) }
            }
            return
        }
        let slot = index.slots[rule.property]
        guard var text = rule.write(wanted, version) else {
            if let slot { plan.remove(slot) }
            return
        }
        if rule.property == "ORG", let slot, let parts = property(at: slot)?.components, parts.count > 2 {
            // Units below the department (`ORG:Company;Department;Unit`) are kept.
            let head = [wanted.company ?? "", wanted.department ?? ""]
            text = "ORG:" + VCardText.join(head + parts[2...], separator: ";")
        }
        if rule.property == "URL", let website = wanted.website { text = "URL:" + Self.escapedURL(website) }
        let value = String(text[text.index(after: text.firstIndex(of: ":")!)...])
        let dropping: Set<String> = rule.property == "ADR" ? ["LABEL"] : rule.property == "ORG" ? ["SORT-AS"] : []
        // A birthday without a year is the card's one BDAY, which the full date replaces.
        let reused = index.blanks[rule.property] ?? (rule.property == "BDAY" ? index.first["BDAY"] : nil)
        if let line = slot ?? reused {
            plan.rewrite(line, value: value, in: self, dropping: dropping)
        } else {
            plan.append(text)
        }
    }

    private func planPicture(_ edit: VCardPictureEdit, into plan: inout EditPlan) {
        switch edit {
        case .keep:
            return
        case .remove:
            for line in index.photos { plan.remove(line) }
        case .replace(let photo):
            if picture == .image(photo) { return }
            let base64 = TransferEncoding.base64Encode(photo.bytes)
            let text =
                version == .v40
                ? "PHOTO:data:\(photo.format.contentType);base64,\(base64)"
                : "PHOTO;ENCODING=b;TYPE=\(photo.format == .png ? "PNG" : "JPEG"):\(base64)"
            if let line = index.photos.first {
                plan.replace(line, with: header(of: line).groupPrefix + text)
            } else {
                plan.append(text)
            }
        }
    }

    /// A web address as a URL value: `,` and `;` escaped. RFC 6350 does not escape URIs, but
    /// vobject (Radicale's parser, which re-serialises every card uploaded) reads URL as text and
    /// cuts it at its first unescaped comma; every reader that unescapes (ours, vobject, Apple's,
    /// Google's, which even escape colons) reads the escaped form back whole. A backslash, which
    /// would read differently, is refused before (``check(_:in:)``).
    static func escapedURL(_ website: String) -> String { VCardText.escape(website) }

    /// The parsed property on line `position`.
    func property(at position: Int) -> VCardProperty? {
        let line = layout.lines[position]
        let parser = ContentLineParser(converter: nil)
        return try? parser.parse(line.unfolded(in: bytes), line: line.number, version: version).get()
    }

    /// The header of line `position`, as written.
    func header(of position: Int) -> RawHeader { RawHeader(line: layout.lines[position].unfolded(in: bytes)) }

    /// The problem with `field`'s new value, thrown: what vCard cannot hold, or what would not
    /// read back as the same field. Lengths are not checked: that is the wallet's contract, not
    /// vCard's, and a card may already hold more.
    static func check(_ field: CardField, in fields: CardFields) throws(VCardResourceError) {
        for value in fields.values(of: field) {
            if value.unicodeScalars.contains(where: { ($0.value < 32 && $0 != "\t" && $0 != "\n") || $0.value == 127 })
            {
                throw .invalidField(field, "must not hold control characters")
            }
            if field != .bio, value.contains(where: \.isNewline) { throw .invalidField(field, "must be one line") }
        }
        switch field {
        case .name where fields.name.isEmpty:
            throw .invalidField(field, "is required")
        case .email where !(fields.email.map(CardFormat.isEmail) ?? true):
            throw .invalidField(field, "is not an email address")
        case .phone where !(fields.phone.map(CardFormat.isPhone) ?? true):
            throw .invalidField(field, "may hold only digits, spaces and + - ( ) .")
        case .website where !(fields.website.map { CardFormat.isWebURL($0) && !$0.contains("\\") } ?? true):
            throw .invalidField(field, "must be an http:// or https:// address")
        case .birthday where !(fields.birthday.map(CardFormat.isCalendarDate) ?? true):
            throw .invalidField(field, "must be a real date as YYYY-MM-DD")
        case .defaultImage where !CardLimits.defaultImageRange.contains(fields.defaultImage):
            throw .invalidField(field, "must be a number from 0 to \(CardLimits.defaultImageRange.upperBound)")
        default:
            return
        }
    }

    /// Every field given a value reads back as that value; a card that would show something
    /// else than was saved is never written.
    static func verify(_ result: VCardResource, wanted: CardFields) throws(VCardResourceError) {
        for field in CardField.allCases where !wanted.values(of: field).isEmpty && field != .name {
            if result.fields.values(of: field) != wanted.values(of: field) {
                throw .invalidField(field, "cannot be written so that it reads back the same")
            }
        }
    }
}
