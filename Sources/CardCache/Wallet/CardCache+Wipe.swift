import Foundation
import GRDB
public import Logging

extension CardCache {
    /// Forgets the cards the cache holds — cards, pictures, order, index, sync token — but keeps
    /// the outbox: changes made offline are the person's work, not a copy of the server's, and
    /// are sent after the next login as the same account (docs/Cache.md, "When a session ends").
    /// Deleted pages are overwritten (`secure_delete`) and the write-ahead log is truncated, so a
    /// process that still has the file open (the interface beside a script) sees no old cards.
    /// When no change is waiting, the files are removed. This handle is closed.
    ///
    /// Call it on logout and when the server ends the session (E06, a refused password), for
    /// that account.
    ///
    /// - Returns: how many changes made offline were kept.
    @discardableResult
    public func wipe() throws(CacheError) -> Int {
        let path = self.path
        return try FileLock.holding(path + ".lock") { () throws(CacheError) -> Int in
            var kept = 0
            do {
                try pool.barrierWriteWithoutTransaction { db in
                    try db.execute(sql: "PRAGMA secure_delete = ON")
                    try db.inTransaction {
                        try db.execute(sql: "DELETE FROM outbox WHERE state = 'sent'")
                        kept = try Int.fetchOne(db, sql: "SELECT count(*) FROM outbox") ?? 0
                        for table in ["cardImage", "card", "cardSearch", "cardWords", "cardGroup", "searchBacklog"] {
                            try db.execute(sql: "DELETE FROM \(table)")
                        }
                        try db.execute(sql: "UPDATE wallet SET listConfirmedAt = NULL, syncToken = NULL")
                        return .commit
                    }
                    try db.checkpoint(.truncate)
                }
            } catch {
                // A damaged file is removed all the same.
                logger.notice(
                    "Wiping the card cache \(path) in place failed (\(CacheDatabase.reason(for: error))); removing its files"
                )
                kept = 0
            }
            try? pool.close()
            if kept == 0 { PrivateFiles.removeDatabase(path) }
            unlink(path + ".damaged")
            return kept
        }
    }

    /// Forgets the cache of `account` at `server` without opening it (nothing is created when
    /// there is none): ``wipe()`` for a caller that holds no handle. The outbox is kept, as
    /// ``wipe()`` keeps it.
    ///
    /// - Returns: how many changes made offline were kept.
    /// - Throws: ``CacheError`` when a file exists but cannot be removed.
    @discardableResult
    public static func wipe(server: String, account: String, location: CacheLocation, logger: Logger) throws(CacheError)
        -> Int
    {
        let path = location.databasePath(server: server, account: account)
        guard PrivateFiles.exists(path) || PrivateFiles.exists(path + ".damaged") else { return 0 }
        if case .ours = CacheFileCheck(path: path),
            let cache = try? open(server: server, account: account, location: location, logger: logger)
        {
            let kept = try cache.wipe()
            if kept > 0 { return kept }
        }
        try FileLock.holding(path + ".lock") { () throws(CacheError) in
            PrivateFiles.removeDatabase(path)
            PrivateFiles.removeDatabase(path + ".damaged")
        }
        // The empty lock file stays: another process may be waiting on it.
        if PrivateFiles.exists(path) { throw .system("remove", path, errno: errno) }
        return 0
    }
}
