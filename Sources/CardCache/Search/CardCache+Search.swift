public import CardModels
import GRDB

/// One card a search found.
public struct CardSearchHit: Sendable, Equatable, Hashable {
    /// The card's id.
    public var cardID: String
    /// The first field (in ``SearchText/fields`` order) that matched: the interface shows it
    /// when it is not one of its columns.
    public var field: CardField

    /// A hit.
    public init(cardID: String, field: CardField) {
        self.cardID = cardID
        self.field = field
    }
}

/// What a search found.
public struct CardSearchResult: Sendable, Equatable {
    /// The first matches, in wallet order.
    public var hits: [CardSearchHit]
    /// How many cards match in all.
    public var total: Int

    /// A result.
    public init(hits: [CardSearchHit], total: Int) {
        self.hits = hits
        self.total = total
    }

    /// Nothing found.
    public static let empty = CardSearchResult(hits: [], total: 0)
}

extension CardCache {
    /// The cards whose fields match `text`, in wallet order (docs/Cache.md, *Search*).
    ///
    /// Every field is searched — name, company, department, title, email, phone, website,
    /// address, bio, TMI and tags — ignoring case, width and the accents of Latin, Greek and
    /// Cyrillic letters (`zoe` finds `Zoë`). From the third character on, the text matches
    /// anywhere in a field, in every script (`데이터` finds `서울데이터랩`, `lace` finds
    /// `Lovelace`); a phone number matches by its digits (`555 0100` and `5550100` find
    /// `+1 (555) 010-0`…). The first two keystrokes match the start of words, and any one or
    /// two characters of scripts written without spaces (`민준` finds `김민준`). Cards known
    /// only from the list are searched on their summary (name, company, title, email).
    ///
    /// - Parameters:
    ///   - text: what was typed. Empty text (or only spaces and punctuation) finds nothing:
    ///     show the whole list instead.
    ///   - fields: only these fields (the mail-address lookup uses name, company, title and
    ///     email); `nil` for every field.
    ///   - limit: the most hits to return (the `total` counts them all); `nil` for every hit.
    public func search(_ text: String, in fields: [CardField]? = nil, limit: Int? = 200) throws(CacheError)
        -> CardSearchResult
    {
        guard let query = SearchQuery(text) else { return .empty }
        let searched = fields.map { wanted in SearchText.fields.filter(wanted.contains) } ?? SearchText.fields
        guard !searched.isEmpty else { return .empty }
        let expression = query.expression(columns: fields == nil ? nil : searched.map(\.rawValue))
        let table = query.kind == .substring ? "cardSearch" : "cardWords"
        // Two steps, so that the sort carries three integers per match rather than eleven
        // texts: every match's place in the wallet (also the total), then the indexed texts of
        // the first `limit` only, for the "which field matched" check.
        let matches = "SELECT rowid FROM \(table) WHERE \(table) MATCH ?"
        let texts =
            "SELECT card.id, " + SearchIndex.columns.map { "cardSearch.\($0)" }.joined(separator: ", ")
            + " FROM cardSearch JOIN card ON card.key = cardSearch.rowid WHERE cardSearch.rowid = ?"
        return try read { db in
            let positions = try positions(db)
            var found: [(position: Int32, key: Int64)] = []
            let rows = try Int64.fetchCursor(db, sql: matches, arguments: [expression])
            while let key = try rows.next() {
                // A match the order does not know yet (another process added it a moment ago)
                // goes last; the next keystroke reads the order again.
                let position = key < positions.count ? positions[Int(key)] : -1
                found.append((position < 0 ? Int32.max : position, key))
            }
            let total = found.count
            found.sort { $0.position < $1.position }
            if let limit, limit < found.count { found.removeLast(found.count - max(0, limit)) }
            var hits: [CardSearchHit] = []
            hits.reserveCapacity(found.count)
            let statement = try db.cachedStatement(sql: texts)
            for match in found {
                guard let row = try Row.fetchOne(statement, arguments: [match.key]) else { continue }
                let field = zip(SearchText.fields.indices, SearchText.fields).first { index, field in
                    searched.contains(field) && query.matches(row[index + 1] as String? ?? "", field: field)
                }?.1
                // The index and the check agree by construction; a card the check cannot place
                // is still a hit, reported on its name.
                hits.append(CardSearchHit(cardID: row[0], field: field ?? .name))
            }
            return CardSearchResult(hits: hits, total: total)
        }
    }
}
