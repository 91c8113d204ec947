import CardModels
import Foundation

/// Every card and each user's wallet order. A pure value; ownership is checked on every read
/// and write, and another user's card is indistinguishable from a missing one.
///
/// Both tables record what each change touched (``TrackedTable``): the server persists
/// exactly those cards, and puts them back when persisting fails. The wallet order is kept on
/// disk as each card's ``StoredCard/position``; the `order` lists are its in-memory index.
struct CardBook: Sendable, Equatable {
    private(set) var cards = TrackedTable<String, StoredCard>()
    /// Each user's wallet, in order, by user id.
    private(set) var order = TrackedTable<String, [String]>()

    /// Why a card operation failed.
    enum Failure: Error, Sendable, Equatable {
        /// No such card, or not the caller's: E05.
        case notFound
        /// `If-Match` named another version: E07.
        case versionConflict(current: Int)
        /// The new order is not a permutation of the wallet: E01 with this problem.
        case badOrder(String)
    }

    /// What changes touched since the last ``takeChanges()``.
    struct Changes: Sendable {
        var cards: [String: RowChange<StoredCard>] = [:]
        var orders: [String: RowChange<[String]>] = [:]
    }

    /// An empty book.
    init() {}

    /// A book of `stored` cards, each wallet ordered by position (then id, for equal ones).
    init(cards stored: [StoredCard]) {
        var rows: [String: StoredCard] = [:]
        var wallets: [String: [StoredCard]] = [:]
        for card in stored {
            rows[card.card.id] = card
            wallets[card.ownerID, default: []].append(card)
        }
        cards = TrackedTable(rows)
        order = TrackedTable(
            wallets.mapValues { wallet in
                wallet.sorted { ($0.position, $0.card.id) < ($1.position, $1.card.id) }.map(\.card.id)
            })
    }

    /// The caller's card, or `nil` when it is missing or someone else's.
    func card(_ id: String, ownerID: String) -> StoredCard? {
        guard let stored = cards[id], stored.ownerID == ownerID else { return nil }
        return stored
    }

    /// A page of the caller's wallet, in order, filtered by `query` when it is not empty.
    func page(ownerID: String, offset: Int, limit: Int, query: String) -> APICardPage {
        let ids = order[ownerID] ?? []
        let matcher = CardSearch(query: query)
        let matching = ids.compactMap { cards[$0]?.card }.filter { matcher.matches($0.fields) }
        let start = min(offset, matching.count)
        let end = min(start + limit, matching.count)
        return APICardPage(
            cards: matching[start..<end].map(\.summary), total: matching.count, offset: offset, limit: limit)
    }

    /// Adds a card at the end of its owner's wallet (its position is set here).
    mutating func insert(_ stored: StoredCard) {
        var stored = stored
        var wallet = order[stored.ownerID] ?? []
        stored.position = wallet.last.flatMap { cards[$0]?.position }.map { $0 + 1 } ?? 0
        cards[stored.card.id] = stored
        wallet.append(stored.card.id)
        order[stored.ownerID] = wallet
    }

    /// Replaces a card's fields when `precondition` allows its current version.
    /// Unchanged fields leave the card, its version and `updatedAt` as they are.
    mutating func update(
        _ id: String, ownerID: String, fields: CardFields, precondition: VersionPrecondition, now: Date
    ) -> Result<APICard, Failure> {
        guard var stored = card(id, ownerID: ownerID) else { return .failure(.notFound) }
        guard precondition.allows(stored.card.version) else {
            return .failure(.versionConflict(current: stored.card.version))
        }
        guard stored.card.fields != fields else { return .success(stored.card) }
        stored.card.fields = fields
        stored.card.version += 1
        stored.card.updatedAt = max(now, stored.card.updatedAt)
        cards[id] = stored
        return .success(stored.card)
    }

    /// Replaces a card's image (or removes it, with `nil`) when `precondition` allows its
    /// current version. The same bytes again, or no image for a card without one, leave the
    /// card, its version and `updatedAt` as they are.
    mutating func setImage(
        _ id: String, ownerID: String, image: SeedImage?, precondition: VersionPrecondition, now: Date
    ) -> Result<APICard, Failure> {
        guard var stored = card(id, ownerID: ownerID) else { return .failure(.notFound) }
        guard precondition.allows(stored.card.version) else {
            return .failure(.versionConflict(current: stored.card.version))
        }
        guard stored.image != image else { return .success(stored.card) }
        stored.image = image
        stored.card.hasImage = image != nil
        stored.card.image = image.map { CardImageInfo(contentType: $0.contentType, size: $0.data.count) }
        stored.card.version += 1
        stored.card.updatedAt = max(now, stored.card.updatedAt)
        cards[id] = stored
        return .success(stored.card)
    }

    /// Deletes a card when `precondition` allows its current version.
    /// - Returns: the deleted card.
    mutating func delete(_ id: String, ownerID: String, precondition: VersionPrecondition) -> Result<APICard, Failure> {
        guard let stored = card(id, ownerID: ownerID) else { return .failure(.notFound) }
        guard precondition.allows(stored.card.version) else {
            return .failure(.versionConflict(current: stored.card.version))
        }
        cards[id] = nil
        let remaining = (order[ownerID] ?? []).filter { $0 != id }
        order[ownerID] = remaining.isEmpty ? nil : remaining
        return .success(stored.card)
    }

    /// Sets the wallet order. `newOrder` must list every card of the wallet exactly once:
    /// missing, repeated or unknown ids (someone else's included) are refused, never dropped.
    mutating func reorder(ownerID: String, to newOrder: [String]) -> Result<[String], Failure> {
        let current = order[ownerID] ?? []
        let currentSet = Set(current)
        var seen = Set<String>()
        var repeated: [String] = []
        var unknown: [String] = []
        for id in newOrder {
            if !seen.insert(id).inserted {
                repeated.append(id)
            } else if !currentSet.contains(id) {
                unknown.append(id)
            }
        }
        let missing = current.filter { !seen.contains($0) }
        var problems: [String] = []
        if !unknown.isEmpty { problems.append("names cards that are not in your wallet: \(Self.list(unknown))") }
        if !repeated.isEmpty { problems.append("lists cards more than once: \(Self.list(repeated))") }
        if !missing.isEmpty { problems.append("leaves out cards of your wallet: \(Self.list(missing))") }
        guard problems.isEmpty else { return .failure(.badOrder(problems.joined(separator: "; "))) }
        order[ownerID] = newOrder
        // Positions follow the new order; cards whose position is unchanged are not rewritten.
        for (position, id) in newOrder.enumerated() where cards[id]?.position != position {
            cards[id]?.position = position
        }
        return .success(newOrder)
    }

    /// A user's wallet order.
    func walletOrder(ownerID: String) -> [String] { order[ownerID] ?? [] }

    /// What changed since the last call, forgetting it.
    mutating func takeChanges() -> Changes {
        Changes(cards: cards.takeChanges(), orders: order.takeChanges())
    }

    /// Puts back what `changes` replaced.
    mutating func revert(_ changes: Changes) {
        cards.revert(changes.cards)
        order.revert(changes.orders)
    }

    /// Puts back everything changed since the last ``takeChanges()``.
    mutating func discardChanges() {
        cards.discardChanges()
        order.discardChanges()
    }

    private static func list(_ ids: [String]) -> String {
        // Ids are echoed only when well formed; anything else is summarised.
        let shown = ids.prefix(5).map { CardIdentifier.isWellFormed($0) ? $0 : "(malformed id)" }
        return shown.joined(separator: ", ") + (ids.count > 5 ? " and \(ids.count - 5) more" : "")
    }
}

extension CardBook: Codable {
    enum CodingKeys: String, CodingKey {
        case cards, order
    }

    /// Decodes the `cards` object of a JSON data file. Files written before positions existed
    /// have only the `order` lists: positions are taken from them.
    init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        var rows = try c.decode([String: StoredCard].self, forKey: .cards)
        let wallets = try c.decode([String: [String]].self, forKey: .order)
        for (_, wallet) in wallets {
            for (position, id) in wallet.enumerated() { rows[id]?.position = position }
        }
        cards = TrackedTable(rows)
        order = TrackedTable(wallets)
    }

    /// Encodes the book as the JSON data file holds it.
    func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(cards, forKey: .cards)
        try c.encode(order, forKey: .order)
    }
}

/// What an `If-Match` header asks for: any version (`*` or no header where that is allowed), or
/// one of a list of strong entity tags. Weak tags (`W/"3"`) never match, as RFC 9110 says.
enum VersionPrecondition: Sendable, Equatable {
    case any
    case versions(Set<Int>)

    func allows(_ version: Int) -> Bool {
        switch self {
        case .any: true
        case .versions(let versions): versions.contains(version)
        }
    }

    /// Parses `*`, `"3"` or `"3", W/"4"`; `nil` when the value holds no entity tag at all.
    init?(ifMatch value: String) {
        let trimmed = value.trimmingCharacters(in: .whitespaces)
        if trimmed == "*" {
            self = .any
            return
        }
        var versions = Set<Int>()
        var sawTag = false
        for item in trimmed.split(separator: ",") {
            let tag = item.trimmingCharacters(in: .whitespaces)
            if tag.hasPrefix("W/\""), tag.hasSuffix("\""), tag.count >= 4 {
                sawTag = true
            } else if tag.hasPrefix("\""), tag.hasSuffix("\""), tag.count >= 2 {
                sawTag = true
                if let version = Int(tag.dropFirst().dropLast()) { versions.insert(version) }
            }
        }
        guard sawTag else { return nil }
        self = .versions(versions)
    }
}

/// Case- and width-insensitive search over name, company, title and email.
struct CardSearch: Sendable {
    private let needle: String

    init(query: String) {
        needle = Self.fold(query.trimmingCharacters(in: .whitespacesAndNewlines))
    }

    func matches(_ fields: CardFields) -> Bool {
        guard !needle.isEmpty else { return true }
        for text in [fields.name, fields.company, fields.title, fields.email] {
            if let text, Self.fold(text).contains(needle) { return true }
        }
        return false
    }

    /// Folds case and width: `ＫＩＭ`, `kim` and `Kim` all become `kim`.
    static func fold(_ text: String) -> String {
        text.folding(options: [.caseInsensitive, .widthInsensitive], locale: nil)
    }
}
