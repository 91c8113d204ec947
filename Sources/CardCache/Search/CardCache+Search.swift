public import CardModels
import GRDB
import GRDBSQLite

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
    public func search(
        _ text: String, in fields: [CardField]? = nil, limit: Int? = 200, allIDs: Bool = false
    ) throws(CacheError) -> CardSearchResult {
        guard let query = SearchQuery(text) else { return .empty }
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
                hits: try hits(first, order, query, searched, db), total: ordered.count,
                allIDs: allIDs ? ordered.map { Int($0) < order.ids.count ? order.ids[Int($0)] : "" } : [])
        }
    }

    /// The rowids `statement` answers, stepped through SQLite directly (tens of thousands of
    /// rows per keystroke: no row objects); with `checked`, only those whose second column (the
    /// spaced-trigram check) is not -1.
    private static func matchingKeys(_ statement: Statement, checked: Bool) throws -> [Int64] {
        let raw = statement.sqliteStatement
        defer { sqlite3_reset(raw) }
        var keys: [Int64] = []
        while true {
            let code = sqlite3_step(raw)
            if code == SQLITE_DONE { break }
            guard code == SQLITE_ROW else {
                throw DatabaseError(
                    resultCode: ResultCode(rawValue: code),
                    message: String(cString: sqlite3_errmsg(sqlite3_db_handle(raw))), sql: statement.sql)
            }
            if checked && sqlite3_column_int(raw, 1) < 0 { continue }
            keys.append(sqlite3_column_int64(raw, 0))
        }
        return keys
    }

    /// `keys` in wallet order: placed by their position in one pass (no sort); a match the
    /// order does not know yet (another process added it a moment ago) goes last, and the
    /// next keystroke reads the order again.
    static func inWalletOrder(_ keys: [Int64], _ positions: [Int32]) -> [Int64] {
        var slots = [Int64](repeating: -1, count: positions.count)
        var unknown: [Int64] = []
        for key in keys {
            let position = key >= 0 && key < positions.count ? Int(positions[Int(key)]) : -1
            guard position >= 0 else {
                unknown.append(key)
                continue
            }
            guard position < slots.count, slots[position] < 0 else {
                // Positions beyond the number of rows, or shared: sort instead.
                let known = keys.filter { $0 >= 0 && $0 < positions.count && positions[Int($0)] >= 0 }
                return known.sorted { (positions[Int($0)], $0) < (positions[Int($1)], $1) } + unknown
            }
            slots[position] = key
        }
        var ordered: [Int64] = []
        ordered.reserveCapacity(keys.count)
        for key in slots where key >= 0 { ordered.append(key) }
        return ordered + unknown
    }

    /// The hits for `keys`, each with the first field that matched: their indexed texts read
    /// and checked (a few hundred at most per keystroke).
    private func hits(
        _ keys: ArraySlice<Int64>, _ order: WalletOrder, _ query: SearchQuery, _ searched: [CardField],
        _ db: Database
    ) throws -> [CardSearchHit] {
        let texts = "SELECT " + SearchIndex.columns.joined(separator: ", ") + " FROM cardSearch WHERE rowid = ?"
        let statement = try db.cachedStatement(sql: texts)
        var hits: [CardSearchHit] = []
        hits.reserveCapacity(keys.count)
        for key in keys {
            guard Int(key) < order.ids.count, let row = try Row.fetchOne(statement, arguments: [key]) else { continue }
            let field = zip(SearchText.fields.indices, SearchText.fields).first { index, field in
                searched.contains(field) && query.matches(row[index] as String? ?? "", field: field)
            }?.1
            // The index and the check agree by construction; a card the check cannot place
            // is still a hit, reported on its name.
            hits.append(CardSearchHit(cardID: order.ids[Int(key)], field: field ?? .name))
        }
        return hits
    }
}
