public import Foundation
import GRDB
public import Logging
import Synchronization

/// The local copy of one account's wallet at one server: what the server last said about its
/// cards, their pictures and their order, a full-text index over every field, and an outbox of
/// changes made offline. SQLite through GRDB, one file per server and account under
/// ``CacheLocation`` (docs/Cache.md).
///
/// ```swift
/// let cache = try CardCache.open(server: serverKey, account: email,
///                                location: try CacheLocation(environment: environment), logger: logger)
/// try cache.storeList(summaries, confirmedAt: .now)      // after GET /cards
/// let list = try cache.list()                             // offline: the cards as of list.confirmedAt
/// let hits = try cache.search("데이터")                    // every field, wallet order
/// ```
///
/// It never holds a token or a password: only cards, pictures, order, dates and outbox entries.
/// The methods are synchronous and short (call them from a background task in an interface);
/// several processes may use the same file at once (a `DatabasePool` in WAL mode: readers never
/// wait, writers take turns). Every error is a ``CacheError``: the callers go on without the
/// cache. A file found damaged while in use is moved aside at once, with one log line, and the
/// next ``open(server:account:location:logger:clock:)`` starts a new one.
public final class CardCache: Sendable {
    /// The database file.
    public let path: String
    /// The server's base URL the cache belongs to.
    public let server: String
    /// The account the cache belongs to.
    public let account: String

    let pool: DatabasePool
    let logger: Logger
    let clock: @Sendable () -> Date
    private let quarantined = Mutex(false)
    /// The wallet order as a search last read it (see ``positions(_:)``).
    private let order = Mutex<WalletOrder?>(nil)

    init(
        path: String, server: String, account: String, pool: DatabasePool, logger: Logger,
        clock: @escaping @Sendable () -> Date
    ) {
        self.path = path
        self.server = server
        self.account = account
        self.pool = pool
        self.logger = logger
        self.clock = clock
    }

    /// Opens (creating when missing) the cache of `account` at `server`.
    ///
    /// A file that is damaged, truncated, another program's, written by a newer cardwallet, or
    /// another account's is moved aside (`….sqlite.damaged`, replacing an earlier one) and a
    /// new cache is started, with one line in `logger` at the `warning` level.
    ///
    /// - Parameters:
    ///   - server: the server's base URL (`CardAPIConfiguration.serverKey`).
    ///   - account: the account's email.
    ///   - location: the cache folder.
    ///   - logger: where the one line about a file moved aside goes.
    ///   - clock: the time outbox entries are stamped with.
    /// - Throws: ``CacheError`` when no cache can be had (the folder is not ours, the disk is
    ///   full or read-only); go on without one.
    public static func open(
        server: String, account: String, location: CacheLocation, logger: Logger,
        clock: @escaping @Sendable () -> Date = { Date() }
    ) throws(CacheError) -> CardCache {
        try PrivateFiles.prepareFolder(location.folder)
        let path = location.databasePath(server: server, account: account)
        return try FileLock.holding(path + ".lock") { () throws(CacheError) -> CardCache in
            try openLocked(path: path, server: server, account: account, logger: logger, clock: clock)
        }
    }

    /// ``open(server:account:location:logger:clock:)`` once the file's lock is held.
    private static func openLocked(
        path: String, server: String, account: String, logger: Logger, clock: @escaping @Sendable () -> Date
    ) throws(CacheError) -> CardCache {
        if case .unusable(let reason) = CacheFileCheck(path: path) {
            try moveAside(path, reason: reason, logger: logger)
        }
        do {
            return try connect(path: path, server: server, account: account, logger: logger, clock: clock)
        } catch let problem as CacheOpeningProblem {
            try moveAside(path, reason: problem.reason, logger: logger)
        } catch {
            throw .database(path, CacheDatabase.reason(for: error))
        }
        do {
            return try connect(path: path, server: server, account: account, logger: logger, clock: clock)
        } catch let problem as CacheOpeningProblem {
            throw .database(path, problem.reason)
        } catch {
            throw .database(path, CacheDatabase.reason(for: error))
        }
    }

    /// Opens the pool, brings the schema up to date and checks whose file it is.
    /// - Throws: ``CacheOpeningProblem`` when the file is to be moved aside; other errors as
    ///   they come (a full disk is no reason to throw the file away).
    private static func connect(
        path: String, server: String, account: String, logger: Logger, clock: @escaping @Sendable () -> Date
    ) throws -> CardCache {
        try PrivateFiles.prepareFile(path)
        let pool: DatabasePool
        do {
            pool = try DatabasePool(path: path, configuration: CacheDatabase.configuration)
        } catch let error as DatabaseError where CacheDatabase.isDamage(error) {
            throw CacheOpeningProblem(reason: CacheDatabase.reason(for: error))
        }
        do {
            // The usual start: this program's file, up to date and this account's, told by one
            // read, without the migrator's and the identity's write transactions.
            let migrator = CacheSchema.migrator
            let ready = try pool.read { db in
                try Int32.fetchOne(db, sql: "PRAGMA application_id") == CacheSchema.applicationID
                    && CacheSchema.isCurrent(db)
                    && CacheDatabase.isIdentity(try CacheDatabase.identity(db), server: server, account: account)
            }
            if ready {
                return CardCache(path: path, server: server, account: account, pool: pool, logger: logger, clock: clock)
            }
            // The header's id may have been in the write-ahead log (CacheFileCheck): a database
            // with tables and another id is another program's, never migrated.
            let foreign = try pool.read { db in
                let id = try Int32.fetchOne(db, sql: "PRAGMA application_id") ?? 0
                let tables = try Int.fetchOne(db, sql: "SELECT count(*) FROM sqlite_master") ?? 0
                return id != CacheSchema.applicationID && tables > 0 ? id : nil
            }
            if let foreign {
                throw CacheOpeningProblem(reason: "it is another program's SQLite database (application_id \(foreign))")
            }
            if try pool.read({ try migrator.hasBeenSuperseded($0) }) {
                throw CacheOpeningProblem(reason: "it was written by a newer version of cardwallet")
            }
            try CacheSchema.migrate(pool)
            try pool.write { db in
                let stored = try CacheDatabase.identity(db)
                if stored.isEmpty {
                    try CacheDatabase.setIdentity(server: server, account: account, db)
                } else if !CacheDatabase.isIdentity(stored, server: server, account: account) {
                    throw CacheOpeningProblem(reason: "it belongs to another server or account")
                }
            }
        } catch let error as DatabaseError where CacheDatabase.isDamage(error) {
            try? pool.close()
            throw CacheOpeningProblem(reason: CacheDatabase.reason(for: error))
        } catch {
            try? pool.close()
            throw error
        }
        return CardCache(path: path, server: server, account: account, pool: pool, logger: logger, clock: clock)
    }

    /// Moves the database at `path` (and its companions) aside as `path.damaged`, logging why.
    static func moveAside(_ path: String, reason: String, logger: Logger) throws(CacheError) {
        let aside = path + ".damaged"
        PrivateFiles.removeDatabase(aside)
        guard rename(path, aside) == 0 || errno == ENOENT else {
            throw .system("move the damaged cache aside to", aside, errno: errno)
        }
        for suffix in ["-wal", "-shm", "-journal"] { unlink(path + suffix) }
        logger.warning(
            "The card cache \(path) could not be used (\(reason)); it was moved aside to \(aside) and a new cache was started"
        )
    }

    /// Closes the database; later calls fail with ``CacheError``. The write-ahead log is
    /// checkpointed into the file first, so the file alone holds everything (and the next
    /// opening's header check sees its true size).
    public func close() {
        _ = try? pool.writeWithoutTransaction { try $0.checkpoint(.truncate) }
        try? pool.close()
    }

    // MARK: Running SQL

    /// Reads through the pool, turning every failure into a ``CacheError`` (and moving a file
    /// found damaged aside).
    func read<T>(_ body: (Database) throws -> T) throws(CacheError) -> T {
        do {
            return try pool.read(body)
        } catch {
            throw failure(error)
        }
    }

    /// Writes in one transaction, as ``read(_:)``.
    func write<T>(_ body: (Database) throws -> T) throws(CacheError) -> T {
        do {
            return try pool.write(body)
        } catch {
            throw failure(error)
        }
    }

    private func failure(_ error: any Error) -> CacheError {
        if let error = error as? CacheError { return error }
        let reason = CacheDatabase.reason(for: error)
        if let database = error as? DatabaseError, CacheDatabase.isDamage(database) {
            let first = quarantined.withLock { done in
                defer { done = true }
                return !done
            }
            if first {
                try? pool.close()
                try? FileLock.holding(path + ".lock") { () throws(CacheError) in
                    try Self.moveAside(path, reason: reason, logger: logger)
                }
            }
        }
        return .database(path, reason)
    }
}

extension CardCache {
    /// Every card row's place in the wallet and id, indexed by its key, read again when
    /// `wallet.generation` says a card was added, removed or moved since. A search then orders
    /// its matches and names them without looking up a `card` row per match.
    func walletOrder(_ db: Database) throws -> WalletOrder {
        let generation = try Int64.fetchOne(db, sql: "SELECT generation FROM wallet") ?? 0
        if let kept = order.withLock({ $0 }), kept.generation == generation { return kept }
        var fresh = WalletOrder(generation: generation, positions: [], ids: [])
        let rows = try Row.fetchCursor(db, sql: "SELECT key, position, id FROM card ORDER BY key")
        while let row = try rows.next() {
            let key = Int(row[0] as Int64)
            if key >= fresh.positions.count {
                fresh.positions += Array(repeating: -1, count: key + 1 - fresh.positions.count)
                fresh.ids += Array(repeating: "", count: key + 1 - fresh.ids.count)
            }
            fresh.positions[key] = Int32(clamping: row[1] as Int)
            fresh.ids[key] = row[2]
        }
        order.withLock { $0 = fresh }
        return fresh
    }
}

/// The wallet order a search keeps between keystrokes: by card row key, its place in the
/// wallet (-1: no such row) and its id.
struct WalletOrder: Sendable {
    var generation: Int64
    var positions: [Int32]
    var ids: [String]
}

/// A reason to move a database file aside while opening it.
struct CacheOpeningProblem: Error {
    var reason: String
}
