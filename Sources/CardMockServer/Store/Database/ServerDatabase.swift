import CardModels
import Foundation
import GRDB

/// The `--data` file: an SQLite database read and written through GRDB.
///
/// The server loads it whole at start and then writes, per answered change, only the rows
/// that change touched, in one transaction (``write(_:in:)``): the cost of a write does not
/// grow with the data. The file is in WAL mode with `synchronous = NORMAL`: a committed
/// transaction survives the server being killed (`kill -9`) at any moment; a power cut may
/// lose the last ones, never the file (docs/API.md, *Persistence*).
final class ServerDatabase: DataStore {
    /// The file's path.
    let path: String
    private let queue: DatabaseQueue

    private init(path: String, queue: DatabaseQueue) {
        self.path = path
        self.queue = queue
    }

    /// How commits reach the disk.
    enum Durability: Sendable {
        /// WAL with `synchronous = NORMAL` (the server's setting): safe from crashes of the
        /// server, no fsync per commit.
        case crashSafe
        /// WAL with `synchronous = FULL`: an fsync per commit, safe from power loss too
        /// (measured by the benchmark, to show what the fsync costs).
        case powerSafe
    }

    /// Opens a database of ours (``DataFileKind`` checked its header), bringing its schema up
    /// to date.
    /// - Throws: ``MockServerError/dataFile(path:reason:)`` when it cannot be opened, was
    ///   written by a newer version, or fails SQLite's integrity check.
    static func open(path: String, durability: Durability = .crashSafe) throws(MockServerError) -> ServerDatabase {
        var configuration = Configuration()
        configuration.journalMode = .wal
        configuration.label = "cardwallet.mock-server.data"
        do {
            let queue = try DatabaseQueue(path: path, configuration: configuration)
            let migrator = DatabaseSchema.migrator
            if try queue.read({ try migrator.hasBeenSuperseded($0) }) {
                throw MockServerError.dataFile(
                    path: path,
                    reason: "it was written by a newer version of cardwallet; use that version, or move the file away")
            }
            try migrator.migrate(queue)
            let check = try queue.read { try String.fetchAll($0, sql: "PRAGMA quick_check") }
            guard check == ["ok"] else {
                throw MockServerError.dataFile(
                    path: path,
                    reason: "it is damaged (SQLite's check says: \(check.prefix(3).joined(separator: "; ")))" + advice)
            }
            if durability == .powerSafe {
                try queue.writeWithoutTransaction { try $0.execute(sql: "PRAGMA synchronous = FULL") }
            }
            return ServerDatabase(path: path, queue: queue)
        } catch let error as MockServerError {
            throw error
        } catch {
            throw .dataFile(path: path, reason: reason(for: error))
        }
    }

    /// Writes `snapshot` into a new database file at `path` (which must not exist yet), in one
    /// transaction, with permissions 0600.
    /// - Throws: ``MockServerError/dataFile(path:reason:)`` naming the failed step.
    static func create(path: String, holding snapshot: DataSnapshot) throws(MockServerError) {
        let descriptor = Foundation.open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else {
            throw .dataFile(path: path, reason: "cannot create a file beside it (\(String(cString: strerror(errno))))")
        }
        _ = Foundation.close(descriptor)
        do {
            // The default rollback journal: the new file is renamed into place once closed,
            // so no -wal file may hold part of it.
            let queue = try DatabaseQueue(path: path)
            try DatabaseSchema.migrator.migrate(queue)
            try queue.write { db in try insertAll(snapshot, db) }
            try queue.close()
        } catch {
            throw .dataFile(path: path, reason: reason(for: error))
        }
    }

    private static func insertAll(_ snapshot: DataSnapshot, _ db: Database) throws {
        for user in snapshot.users { try UserRow(user).insert(db) }
        for stored in snapshot.cards.cards.rows.values {
            try CardRow(stored).insert(db)
            if let image = stored.image { try CardImageRow(cardID: stored.card.id, image: image).insert(db) }
        }
        for (id, family) in snapshot.tokens.families.rows { try TokenFamilyRow(id: id, family).insert(db) }
        for (selector, record) in snapshot.tokens.accessRecords.rows {
            try AccessTokenRow(selector: selector, record).insert(db)
        }
        for (selector, record) in snapshot.tokens.refreshRecords.rows {
            try RefreshTokenRow(selector: selector, record).insert(db)
        }
    }

    /// Everything in the file.
    /// - Throws: ``MockServerError/dataFile(path:reason:)`` when a row cannot be read.
    func load() throws(MockServerError) -> DataSnapshot {
        do {
            return try queue.read { db in
                // Users in the order they were added: the banner lists them so.
                let users = try UserRow.order(Column.rowID).fetchAll(db).map(\.record)
                var images: [String: SeedImage] = [:]
                for row in try CardImageRow.fetchAll(db) { images[row.cardID] = row.image }
                let cards = try CardRow.fetchAll(db).map { $0.stored(image: images[$0.id]) }
                let families = try TokenFamilyRow.fetchAll(db).map { ($0.id, $0.family) }
                let access = try AccessTokenRow.fetchAll(db).map { ($0.selector, $0.record) }
                let refresh = try RefreshTokenRow.fetchAll(db).map { ($0.selector, $0.record) }
                let tokens = TokenBook(
                    accessRecords: Dictionary(access, uniquingKeysWith: { first, _ in first }),
                    refreshRecords: Dictionary(refresh, uniquingKeysWith: { first, _ in first }),
                    families: Dictionary(families, uniquingKeysWith: { first, _ in first }))
                return DataSnapshot(users: users, cards: CardBook(cards: cards), tokens: tokens)
            }
        } catch {
            throw .dataFile(path: path, reason: Self.reason(for: error))
        }
    }

    /// Writes the rows `changes` touched, in one transaction: all of them or none.
    /// - Throws: ``MockServerError/dataFile(path:reason:)`` when the transaction fails.
    func write(_ changes: DataChanges, in snapshot: DataSnapshot) throws(MockServerError) {
        do {
            try queue.write { db in
                // Foreign keys are checked at the commit, so the order of the rows does not matter.
                for (id, change) in changes.tokens.families {
                    try Self.apply(
                        change.before.map { TokenFamilyRow(id: id, $0) },
                        change.after.map { TokenFamilyRow(id: id, $0) }, key: id, db)
                }
                for (selector, change) in changes.tokens.accessRecords {
                    try Self.apply(
                        change.before.map { AccessTokenRow(selector: selector, $0) },
                        change.after.map { AccessTokenRow(selector: selector, $0) }, key: selector, db)
                }
                for (selector, change) in changes.tokens.refreshRecords {
                    try Self.apply(
                        change.before.map { RefreshTokenRow(selector: selector, $0) },
                        change.after.map { RefreshTokenRow(selector: selector, $0) }, key: selector, db)
                }
                for (id, change) in changes.cards.cards {
                    try Self.apply(change.before.map(CardRow.init), change.after.map(CardRow.init), key: id, db)
                    // The image row only when the bytes changed; a deleted card's goes with it
                    // (ON DELETE CASCADE).
                    guard change.after != nil, change.before?.image != change.after?.image else { continue }
                    try Self.apply(
                        change.before?.image.map { CardImageRow(cardID: id, image: $0) },
                        change.after?.image.map { CardImageRow(cardID: id, image: $0) }, key: id, db)
                }
            }
        } catch {
            throw .dataFile(path: path, reason: Self.reason(for: error))
        }
    }

    /// Makes the row `key` go from `before` to `after`: an insert, an update of the columns
    /// that differ (an edit rewrites `fields`, `version` and `updatedAt`, not the card's other
    /// columns or its index entries), or a delete.
    private static func apply<Row: StoredRow>(_ before: Row?, _ after: Row?, key: String, _ db: Database) throws {
        switch (before, after) {
        case (nil, let row?): try row.insert(db)
        case (let old?, let row?): try row.updateChanges(db, from: old)
        case (_, nil): try Row.deleteOne(db, key: key)
        }
    }

    /// Closes the file (the server does so when it stops; later writes fail).
    func close() {
        try? queue.close()
    }

    static let advice = "; move it away and the server starts again from the seed data"
}
