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

    /// A whole card as its row keeps it: the `detail` columns.
    struct Detail {
        /// ``CardRecord/stored(_:)``'s record…
        var record: String
        /// …and source.
        var source: String?
        var revision: String
        /// Seconds since 1970.
        var confirmedAt: Double
    }

    /// Adds a card row, with its whole card when given. The caller indexes it.
    /// - Returns: its key.
    @discardableResult
    static func insert(
        _ summary: CardSummary, position: Int, confirmedAt: Date, detail: Detail? = nil, _ db: Database
    ) throws -> Int64 {
        try db.cachedStatement(
            sql: """
                INSERT INTO card (id, position, name, title, company, email, defaultImage, hasImage, updatedAt, revision,
                    confirmedAt, detail, detailSource, detailRevision, detailConfirmedAt)
                VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
                """
        ).execute(arguments: [
            summary.id, position, summary.name, summary.title, summary.company, summary.email, summary.defaultImage,
            summary.hasImage, summary.updatedAt.timeIntervalSinceReferenceDate, summary.revision.rawValue,
            confirmedAt.timeIntervalSince1970, detail?.record, detail?.source, detail?.revision, detail?.confirmedAt,
        ])
        return db.lastInsertedRowID
    }

    /// Replaces a row's whole card (and marks the row confirmed when the card was).
    static func setDetail(_ detail: Detail, key: Int64, _ db: Database) throws {
        try db.cachedStatement(
            sql: """
                UPDATE card SET detail = ?, detailSource = ?, detailRevision = ?, detailConfirmedAt = ?, confirmedAt = ?
                WHERE key = ?
                """
        ).execute(arguments: [
            detail.record, detail.source, detail.revision, detail.confirmedAt, detail.confirmedAt, key,
        ])
    }

    /// The fields a summary alone gives (a row listed, never read whole): what it is indexed by.
    static func fields(of summary: CardSummary) -> CardFields {
        var fields = CardFields(name: summary.name)
        fields.title = summary.title
        fields.company = summary.company
        fields.email = summary.email
        return fields
    }

    /// Updates a card row's summary columns (and its position when given); with
    /// `onlyIfChanged`, only where the summary differs from what the row holds.
    /// - Returns: whether the row was written (a changed summary needs indexing again).
    @discardableResult
    static func update(
        _ summary: CardSummary, position: Int?, key: Int64, onlyIfChanged: Bool = false, _ db: Database
    ) throws -> Bool {
        let changed =
            onlyIfChanged
            ? """
             AND (name IS NOT ?1 OR title IS NOT ?2 OR company IS NOT ?3 OR email IS NOT ?4
                OR defaultImage IS NOT ?5 OR hasImage IS NOT ?6 OR updatedAt IS NOT ?7 OR revision IS NOT ?8)
            """ : ""
        try db.cachedStatement(
            sql: """
                UPDATE card SET name = ?1, title = ?2, company = ?3, email = ?4, defaultImage = ?5, hasImage = ?6,
                    updatedAt = ?7, revision = ?8, position = coalesce(?9, position)
                WHERE key = ?10
                """ + changed
        ).execute(arguments: [
            summary.name, summary.title, summary.company, summary.email, summary.defaultImage, summary.hasImage,
            summary.updatedAt.timeIntervalSinceReferenceDate, summary.revision.rawValue, position, key,
        ])
        return db.changesCount > 0
    }

    /// Removes a card row, its picture (by the foreign key) and its index entries.
    static func delete(key: Int64, _ db: Database) throws {
        try db.execute(sql: "DELETE FROM card WHERE key = ?", arguments: [key])
        try SearchIndex.remove(key: key, db)
    }
}
