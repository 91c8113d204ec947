public import CardModels

extension VCardResource {
    /// The properties of the card that no field of the wallet reads, as unfolded content lines
    /// in their order: a second email or phone, `X-` properties, grouped `itemN.` lines, a
    /// birthday without a year, an `IMPP`… What a merge keeps of the card it deletes. Its identity
    /// (`VERSION`, `PRODID`, `REV`, `UID`, `N`, `FN`, `KIND`) and its pictures are left out, and
    /// so are the lines the fields are read from.
    public var unmodelledLines: [String] {
        var read = Set(index.slots.values)
        for lines in index.every.values { read.formUnion(lines) }
        let identity: Set<String> = [
            "VERSION", "PRODID", "REV", "UID", "N", "FN", "KIND", "X-ADDRESSBOOKSERVER-KIND", "PHOTO",
        ]
        var lines: [String] = []
        for (position, line) in layout.lines.enumerated() {
            guard let key = index.keys[position], !read.contains(position), !identity.contains(key) else { continue }
            lines.append(String(decoding: line.unfolded(in: bytes), as: UTF8.self))
        }
        return lines
    }

    /// The card with `lines` (unfolded content lines) added before `END:VCARD`, folded as the
    /// card's other lines; a line holding a line break or a NUL is left out (it would smuggle in
    /// a line of its own). Every other line stays byte for byte.
    ///
    /// - Throws: ``VCardResourceError/readOnly(_:)`` for a 2.1 card.
    public func adding(_ lines: [String]) throws(VCardResourceError) -> VCardResource {
        let safe = lines.filter { !$0.utf8.contains { $0 == 0 || $0 == 10 || $0 == 13 } }
        guard !safe.isEmpty else { return self }
        guard version != .v21 else { throw .readOnly(version) }
        var plan = EditPlan()
        for line in safe { plan.append(line) }
        return try VCardResource(bytes: plan.apply(to: self))
    }
}

/// The import's rule for "the same card" (``ImportPlanner``), for cards already in the wallet:
/// the same `UID` (one the card was given, not one derived from its id), else the same name and
/// email (folded as people read them the same) — and the same phone number, by its digits.
public enum DuplicateRule {
    /// Why two cards are likely one.
    public enum Reason: String, Sendable, Hashable, Codable, CaseIterable {
        case uid = "same UID"
        case nameAndEmail = "same name and email"
        case phone = "same phone number"
    }

    /// A group of likely duplicates: indices into the cards given, and why.
    public struct Group: Sendable, Equatable {
        /// The cards, in the order given.
        public var members: [Int]
        /// Why they were put together.
        public var reasons: [Reason]
    }

    /// The fewest digits a phone number must have to match another (shorter ones, an extension
    /// or a short code, say too little).
    public static let minimumPhoneDigits = 6

    /// The groups of two or more of `cards` that are likely the same card, each in the order of
    /// `cards`, groups in the order of their first card. Two cards of one name and no email that
    /// give one field two values (two Johns with two numbers) are two people, as the import says.
    public static func groups(_ cards: [Card]) -> [Group] {
        var parent = Array(cards.indices)
        func root(_ index: Int) -> Int {
            var index = index
            while parent[index] != index {
                parent[index] = parent[parent[index]]
                index = parent[index]
            }
            return index
        }
        var reasons: [Int: Set<Reason>] = [:]
        func join(_ a: Int, _ b: Int, _ reason: Reason) {
            let (ra, rb) = (root(a), root(b))
            let merged = (reasons[ra] ?? []).union(reasons[rb] ?? []).union([reason])
            if ra != rb { parent[rb] = ra }
            reasons[rb] = nil
            reasons[ra] = merged
        }
        var seen: [Reason: [String: Int]] = [:]
        for (index, card) in cards.enumerated() {
            for (reason, key) in keys(of: card) {
                if let first = seen[reason]?[key] {
                    if reason == .nameAndEmail, card.fields.email?.isEmpty ?? true,
                        CardMerge.conflict(cards[first].fields, card.fields)
                    {
                        continue
                    }
                    join(first, index, reason)
                } else {
                    seen[reason, default: [:]][key] = index
                }
            }
        }
        var byRoot: [Int: [Int]] = [:]
        for index in cards.indices { byRoot[root(index), default: []].append(index) }
        return byRoot.values.filter { $0.count > 1 }.sorted { $0[0] < $1[0] }.map { members in
            Group(
                members: members,
                reasons: Reason.allCases.filter { (reasons[root(members[0])] ?? []).contains($0) })
        }
    }

    /// The keys a card is matched by.
    static func keys(of card: Card) -> [(Reason, String)] {
        var keys: [(Reason, String)] = []
        let uid = ImportPlanner.uid(of: card)
        if !uid.hasPrefix(WalletProperty.uidPrefix) { keys.append((.uid, VCardGroup.bareUID(uid))) }
        keys.append((.nameAndEmail, ImportPlanner.key(card.fields)))
        let digits = String(
            (card.fields.phone ?? "").unicodeScalars.filter { ("0"..."9").contains($0) }.map(Character.init))
        if digits.count >= minimumPhoneDigits { keys.append((.phone, digits)) }
        return keys
    }
}
