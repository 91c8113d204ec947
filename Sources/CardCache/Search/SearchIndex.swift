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

    /// Whether the full-text tables have exactly ``columns``, in order. A cache written by a
    /// cardwallet with other searched fields (an older one, before a field was added) has
    /// others: ``rebuildIfStale(_:)`` makes them again.
    static func isCurrent(_ db: Database) throws -> Bool {
        for table in ["cardSearch", "cardWords"] {
            let present = try String.fetchAll(db, sql: "SELECT name FROM pragma_table_info(?)", arguments: [table])
            if present != columns { return false }
        }
        return true
    }

    /// Makes both full-text tables again with ``columns`` when they have other columns, and puts
    /// every card row on the backlog, which the next search indexes (docs/Cache.md, *Search*).
    /// Not a numbered migration: the searched fields are the descriptors' (``SearchText/fields``),
    /// so the tables follow the code that opens the file, written the same way every time.
    /// - Returns: whether it rebuilt them.
    @discardableResult
    static func rebuildIfStale(_ db: Database) throws -> Bool {
        guard try !isCurrent(db) else { return false }
        try db.execute(sql: "DROP TABLE IF EXISTS cardSearch")
        try db.execute(sql: "DROP TABLE IF EXISTS cardWords")
        try create(columns: columns, db)
        try db.execute(sql: "INSERT OR IGNORE INTO searchBacklog (key) SELECT key FROM card")
        return true
    }

    /// Creates the two full-text tables with `columns`: the migrations' first version (with the
    /// columns of their time) and ``rebuildIfStale(_:)`` (with today's).
    static func create(columns: [String], _ db: Database) throws {
        let list = columns.joined(separator: ", ")
        // Substrings of three characters or more, in every script (docs/Cache.md).
        try db.execute(sql: "CREATE VIRTUAL TABLE cardSearch USING fts5(\(list), tokenize = 'trigram')")
        // The first two keystrokes: word starts, and single CJK characters as words.
        try db.execute(
            sql:
                "CREATE VIRTUAL TABLE cardWords USING fts5(\(list), tokenize = 'unicode61 remove_diacritics 0', prefix = '1 2')"
        )
    }

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
            field.kind == .phone ? SearchText.phoneWords(text) : SearchText.words(text)
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
