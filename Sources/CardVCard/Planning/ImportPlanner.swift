public import CardModels

/// Decides what an import does, as a pure function of the cards read and the wallet's cards.
///
/// A card read is matched with a card of the wallet by `UID` when it has one (the wallet
/// card's UID is the one kept from its own import, else the one the writer derives from its
/// id); otherwise, or when no wallet card has that UID, by name and email, ignoring case, among
/// wallet cards that do not carry a different UID of their own. Each wallet card matches at
/// most one card read, in order, so twins stay twins. Two cards read with the same UID are one
/// card too many: the second is skipped.
public enum ImportPlanner {
    /// The wallet cards whose image must be fetched to tell whether an incoming photo changes
    /// it (same format and size: only the bytes can tell).
    public static func imagesToCompare(_ incoming: [SourcedCard], existing: [Card]) -> [String] {
        let plan = matches(incoming, existing: existing)
        var ids: [String] = []
        for (index, match) in plan.enumerated() {
            guard case .matched(let existingIndex) = match, let photo = incoming[index].card.photo else { continue }
            let card = existing[existingIndex]
            if card.hasImage, card.image?.size == photo.bytes.count, card.image?.contentType == photo.format.contentType
            {
                ids.append(card.id)
            }
        }
        return ids
    }

    /// The plan.
    ///
    /// - Parameters:
    ///   - incoming: the cards read, in input order.
    ///   - problems: the cards that could not be read, with the position they take in the
    ///     order (entries are sorted by file, then line).
    ///   - existing: every card of the wallet, with its fields (kept lines included).
    ///   - images: the bytes of the images ``imagesToCompare(_:existing:)`` named.
    public static func plan(
        _ incoming: [SourcedCard], problems: [SourcedProblem] = [], existing: [Card], images: [String: [UInt8]] = [:]
    ) -> ImportPlan {
        var entries: [ImportPlan.Entry] = []
        for (index, match) in matches(incoming, existing: existing).enumerated() {
            let sourced = incoming[index]
            let action: ImportPlan.Action
            switch match {
            case .new:
                action = .create(sourced.card)
            case .duplicate(let first):
                action = .skip(
                    VCardProblem(
                        line: sourced.card.line,
                        "the card has the same UID as the card at \(first.file):\(first.card.line); it is skipped"))
            case .matched(let existingIndex):
                action = decide(sourced.card, against: existing[existingIndex], images: images)
            }
            entries.append(
                ImportPlan.Entry(
                    file: sourced.file, line: sourced.card.line, name: sourced.card.fields.name, action: action))
        }
        for problem in problems {
            entries.append(
                ImportPlan.Entry(
                    file: problem.file, line: problem.problem.line, name: nil, action: .skip(problem.problem)))
        }
        // Input order: files in the order they came, then lines.
        var fileOrder: [String: Int] = [:]
        for name in incoming.map(\.file) + problems.map(\.file) where fileOrder[name] == nil {
            fileOrder[name] = fileOrder.count
        }
        let sorted = entries.enumerated().sorted { a, b in
            let (fa, fb) = (fileOrder[a.element.file] ?? 0, fileOrder[b.element.file] ?? 0)
            if fa != fb { return fa < fb }
            if a.element.line != b.element.line { return a.element.line < b.element.line }
            return a.offset < b.offset
        }.map(\.element)
        return ImportPlan(entries: sorted)
    }

    private static func decide(_ card: ImportedCard, against existing: Card, images: [String: [UInt8]])
        -> ImportPlan.Action
    {
        var fields = card.fields
        // vCard cannot carry fun facts and avatars unless CardWallet wrote it: keep the wallet's.
        if !card.carriesWalletFields {
            fields.tmi = existing.fields.tmi
            fields.defaultImage = existing.fields.defaultImage
        }
        let fieldsChange = fields.normalized() != existing.fields.normalized()
        var photoChange = false
        if let photo = card.photo {
            if !existing.hasImage || existing.image?.size != photo.bytes.count
                || existing.image?.contentType != photo.format.contentType
            {
                photoChange = true
            } else {
                photoChange = images[existing.id] != photo.bytes
            }
        }
        guard fieldsChange || photoChange else { return .unchanged(cardID: existing.id) }
        return .update(
            cardID: existing.id, revision: existing.revision, fields: fieldsChange ? fields : nil,
            photo: photoChange ? card.photo : nil)
    }

    private enum Match {
        case new
        case matched(Int)
        case duplicate(SourcedCard)
    }

    private static func matches(_ incoming: [SourcedCard], existing: [Card]) -> [Match] {
        var byUID: [String: [Int]] = [:]
        var byNameAndEmail: [String: [Int]] = [:]
        var explicitUID: [Bool] = []
        for (index, card) in existing.enumerated() {
            let uid = VCardWriter.uid(of: card)
            byUID[uid, default: []].append(index)
            byNameAndEmail[key(card.fields), default: []].append(index)
            explicitUID.append(!uid.hasPrefix(WalletProperty.uidPrefix))
        }
        var taken = Set<Int>()
        var firstWithUID: [String: SourcedCard] = [:]
        var result: [Match] = []
        for sourced in incoming {
            let card = sourced.card
            let uid = card.uid.flatMap { $0.isEmpty ? nil : $0 }
            if let uid {
                if let first = firstWithUID[uid] {
                    result.append(.duplicate(first))
                    continue
                }
                firstWithUID[uid] = sourced
                if let index = byUID[uid]?.first(where: { !taken.contains($0) }) {
                    taken.insert(index)
                    result.append(.matched(index))
                    continue
                }
            }
            let explicit = uid.map { !$0.hasPrefix(WalletProperty.uidPrefix) } ?? false
            if let index = byNameAndEmail[key(card.fields)]?.first(where: {
                !taken.contains($0) && !(explicit && explicitUID[$0])
            }) {
                taken.insert(index)
                result.append(.matched(index))
            } else {
                result.append(.new)
            }
        }
        return result
    }

    /// Name and email, trimmed and lower-cased.
    private static func key(_ fields: CardFields) -> String {
        fields.name.trimmingVCardWhitespace.lowercased() + "\u{0}"
            + (fields.email ?? "").trimmingVCardWhitespace.lowercased()
    }
}
