import CardModels
import Foundation
import GRDB
import GRDBSQLite

/// Reading and writing `card` rows. Plain SQL with positional columns: reading a thousand
/// summaries for the first frame is the cache's hottest path, and a `Codable` record would
/// decode each row through a keyed container.
enum CardRows {
    /// The 9 columns a summary is read from, in the order ``summary(_:from:)`` expects them.
    static let summaryColumns = "id, name, title, company, email, defaultImage, hasImage, updatedAt, revision"

    /// A summary from the 9 columns ``summaryColumns`` starting at column `index` of `raw`'s
    /// current row (stepped with ``RawRows``: no `Row` object per row).
    static func summary(_ raw: SQLiteStatement, from index: Int32) -> CardSummary {
        CardSummary(
            id: RawRows.text(raw, index) ?? "", name: RawRows.text(raw, index + 1) ?? "",
            title: RawRows.text(raw, index + 2), company: RawRows.text(raw, index + 3),
            email: RawRows.text(raw, index + 4), defaultImage: Int(sqlite3_column_int64(raw, index + 5)),
            hasImage: sqlite3_column_int64(raw, index + 6) != 0,
            updatedAt: Date(timeIntervalSinceReferenceDate: sqlite3_column_double(raw, index + 7)),
            revision: CardRevision(rawValue: RawRows.text(raw, index + 8) ?? ""))
    }

    /// The summaries `statement` answers, its columns ``summaryColumns``: the first frame reads a
    /// thousand of them.
    static func summaries(_ statement: Statement) throws -> [CardSummary] {
        var cards: [CardSummary] = []
        try RawRows.step(statement) { raw in cards.append(summary(raw, from: 0)) }
        return cards
    }

    /// Adds a card row (and, unless told otherwise, indexes its summary).
    /// - Returns: its key.
    @discardableResult
    static func insert(
        _ summary: CardSummary, position: Int, confirmedAt: Date, _ db: Database, index: Bool = true
    ) throws -> Int64 {
        try db.execute(
            sql: """
                INSERT INTO card (id, position, name, title, company, email, defaultImage, hasImage, updatedAt, revision, confirmedAt)
                VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
                """,
            arguments: [
                summary.id, position, summary.name, summary.title, summary.company, summary.email, summary.defaultImage,
                summary.hasImage, summary.updatedAt.timeIntervalSinceReferenceDate, summary.revision.rawValue,
                confirmedAt.timeIntervalSince1970,
            ])
        let key = db.lastInsertedRowID
        if index { try SearchIndex.reindex(key: key, db) }
        return key
    }

    /// Updates a card row's summary columns (and its position when given).
    static func update(_ summary: CardSummary, position: Int?, key: Int64, _ db: Database) throws {
        try db.execute(
            sql: """
                UPDATE card SET name = ?, title = ?, company = ?, email = ?, defaultImage = ?, hasImage = ?,
                    updatedAt = ?, revision = ?, position = coalesce(?, position)
                WHERE key = ?
                """,
            arguments: [
                summary.name, summary.title, summary.company, summary.email, summary.defaultImage, summary.hasImage,
                summary.updatedAt.timeIntervalSinceReferenceDate, summary.revision.rawValue, position, key,
            ])
    }

    /// Removes a card row, its picture (by the foreign key) and its index entries.
    static func delete(key: Int64, _ db: Database) throws {
        try db.execute(sql: "DELETE FROM card WHERE key = ?", arguments: [key])
        try SearchIndex.remove(key: key, db)
    }
}
