import CardModels
import Foundation
import GRDB

/// Keeps the two full-text tables in step with the `card` rows (docs/Cache.md, *Search*):
///
/// - `cardSearch` (FTS5 `trigram`): every searched field folded by ``SearchText/fold(_:)``, the
///   phone as its digits. Answers queries of three characters or more as substrings, in any
///   script, and holds the folded text the "which field matched" check reads.
/// - `cardWords` (FTS5 `unicode61` with prefix indexes of 1 and 2 characters): the same text
///   with every character of scripts written without spaces standing alone, and the phone as
///   all suffixes of its digits. Answers the first two keystrokes: word starts, any one or two
///   Hangul/CJK/kana characters, any one or two digits of a phone number.
///
/// The rowid of both is the card row's `key`.
enum SearchIndex {
    /// The columns, in ``SearchText/fields`` order.
    static let columns = SearchText.fields.map(\.rawValue)

    private static let placeholders = Array(repeating: "?", count: columns.count + 1).joined(separator: ", ")
    private static let insertSearch =
        "INSERT INTO cardSearch (rowid, \(columns.joined(separator: ", "))) VALUES (\(placeholders))"
    private static let insertWords =
        "INSERT INTO cardWords (rowid, \(columns.joined(separator: ", "))) VALUES (\(placeholders))"

    /// Indexes the card row `key` again from what the row holds: its whole card when kept, with
    /// the summary's fields on top (a later list may have shown a newer name).
    static func reindex(key: Int64, _ db: Database, isNew: Bool = false) throws {
        guard
            let row = try Row.fetchOne(
                db, sql: "SELECT name, title, company, email, detail, detailSource FROM card WHERE key = ?",
                arguments: [key])
        else { return }
        var fields = CardFields(name: row[0])
        if let detail = row[4] as String? {
            fields = try CardRecord.card(detail, source: row[5]).fields
            fields.name = row[0]
        }
        fields.title = row[1]
        fields.company = row[2]
        fields.email = row[3]
        try index(key: key, fields, db, isNew: isNew)
    }

    /// Indexes the card row `key` again from `fields`, which the caller holds already (a whole
    /// card just written with its summary): nothing is read back or decoded. A row just added
    /// (`isNew`) has nothing to remove first.
    static func index(key: Int64, _ fields: CardFields, _ db: Database, isNew: Bool = false) throws {
        if !isNew { try remove(key: key, db) }
        let folded = SearchText.fields.map { SearchText.indexed($0, of: fields) }
        try db.cachedStatement(sql: insertSearch).execute(arguments: row(key, folded))
        let words = zip(SearchText.fields, folded).map { field, text in
            field == .phone ? SearchText.phoneWords(text) : SearchText.words(text)
        }
        try db.cachedStatement(sql: insertWords).execute(arguments: row(key, words))
    }

    /// The arguments of an index row: the rowid, then the columns.
    private static func row(_ key: Int64, _ columns: [String?]) -> StatementArguments {
        var values: [(any DatabaseValueConvertible)?] = [key]
        values.reserveCapacity(columns.count + 1)
        for column in columns { values.append(column) }
        return StatementArguments(values)
    }

    /// Removes the card row `key` from both indexes (and from the backlog: a row is in one or
    /// the other).
    static func remove(key: Int64, _ db: Database) throws {
        try db.cachedStatement(sql: "DELETE FROM cardSearch WHERE rowid = ?").execute(arguments: [key])
        try db.cachedStatement(sql: "DELETE FROM cardWords WHERE rowid = ?").execute(arguments: [key])
        try db.cachedStatement(sql: "DELETE FROM searchBacklog WHERE key = ?").execute(arguments: [key])
    }

    /// Leaves the card row `key` out of the indexes for now: it goes to the backlog, which
    /// ``indexBacklog(_:limit:)`` empties before any search. A row just added (`isNew`) has no
    /// entries to remove first.
    static func postpone(key: Int64, _ db: Database, isNew: Bool) throws {
        if !isNew { try remove(key: key, db) }
        try db.cachedStatement(sql: "INSERT OR IGNORE INTO searchBacklog (key) VALUES (?)").execute(arguments: [key])
    }

    /// Indexes up to `limit` rows of the backlog from what their rows hold (summary and whole
    /// card), and takes them off it.
    /// - Returns: how many it indexed (0: the backlog is empty).
    static func indexBacklog(_ db: Database, limit: Int) throws -> Int {
        let keys = try Int64.fetchAll(db, sql: "SELECT key FROM searchBacklog LIMIT ?", arguments: [limit])
        for key in keys {
            try db.cachedStatement(sql: "DELETE FROM searchBacklog WHERE key = ?").execute(arguments: [key])
            try reindex(key: key, db, isNew: true)
        }
        return keys.count
    }
}
