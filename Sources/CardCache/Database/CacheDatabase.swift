import GRDB

/// The SQLite settings and small helpers every cache connection shares.
enum CacheDatabase {
    /// WAL (the pool's mode: readers never wait for the writer), `synchronous = NORMAL` (a
    /// crash loses no commit; a power cut may lose the last ones — the server has them all),
    /// and a generous busy timeout so two processes writing at once take turns instead of
    /// failing. Every connection gets the search's FTS5 function (``SpacedTrigrams``).
    static var configuration: Configuration {
        var configuration = Configuration()
        configuration.label = "cardwallet.cache"
        configuration.busyMode = .timeout(10)
        configuration.prepareDatabase { db in
            try db.execute(sql: "PRAGMA synchronous = NORMAL")
            try SpacedTrigrams.register(db)
        }
        return configuration
    }

    /// The `cacheInfo` rows.
    static func identity(_ db: Database) throws -> [String: String] {
        var rows: [String: String] = [:]
        for row in try Row.fetchAll(db, sql: "SELECT key, value FROM cacheInfo") {
            rows[row["key"]] = row["value"]
        }
        return rows
    }

    /// Whether the `cacheInfo` rows `stored` name `server` and `account` (its email in any case).
    static func isIdentity(_ stored: [String: String], server: String, account: String) -> Bool {
        stored["server"] == server && stored["account"]?.lowercased() == account.lowercased()
    }

    /// Records whose cache this file is.
    static func setIdentity(server: String, account: String, _ db: Database) throws {
        for (key, value) in [("server", server), ("account", account)] {
            try db.execute(sql: "INSERT OR REPLACE INTO cacheInfo (key, value) VALUES (?, ?)", arguments: [key, value])
        }
    }

    /// Whether `error` says the file itself is damaged (rather than the disk full or locked).
    static func isDamage(_ error: DatabaseError) -> Bool {
        error.resultCode == .SQLITE_CORRUPT || error.resultCode == .SQLITE_NOTADB
    }

    /// A reason a person can act on, for an error from SQLite or from reading a row.
    static func reason(for error: any Error) -> String {
        if let problem = error as? CacheOpeningProblem { return problem.reason }
        guard let error = error as? DatabaseError else {
            return "a row cannot be read (\(String(describing: error).prefix(200)))"
        }
        let message = error.message ?? "\(error.resultCode)"
        switch error.resultCode {
        case .SQLITE_CORRUPT, .SQLITE_NOTADB: return "it is damaged (SQLite: \(message))"
        case .SQLITE_CANTOPEN: return "it cannot be opened (SQLite: \(message))"
        case .SQLITE_PERM, .SQLITE_READONLY, .SQLITE_AUTH: return "it cannot be written (SQLite: \(message))"
        case .SQLITE_BUSY, .SQLITE_LOCKED: return "another process kept it locked too long (SQLite: \(message))"
        case .SQLITE_FULL: return "the disk is full (SQLite: \(message))"
        case .SQLITE_IOERR: return "reading or writing it failed (SQLite: \(message))"
        default: return "SQLite: \(message)"
        }
    }
}
