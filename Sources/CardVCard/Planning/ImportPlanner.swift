public import CardModels
import Foundation

/// Decides what an import does, as a pure function of the cards read and the wallet's cards.
///
/// First the input itself: a card that is another card of the input again — the same `UID`,
/// or, when one of them has none, the same name and email (trimmed, case- and width-folded;
/// two cards of one name and no email that give a field two values are two people) — makes no
/// card of its own: what it adds is merged into the first (``CardMerge``), and it is reported
/// as a ``ImportPlan/Duplicate``, merged or unchanged. The same across the files of a folder.
///
/// Then each card read is matched with a card of the wallet by `UID` when it has one (the
/// wallet card's UID is the one kept from its own import, else the one its vCard holds on a
/// CardDAV server, else the one the writer derives from its id); otherwise, or when no wallet card has that UID, by name and email (folded the same
/// way) among wallet cards that do not carry a different UID of their own. Each wallet card
/// matches at most one card read, in order, so twins of the wallet stay twins.
public enum ImportPlanner {
    /// The wallet cards whose image must be fetched to tell whether an incoming photo changes
    /// it (same format and size: only the bytes can tell).
    public static func imagesToCompare(_ incoming: [SourcedCard], existing: [Card]) -> [String] {
        let incoming = deduplicated(incoming).cards
        let plan = matches(incoming, existing: existing)
        var ids: [String] = []
        for (index, match) in plan.enumerated() {
            guard case .matched(let existingIndex) = match, let photo = incoming[index].card.photo else { continue }
            let card = existing[existingIndex]
            // A card whose vCard the wallet holds (CardDAV) has its picture in it: nothing to fetch.
            guard card.source == nil else { continue }
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
    ///   - warnings: what the inputs held outside their cards, carried into the plan's report.
    public static func plan(
        _ incoming: [SourcedCard], problems: [SourcedProblem] = [], existing: [Card], images: [String: [UInt8]] = [:],
        warnings: [SourcedProblem] = []
    ) -> ImportPlan {
        let (incoming, duplicates) = deduplicated(incoming)
        var entries: [ImportPlan.Entry] = []
        for (index, match) in matches(incoming, existing: existing).enumerated() {
            let sourced = incoming[index]
            let action: ImportPlan.Action
            switch match {
            case .new:
                action = .create(sourced.card)
            case .matched(let existingIndex):
                action = decide(sourced.card, against: existing[existingIndex], images: images)
            }
            entries.append(
                ImportPlan.Entry(
                    file: sourced.file, line: sourced.card.line, name: sourced.card.fields.name, action: action,
                    warnings: sourced.card.warnings))
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
        return ImportPlan(entries: sorted, duplicates: duplicates, warnings: warnings)
    }

    /// The cards of the input with each duplicate merged into the first card it repeats, and
    /// the duplicates, in input order.
    static func deduplicated(_ incoming: [SourcedCard]) -> (cards: [SourcedCard], duplicates: [ImportPlan.Duplicate]) {
        var cards: [SourcedCard] = []
        var duplicates: [ImportPlan.Duplicate] = []
        var byUID: [String: Int] = [:]
        var byKey: [String: [Int]] = [:]
        for sourced in incoming {
            let card = sourced.card
            let uid = card.uid.flatMap { $0.isEmpty ? nil : $0 }
            let key = Self.key(card.fields)
            var target = uid.flatMap { byUID[$0] }
            if target == nil {
                target = byKey[key]?.first { index in
                    let other = cards[index].card
                    if let uid, let theirs = other.uid, !theirs.isEmpty, theirs != uid { return false }
                    // Of one name and no email, two cards that disagree are two people.
                    if (card.fields.email ?? "").isEmpty, CardMerge.conflict(other.fields, card.fields) { return false }
                    return true
                }
            }
            guard let target else {
                if let uid { byUID[uid] = cards.count }
                byKey[key, default: []].append(cards.count)
                cards.append(sourced)
                continue
            }
            var warnings = card.warnings
            let first = cards[target].card
            let merged = CardMerge.merge(first, card, warnings: &warnings)
            cards[target].card = merged
            if let uid, byUID[uid] == nil { byUID[uid] = target }
            let mergedKey = Self.key(merged.fields)
            if byKey[mergedKey]?.contains(target) != true { byKey[mergedKey, default: []].append(target) }
            duplicates.append(
                ImportPlan.Duplicate(
                    file: sourced.file, line: card.line, name: card.fields.name, firstFile: cards[target].file,
                    firstLine: first.line, merged: merged != first, warnings: warnings))
        }
        return (cards, duplicates)
    }

    private static func decide(_ card: ImportedCard, against existing: Card, images: [String: [UInt8]])
        -> ImportPlan.Action
    {
        var fields = card.fields
        // vCard cannot carry fun facts and avatars unless CardWallet wrote it: keep the wallet's.
        if !card.carriesWalletFields {
            fields.funFacts = existing.fields.funFacts
            fields.defaultImage = existing.fields.defaultImage
        }
        if let source = existing.source, let resource = try? VCardResource(text: source) {
            return decide(fields, photo: card.photo, against: existing, stored: resource)
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

    /// The decision for a card whose vCard the server keeps (CardDAV: ``CardModels/Card/source``),
    /// which an update edits in place (``VCardResource/edited(fields:picture:revision:)``): the
    /// fields change when that edit would change the vCard, the photo when the vCard's picture
    /// is not the same bytes. The lines an import keeps are the stored vCard's own business
    /// there (an edit never rewrites them), so they are not compared; nothing is fetched.
    private static func decide(_ fields: CardFields, photo: VCardPhoto?, against existing: Card, stored: VCardResource)
        -> ImportPlan.Action
    {
        // An edit the vCard cannot take (a 2.1 card, a value it cannot hold) is a change: the
        // update says why it fails.
        // A value the import clipped to its field is the stored card's whole value, not a change.
        let fields = stored.keepingWholeValues(of: fields)
        let fieldsChange = (try? stored.edited(fields: fields)).map { $0 != stored } ?? true
        let photoChange = photo.map { stored.picture != VCardPicture.image($0) } ?? false
        guard fieldsChange || photoChange else { return .unchanged(cardID: existing.id) }
        return .update(
            cardID: existing.id, revision: existing.revision, fields: fieldsChange ? fields : nil,
            photo: photoChange ? photo : nil)
    }

    /// The `UID` a wallet card is matched by: the one kept from its import, else the one its
    /// vCard holds (a CardDAV card, made here or elsewhere), else the one the writer derives
    /// from its id (`cardwallet-<id>`).
    static func uid(of card: Card) -> String {
        if VCardResource.keptUID(of: card.fields) == nil, let source = card.source,
            let uid = VCardResource.uid(inText: source)
        {
            return uid
        }
        return VCardWriter.uid(of: card)
    }

    private enum Match {
        case new
        case matched(Int)
    }

    private static func matches(_ incoming: [SourcedCard], existing: [Card]) -> [Match] {
        var byUID: [String: [Int]] = [:]
        var byNameAndEmail: [String: [Int]] = [:]
        var explicitUID: [Bool] = []
        for (index, card) in existing.enumerated() {
            let uid = uid(of: card)
            byUID[uid, default: []].append(index)
            // A CardDAV card keeps a long name whole; the import clips it to the field.
            var fields = card.fields
            fields.name = FieldClip.text(fields.name, to: CardField.name.maxLength)
            byNameAndEmail[key(fields), default: []].append(index)
            explicitUID.append(!uid.hasPrefix(WalletProperty.uidPrefix))
        }
        var taken = Set<Int>()
        var result: [Match] = []
        for sourced in incoming {
            let card = sourced.card
            let uid = card.uid.flatMap { $0.isEmpty ? nil : $0 }
            if let uid {
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

    /// Name and email, trimmed, case- and width-folded (`ＡＤＡ` is `ada`, `Straße` is
    /// `strasse`), as people see them the same.
    static func key(_ fields: CardFields) -> String {
        fold(fields.name) + "\u{0}" + fold(fields.email ?? "")
    }

    /// `text` trimmed, case- and width-folded.
    static func fold(_ text: String) -> String {
        let trimmed = text.trimmingVCardWhitespace
        if trimmed.utf8.allSatisfy({ $0 < 0x80 }) { return trimmed.lowercased() }
        return trimmed.folding(options: [.caseInsensitive, .widthInsensitive], locale: nil)
    }
}
