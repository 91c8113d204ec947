import GRDB
import GRDBSQLite

/// Stepping a statement through SQLite's C API, for the cache's hot loops (the first frame's
/// thousand summaries, a keystroke's tens of thousands of search matches): no `Row` object per
/// row and no type-checked subscript per value.
enum RawRows {
    /// Steps `statement` to its end, calling `row` with the raw statement at each row; resets it
    /// afterwards.
    ///
    /// - Throws: SQLite's error as a `DatabaseError`, or what `row` throws.
    @inline(__always)
    static func step(_ statement: Statement, _ row: (SQLiteStatement) throws -> Void) throws {
        let raw = statement.sqliteStatement
        defer { sqlite3_reset(raw) }
        while true {
            let code = sqlite3_step(raw)
            if code == SQLITE_DONE { return }
            guard code == SQLITE_ROW else {
                throw DatabaseError(
                    resultCode: ResultCode(rawValue: code),
                    message: String(cString: sqlite3_errmsg(sqlite3_db_handle(raw))), sql: statement.sql)
            }
            try row(raw)
        }
    }

    /// Column `index` of the current row as text, `nil` when it is NULL.
    static func text(_ raw: SQLiteStatement, _ index: Int32) -> String? {
        guard let bytes = sqlite3_column_text(raw, index) else { return nil }
        let count = Int(sqlite3_column_bytes(raw, index))
        return String(decoding: UnsafeBufferPointer(start: bytes, count: count), as: UTF8.self)
    }
}
