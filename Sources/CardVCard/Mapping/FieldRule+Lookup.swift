extension FieldRule {
    /// The rules' positions in ``mapping`` by their property names' bytes, built once from the
    /// table: the importer finds a property's rule without making a string of its name.
    static let lookup = RuleLookup(names: mapping.map(\.property))

    /// The position in ``mapping`` of the rule for `property`, if there is one.
    static func position(of property: VCardProperty) -> Int? {
        switch property.storage {
        case .bytes(let view): view.withName { lookup.position(ofName: $0) }
        case .values(let values): position[values.key]
        }
    }
}

/// Names (upper-case ASCII) found by their bytes, ignoring ASCII case: grouped by length, then
/// compared byte by byte (a dozen names, so a hash would cost more than it saves).
struct RuleLookup: Sendable {
    private var byLength: [[(name: [UInt8], position: Int)]] = []

    init(names: [String]) {
        for (position, name) in names.enumerated() {
            let bytes = Array(name.utf8)
            while byLength.count <= bytes.count { byLength.append([]) }
            // The first rule of a name wins, as in the table's dictionary.
            if !byLength[bytes.count].contains(where: { $0.name == bytes }) {
                byLength[bytes.count].append((bytes, position))
            }
        }
    }

    func position(ofName name: UnsafeBufferPointer<UInt8>) -> Int? {
        guard name.count < byLength.count else { return nil }
        for entry in byLength[name.count] {
            var equal = true
            for offset in 0..<name.count {
                let byte = name[offset]
                if (byte >= 97 && byte <= 122 ? byte - 32 : byte) != entry.name[offset] {
                    equal = false
                    break
                }
            }
            if equal { return entry.position }
        }
        return nil
    }
}
