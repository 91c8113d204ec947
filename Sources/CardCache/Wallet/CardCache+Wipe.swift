import Foundation
import GRDB
public import Logging

extension CardCache {
    /// Forgets everything the cache holds — cards, pictures, order, index, outbox — and removes
    /// its files. Deleted pages are overwritten (`secure_delete`) and the write-ahead log is
    /// truncated before the files go, so a process that still has the file open (the interface
    /// beside a script) sees an empty cache rather than the old cards. This handle is closed.
    ///
    /// Call it on logout and when the server ends the session (E06), for that account.
    public func wipe() throws(CacheError) {
        let path = self.path
        try FileLock.holding(path + ".lock") { () throws(CacheError) in
            do {
                try pool.barrierWriteWithoutTransaction { db in
                    try db.execute(sql: "PRAGMA secure_delete = ON")
                    try db.inTransaction {
                        for table in ["outbox", "cardImage", "card", "cardSearch", "cardWords", "cacheInfo"] {
                            try db.execute(sql: "DELETE FROM \(table)")
                        }
                        try db.execute(sql: "UPDATE wallet SET listConfirmedAt = NULL")
                        return .commit
                    }
                    try db.checkpoint(.truncate)
                }
            } catch {
                // A damaged file is removed all the same.
                logger.notice(
                    "Wiping the card cache \(path) in place failed (\(CacheDatabase.reason(for: error))); removing its files"
                )
            }
            try? pool.close()
            PrivateFiles.removeDatabase(path)
            unlink(path + ".damaged")
        }
    }

    /// Forgets the cache of `account` at `server` without opening it (nothing is created when
    /// there is none): ``wipe()`` for a caller that holds no handle.
    ///
    /// - Throws: ``CacheError`` when a file exists but cannot be removed.
    public static func wipe(server: String, account: String, location: CacheLocation, logger: Logger) throws(CacheError)
    {
        let path = location.databasePath(server: server, account: account)
        guard PrivateFiles.exists(path) || PrivateFiles.exists(path + ".damaged") else { return }
        if case .ours = CacheFileCheck(path: path),
            let cache = try? open(server: server, account: account, location: location, logger: logger)
        {
            try cache.wipe()
        }
        try FileLock.holding(path + ".lock") { () throws(CacheError) in
            PrivateFiles.removeDatabase(path)
            PrivateFiles.removeDatabase(path + ".damaged")
        }
        // The empty lock file stays: another process may be waiting on it.
        if PrivateFiles.exists(path) { throw .system("remove", path, errno: errno) }
    }
}
