public import CardModels
import Foundation
import GRDB
import GRDBSQLite

/// One card a search found.
public struct CardSearchHit: Sendable, Equatable, Hashable {
    /// The card's id.
    public var cardID: String
    /// The first field (in ``SearchText/fields`` order) that matched: the interface shows it
    /// when it is not one of its columns.
    public var field: CardField
    /// The part of that field that matched, when asked for (`excerpts: true`): its line or
    /// list item holding the match, as the card writes it (`+82 10-1234-5678`, `Bernoulli`),
    /// from a little before the match when long, at most 60 characters. Untrusted text.
    public var excerpt: String?

    /// A hit.
    public init(cardID: String, field: CardField, excerpt: String? = nil) {
        self.cardID = cardID
        self.field = field
        self.excerpt = excerpt
    }
}

/// What a search found.
public struct CardSearchResult: Sendable, Equatable {
    /// The first matches, in wallet order.
    public var hits: [CardSearchHit]
    /// How many cards match in all.
    public var total: Int
    /// Every matching card's id in wallet order, past the `limit` too, when asked for
    /// (`allIDs: true`); empty otherwise.
    public var allIDs: [String]

    /// A result.
    public init(hits: [CardSearchHit], total: Int, allIDs: [String] = []) {
        self.hits = hits
        self.total = total
        self.allIDs = allIDs
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
    ///   - limit: the most hits to return, each with the field that matched (the `total`
    ///     counts them all); `nil` for every hit.
    ///   - allIDs: also return every match's id in wallet order (``CardSearchResult/allIDs``),
    ///     as an interface filtering its own list needs; ids cost far less than hits.
    ///   - excerpts: give each hit the ``CardSearchHit/excerpt`` of its field, for a list that
    ///     does not show that field.
    public func search(
        _ text: String, in fields: [CardField]? = nil, limit: Int? = 200, allIDs: Bool = false,
        excerpts: Bool = false
    ) throws(CacheError) -> CardSearchResult {
        guard let query = SearchQuery(text) else { return .empty }
        try indexBacklog()
        let searched = fields.map { wanted in SearchText.fields.filter(wanted.contains) } ?? SearchText.fields
        guard !searched.isEmpty else { return .empty }
        let expression = query.expression(columns: fields == nil ? nil : searched.map(\.rawValue))
        let table = query.kind == .substring ? "cardSearch" : "cardWords"
        let offsets = query.spacedOffsets
        // Matching rowids only (the order and the ids are in memory); a long substring's rows
        // are checked by `cardwallet_spaced` (SpacedTrigrams.swift).
        let matches =
            offsets.isEmpty
            ? "SELECT rowid FROM \(table) WHERE \(table) MATCH ?"
            : "SELECT rowid, \(SpacedTrigrams.name)(cardSearch, "
                + offsets.map { _ in "?" }.joined(separator: ", ") + ") FROM cardSearch WHERE cardSearch MATCH ?"
        return try read { db in
            let order = try walletOrder(db)
            let statement = try db.cachedStatement(sql: matches)
            try statement.setArguments(StatementArguments(offsets + [expression] as [any DatabaseValueConvertible]))
            let keys = try Self.matchingKeys(statement, checked: !offsets.isEmpty)
            let ordered = Self.inWalletOrder(keys, order.positions)
            let first = limit.map { ordered.prefix(max(0, $0)) } ?? ordered[...]
            return CardSearchResult(
                hits: try hits(first, order, query, searched, excerpts: excerpts, db), total: ordered.count,
                allIDs: allIDs ? Self.ids(of: ordered, order.ids) : [])
        }
    }

    /// The card ids of the row `keys`, in their order.
    private static func ids(of keys: [Int64], _ ids: [String]) -> [String] {
        ids.withUnsafeBufferPointer { ids in
            keys.map { key in key >= 0 && key < ids.count ? ids[Int(key)] : "" }
        }
    }

    /// The rowids `statement` answers, stepped through SQLite directly (tens of thousands of
    /// rows per keystroke: no row objects); with `checked`, only those whose second column (the
    /// spaced-trigram check) is not -1.
    private static func matchingKeys(_ statement: Statement, checked: Bool) throws -> [Int64] {
        var keys: [Int64] = []
        try RawRows.step(statement) { raw in
            if checked && sqlite3_column_int(raw, 1) < 0 { return }
            keys.append(sqlite3_column_int64(raw, 0))
        }
        return keys
    }

    /// `keys` in wallet order: placed by their position in one pass (no sort); a match the
    /// order does not know yet (another process added it a moment ago) goes last, and the
    /// next keystroke reads the order again.
    static func inWalletOrder(_ keys: [Int64], _ positions: [Int32]) -> [Int64] {
        var ordered: [Int64] = []
        ordered.reserveCapacity(keys.count)
        var unknown: [Int64] = []
        let placed = positions.withUnsafeBufferPointer { positions -> Bool in
            // Slot per place in the wallet: the matching key there, or -1.
            var slots = [Int32](repeating: -1, count: positions.count)
            let fits = slots.withUnsafeMutableBufferPointer { slots -> Bool in
                for key in keys {
                    let position = key >= 0 && key < positions.count ? Int(positions[Int(key)]) : -1
                    if position < 0 {
                        unknown.append(key)
                    } else if position < slots.count && slots[position] < 0 {
                        slots[position] = Int32(truncatingIfNeeded: key)
                    } else {
                        return false
                    }
                }
                return true
            }
            guard fits else { return false }
            for key in slots where key >= 0 { ordered.append(Int64(key)) }
            return true
        }
        guard placed else {
            // Positions beyond the number of rows, or shared: sort instead.
            let known = keys.filter { $0 >= 0 && $0 < positions.count && positions[Int($0)] >= 0 }
            return known.sorted { (positions[Int($0)], $0) < (positions[Int($1)], $1) }
                + keys.filter { !($0 >= 0 && $0 < positions.count && positions[Int($0)] >= 0) }
        }
        ordered.append(contentsOf: unknown)
        return ordered
    }

    /// The hits for `keys`, each with the first field that matched (and its excerpt): their
    /// indexed texts read and checked (a few hundred at most per keystroke), and for an excerpt
    /// the card's own text of the field (``originalText(of:key:_:)``).
    private func hits(
        _ keys: ArraySlice<Int64>, _ order: WalletOrder, _ query: SearchQuery, _ searched: [CardField],
        excerpts: Bool, _ db: Database
    ) throws -> [CardSearchHit] {
        let texts = "SELECT " + SearchIndex.columns.joined(separator: ", ") + " FROM cardSearch WHERE rowid = ?"
        // Stepped directly, each column made a String only when checked (most hits match in
        // their first few fields).
        let raw = try db.cachedStatement(sql: texts).sqliteStatement
        defer { sqlite3_reset(raw) }
        var hits: [CardSearchHit] = []
        hits.reserveCapacity(keys.count)
        for key in keys where Int(key) < order.ids.count {
            sqlite3_reset(raw)
            sqlite3_bind_int64(raw, 1, key)
            guard sqlite3_step(raw) == SQLITE_ROW else { continue }
            var found: (text: String, field: CardField)?
            for (index, field) in SearchText.fields.enumerated() where searched.contains(field) {
                let text = sqlite3_column_text(raw, Int32(index)).map { String(cString: $0) } ?? ""
                if query.matches(text, field: field) {
                    found = (text, field)
                    break
                }
            }
            // The index and the check agree by construction; a card the check cannot place
            // is still a hit, reported on its name.
            let field = found?.field ?? .name
            var excerpt: String?
            if excerpts, let found {
                // The card's own text of the field, cut where the folded text matched; the folded
                // text itself if the card's cannot be read.
                excerpt =
                    try Self.originalText(of: field, key: key, db).flatMap {
                        SearchExcerpt.cut(original: $0, indexed: found.text, around: query, field: field)
                    } ?? SearchExcerpt.cut(found.text, around: query, field: field)
            } else if excerpts {
                excerpt = ""
            }
            hits.append(CardSearchHit(cardID: order.ids[Int(key)], field: field, excerpt: excerpt))
        }
        return hits
    }

    /// The text card row `key` holds for `field`, as the card has it (list items joined by line
    /// breaks), or `nil`: the summary's column for name, title, company and email (the index
    /// reads them there too), else only that value of the whole card's JSON, taken out by
    /// SQLite's `json_extract` (a few microseconds; decoding the whole card costs far more, and
    /// this runs for up to a screenful of hits per keystroke). Malformed JSON gives `nil`.
    private static func originalText(of field: CardField, key: Int64, _ db: Database) throws -> String? {
        let column = field.rawValue
        let value =
            [.name, .title, .company, .email].contains(field) ? column : "json_extract(detail, '$.fields.\(column)')"
        let raw = try db.cachedStatement(sql: "SELECT \(value) FROM card WHERE key = ?").sqliteStatement
        defer { sqlite3_reset(raw) }
        sqlite3_reset(raw)
        sqlite3_bind_int64(raw, 1, key)
        guard sqlite3_step(raw) == SQLITE_ROW, let text = sqlite3_column_text(raw, 0) else { return nil }
        let string = String(cString: text)
        guard field.kind.list != nil else { return string }
        // A list comes out as its JSON array.
        return (try? JSONDecoder().decode([String].self, from: Data(string.utf8)))?.joined(separator: "\n")
    }
}
