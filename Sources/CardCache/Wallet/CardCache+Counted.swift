import Foundation
import GRDB

extension CardCache {
    /// How many cards the cache of `account` at `server` under `location` holds from its last
    /// listing, read without opening it for writing; `nil` when there is no such cache or it was
    /// never listed (a book not used yet). What `cardwallet books` shows as "cards when known".
    public static func listedCards(server: String, account: String, location: CacheLocation) -> Int? {
        let path = location.databasePath(server: server, account: account)
        guard FileManager.default.fileExists(atPath: path) else { return nil }
        return readingFile(at: path) { db -> Int? in
            let identity = try CacheDatabase.identity(db)
            guard identity["server"] == server, identity["account"] == account,
                try Double.fetchOne(db, sql: "SELECT listConfirmedAt FROM wallet") != nil
            else { return nil }
            return try Int.fetchOne(db, sql: "SELECT count(*) FROM card")
        }
    }

    /// What `body` reads from the cache file at `path`, opened read-only and closed again;
    /// `nil` for a file that is not a cache of ours (damaged, foreign) or cannot be read.
    /// Never writes, never moves a file aside.
    static func readingFile<Value>(at path: String, _ body: (Database) throws -> Value?) -> Value? {
        guard case .ours = CacheFileCheck(path: path) else { return nil }
        var configuration = Configuration()
        configuration.readonly = true
        guard let queue = try? DatabaseQueue(path: path, configuration: configuration) else { return nil }
        defer { try? queue.close() }
        return (try? queue.read(body)) ?? nil
    }
}
