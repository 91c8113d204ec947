/// What an edit does to a resource's lines: lines rewritten, removed, inserted before a line,
/// added before `END:VCARD`. Every other line is copied as it was.
struct EditPlan {
    /// New unfolded text for a line.
    private(set) var replacements: [Int: String] = [:]
    private(set) var removals: Set<Int> = []
    private(set) var insertions: [Int: [String]] = [:]
    private(set) var appended: [String] = []

    var isEmpty: Bool { replacements.isEmpty && removals.isEmpty && insertions.isEmpty && appended.isEmpty }

    /// Line `position` with a new value, its header kept less the parameters describing the old
    /// value (``RawHeader/describingValue``) and those in `dropping`.
    mutating func rewrite(_ position: Int, value: String, in resource: VCardResource, dropping: Set<String> = []) {
        let header = resource.header(of: position)
        replace(position, with: header.text(dropping: RawHeader.describingValue.union(dropping)) + ":" + value)
    }

    mutating func replace(_ position: Int, with text: String) {
        removals.remove(position)
        replacements[position] = text
    }

    mutating func remove(_ position: Int) {
        replacements[position] = nil
        removals.insert(position)
    }

    mutating func insert(_ texts: [String], before position: Int) {
        insertions[position, default: []] += texts
    }

    mutating func append(_ text: String) { appended.append(text) }

    /// Once a removed line's group holds only `X-` lines (`item1.X-ABLabel`, `item1.X-ABADR`),
    /// those label nothing any more: they go too.
    mutating func removeOrphanedLabels(in resource: VCardResource) {
        let groups = resource.index.groups
        let removedGroups = Set(removals.compactMap { groups[$0] })
        for group in removedGroups {
            let members = groups.indices.filter { groups[$0] == group && !removals.contains($0) }
            let onlyLabels = members.allSatisfy { member in
                replacements[member] == nil && resource.index.keys[member]?.hasPrefix("X-") == true
            }
            if onlyLabels { removals.formUnion(members) }
        }
    }

    /// The new text: untouched lines as they were (each physical line ended with CR LF),
    /// rewritten and added lines folded at 75 octets.
    func apply(to resource: VCardResource) -> [UInt8] {
        let bytes = resource.bytes
        var out: [UInt8] = []
        out.reserveCapacity(bytes.count + appended.reduce(0) { $0 + $1.utf8.count + 8 })
        func copy(_ line: ResourceLine) {
            for range in line.physical {
                out.append(contentsOf: bytes[range])
                out.append(13)
                out.append(10)
            }
        }
        copy(resource.layout.begin)
        for (position, line) in resource.layout.lines.enumerated() {
            for text in insertions[position] ?? [] { LineFolding.append(text, to: &out) }
            if removals.contains(position) { continue }
            if let text = replacements[position] {
                LineFolding.append(text, to: &out)
            } else {
                copy(line)
            }
        }
        for text in appended { LineFolding.append(text, to: &out) }
        copy(resource.layout.end)
        return out
    }
}
