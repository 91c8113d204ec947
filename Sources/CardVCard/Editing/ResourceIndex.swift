import CardModels

/// Where the card's fields come from in a resource: which line fills each field (its "slot"),
/// and the lines an edit needs to find again (N, REV, the photos, blank lines it may reuse).
///
/// Built by reading every line with the reader's own parser and choosing among lines of the
/// same property with the mapping table (``FieldRule/mapping``), as the importer does: the
/// preferred (`PREF=1`, `TYPE=pref`) or else the first usable EMAIL, TEL and ADR; the first
/// usable line of the others.
struct ResourceIndex: Sendable, Hashable {
    /// Per line: its property name, upper-cased, without its group; `nil` for a blank line or
    /// one that is not a property.
    var keys: [String?] = []
    /// Per line: its group, lower-cased (groups compare without case).
    var groups: [String?] = []
    /// The line that fills each rule's fields, by the rule's property name.
    var slots: [String: Int] = [:]
    /// The lines of a rule that takes every usable line (fun facts), in order.
    var every: [String: [Int]] = [:]
    /// The first line of each property name whose value is empty (`ORG:`), which an edit fills
    /// in rather than adding a second line.
    var blanks: [String: Int] = [:]
    /// The first line of each property name.
    var first: [String: Int] = [:]
    /// Every `PHOTO` line; the first is the picture.
    var photos: [Int] = []

    /// What a card says, read from its layout.
    struct Reading {
        var index = ResourceIndex()
        var fields = CardFields(name: "")
        var version = VCardVersion.v30
        var picture: VCardPicture?
        var uid: String?
        var group: VCardGroup?
        var problems: [VCardProblem] = []
    }

    /// Reads every line of `layout`.
    static func read(_ layout: ResourceLayout, in bytes: [UInt8]) -> Reading {
        var reading = Reading()
        var version: VCardVersion?
        for line in layout.lines where !line.pieces.isEmpty {
            if let value = ResourceLayout.versionValue(line.unfolded(in: bytes)[...]) {
                version = VCardVersion(versionValue: String(decoding: value, as: UTF8.self))
                break
            }
        }
        reading.version = version ?? .v30
        let parser = ContentLineParser(converter: CharsetConverter())
        var candidates: [String: [Candidate]] = [:]
        var names: [String] = []
        var kind: VCardGroup.Style?
        var members: [String] = []
        var index = ResourceIndex()
        index.keys = Array(repeating: nil, count: layout.lines.count)
        index.groups = index.keys
        for (position, line) in layout.lines.enumerated() where !line.pieces.isEmpty {
            let property: VCardProperty
            switch parser.parse(line.unfolded(in: bytes), line: line.number, version: reading.version) {
            case .failure(let problem):
                reading.problems.append(problem)
                continue
            case .success(let parsed):
                property = parsed
            }
            let key = property.key
            index.keys[position] = key
            index.groups[position] = property.group?.lowercased()
            if index.first[key] == nil { index.first[key] = position }
            // Empty: nothing but separators (`ORG:;`, `ADR:;;;;;;`) and whitespace.
            if property.binary == nil, index.blanks[key] == nil,
                property.value.utf8.allSatisfy({ $0 == 0x3B || $0 == 0x2C || $0 == 32 || $0 == 9 })
            {
                index.blanks[key] = position
            }
            switch key {
            case "UID" where reading.uid == nil && property.group == nil:
                reading.uid = property.text.trimmingVCardWhitespace
            case "N" where names.isEmpty:
                names = property.components
            case "PHOTO":
                if index.photos.isEmpty { reading.picture = Self.picture(in: property) }
                index.photos.append(position)
            case "KIND" where kind == nil:
                if property.text.trimmingVCardWhitespace.lowercased() == "group" { kind = .kind }
            case "X-ADDRESSBOOKSERVER-KIND" where kind == nil:
                if property.text.trimmingVCardWhitespace.lowercased() == "group" { kind = .addressBookServer }
            case "MEMBER", "X-ADDRESSBOOKSERVER-MEMBER":
                let member = VCardGroup.bareUID(property.text)
                if !member.isEmpty { members.append(member) }
            default:
                guard let rule = FieldRule.byProperty[key], let values = rule.read(property) else { continue }
                candidates[key, default: []].append(
                    Candidate(line: position, values: values, preference: property.preference))
            }
        }

        var fields = CardFields(name: "")
        for rule in FieldRule.mapping {
            guard let list = candidates[rule.property], !list.isEmpty else { continue }
            switch rule.choice {
            case .every:
                for candidate in list {
                    if case .list(let values) = candidate.values.value {
                        fields.set(
                            .list(fields.values(of: candidate.values.field) + values), of: candidate.values.field)
                    }
                }
                index.every[rule.property] = list.map(\.line)
            case .preferred:
                // `min` keeps the first of equals: the first line among the most preferred.
                let pick = list.min { $0.preference < $1.preference }!
                pick.values.apply(to: &fields)
                index.slots[rule.property] = pick.line
            case .first:
                list[0].values.apply(to: &fields)
                index.slots[rule.property] = list[0].line
            }
        }
        if fields.name.isEmpty {
            // N, else what phones show for a card without a name: its company, its first email
            // address or phone number.
            let structured = NameParts.name(from: names)
            fields.name =
                !structured.isEmpty
                ? structured
                : fields.company ?? Self.firstValue(candidates["EMAIL"]) ?? Self.firstValue(candidates["TEL"]) ?? ""
        }
        if let kind {
            reading.group = VCardGroup(name: fields.name, memberUIDs: members, style: kind)
        }
        reading.fields = fields
        reading.index = index
        return reading
    }

    /// A usable line of a rule: where it is, what it says, how strongly it is preferred.
    private struct Candidate {
        var line: Int
        var values: FieldValues
        var preference: Int
    }

    /// The first usable value of a rule's lines.
    private static func firstValue(_ list: [Candidate]?) -> String? {
        guard case .text(let text)? = list?.first?.values.value else { return nil }
        return text
    }

    /// The picture a `PHOTO` line holds, or `nil` when its value is empty.
    static func picture(in property: VCardProperty) -> VCardPicture? {
        var bytes = property.binary
        var mediaType = property.values(of: "MEDIATYPE").first ?? property.values(of: "TYPE").first
        if bytes == nil {
            let value = property.text.trimmingVCardWhitespace
            if value.isEmpty { return nil }
            guard value.prefix(5).lowercased() == "data:" else { return .uri(value) }
            let header = value.prefix { $0 != "," }
            let type = header.dropFirst(5).prefix { $0 != ";" }
            mediaType = type.isEmpty ? nil : String(type)
            guard header.count < value.count, header.lowercased().hasSuffix(";base64") else {
                return .unsupported(mediaType: mediaType)
            }
            bytes = TransferEncoding.base64Decode(value.dropFirst(header.count + 1).utf8)
        }
        guard let bytes, let format = CardImageFormat(sniffing: bytes) else {
            return .unsupported(mediaType: mediaType)
        }
        return .image(VCardPhoto(bytes: bytes, format: format))
    }
}
