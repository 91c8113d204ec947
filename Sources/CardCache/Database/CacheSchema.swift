import CardModels
import Foundation
import GRDB

/// The tables of a cache database and how each version of cardwallet gets there.
///
/// Migrations are never edited once released: a new version adds one, and GRDB's
/// `DatabaseMigrator` applies what a file lacks when it is opened. A file written by a newer
/// version (a migration this one does not know) is not touched: it is moved aside and a new
/// cache is started, as for a damaged one — the cache only holds copies of what the server said.
/// Each migration reads only what it writes down itself (the first one's search columns are
/// listed in ``firstSearchColumns``), never the field list of the code that runs it.
///
/// The one part of the schema that follows the code is the full-text tables' columns: one per
/// searched field of the descriptors (`CardField.searched`). After the migrations, the opening
/// compares them and, when a field was added or removed, makes both tables again and puts every
/// card on the search backlog (``SearchIndex/rebuildIfStale(_:)``) — so a new field needs no
/// migration. (A cardwallet from before this rule names the columns it writes and reads, so it
/// still works with tables that have a column more.)
///
/// - `cacheInfo`: which server and account the file belongs to.
/// - `card`: one row per card of the wallet: the summary `GET /cards` gives, its place in the
///   wallet, when the server last confirmed it, and the whole card (`GET /card/{id}`, with its
///   kept vCard properties) as JSON when it has been read.
/// - `cardImage`: a card's picture, with the card version it belongs to.
/// - `wallet`: when the whole list was last confirmed, the sync token that came with it (for a
///   backend that syncs by token), and `generation`, which triggers raise on
///   every card added, removed or moved (by any process), so a search knows when its copy of
///   the wallet order is stale.
/// - `cardSearch`, `cardWords`: the full-text indexes (docs/Cache.md, *Search*).
/// - `outbox`: changes made offline, in order, with their state; since v3 also who claimed an
///   entry to send it and until when (`claimant`, `leaseExpiresAt`), and an addition's
///   `idempotencyKey` (docs/Cache.md, *The claim and the lease*).
/// - `cardGroup` (v4): the groups of a CardDAV book (group vCards, which are not cards): name,
///   revision and the members' UIDs; a card shows the names of the groups its UID is in.
/// - `card.detailSource` (v5): the whole card's source (a CardDAV card's vCard) apart from its
///   JSON record, which then stays small.
/// - `searchBacklog` (v5): the card rows stored but not yet in the full-text indexes (a first
///   sync defers them: docs/Cache.md, *Search*); a row here has no index entries, and every
///   search indexes them first.
///
/// Revisions (the card API's versions, a CardDAV server's `ETag`s) are opaque text since the
/// second migration: the first stored them as integers, and it also compared them.
enum CacheSchema {
    /// `PRAGMA application_id` of cache files ("CWca"), read from the file's header before
    /// SQLite opens it: a database of another program is moved aside, never changed.
    static let applicationID: Int32 = 0x4357_6361

    /// The searched columns of `cardSearch` and `cardWords` as the first migration made them.
    /// Never changed: today's columns are the descriptors' (``SearchIndex/columns``), and the
    /// opening makes the tables again when they differ (``SearchIndex/rebuildIfStale(_:)``).
    static let firstSearchColumns = [
        "name", "company", "department", "title", "email", "phone", "website", "address", "bio", "tmi", "tags",
    ]

    /// Brings a file up to date: the numbered migrations, then the full-text tables' columns.
    static func migrate(_ writer: some DatabaseWriter) throws {
        try migrator.migrate(writer)
        _ = try writer.write { db in try SearchIndex.rebuildIfStale(db) }
    }

    /// Whether a file needs nothing of ``migrate(_:)``.
    static func isCurrent(_ db: Database) throws -> Bool {
        let migrator = migrator
        return try migrator.hasCompletedMigrations(db) && !migrator.hasBeenSuperseded(db) && SearchIndex.isCurrent(db)
    }

    /// The migrations, oldest first.
    static var migrator: DatabaseMigrator {
        var migrator = DatabaseMigrator()
        migrator.registerMigration("v1: cards, images, wallet, search, outbox") { db in
            try db.execute(sql: "PRAGMA application_id = \(applicationID)")
            try db.create(table: "cacheInfo") { t in
                t.primaryKey("key", .text)
                t.column("value", .text).notNull()
            }
            try db.create(table: "card") { t in
                // The integer key is the full-text indexes' rowid.
                t.column("key", .integer).primaryKey()
                t.column("id", .text).notNull().unique()
                t.column("position", .integer).notNull().indexed()
                t.column("name", .text).notNull()
                t.column("title", .text)
                t.column("company", .text)
                t.column("email", .text)
                t.column("defaultImage", .integer).notNull()
                t.column("hasImage", .boolean).notNull()
                // Seconds since 2001-01-01 (Foundation's own representation, so a card's date comes back
                // bit for bit equal); every other date column is seconds since 1970.
                t.column("updatedAt", .double).notNull()
                t.column("version", .integer).notNull()
                t.column("confirmedAt", .double).notNull()
                t.column("detail", .jsonText)
                t.column("detailVersion", .integer)
                t.column("detailConfirmedAt", .double)
            }
            try db.create(table: "cardImage") { t in
                t.primaryKey("cardID", .text).references("card", column: "id", onDelete: .cascade)
                t.column("version", .integer).notNull()
                t.column("contentType", .text).notNull()
                t.column("data", .blob).notNull()
                t.column("confirmedAt", .double).notNull()
            }
            try db.create(table: "wallet") { t in
                t.column("id", .integer).primaryKey().check { $0 == 1 }
                t.column("listConfirmedAt", .double)
            }
            try db.execute(sql: "INSERT INTO wallet (id, listConfirmedAt) VALUES (1, NULL)")
            try db.alter(table: "wallet") { t in t.add(column: "generation", .integer).notNull().defaults(to: 0) }
            for (name, event) in [
                ("cardAdded", "INSERT"), ("cardRemoved", "DELETE"), ("cardMoved", "UPDATE OF position"),
            ] {
                try db.execute(
                    sql:
                        "CREATE TRIGGER \(name) AFTER \(event) ON card BEGIN UPDATE wallet SET generation = generation + 1; END"
                )
            }
            // The searched fields of the first version, as they were: the tables follow today's
            // fields after the migrations (`SearchIndex.rebuildIfStale`).
            try SearchIndex.create(columns: firstSearchColumns, db)
            try db.create(table: "outbox") { t in
                t.autoIncrementedPrimaryKey("id")
                t.column("kind", .text).notNull()
                t.column("cardID", .text)
                t.column("baseVersion", .integer)
                t.column("payload", .jsonText)
                t.column("imageData", .blob)
                t.column("imageContentType", .text)
                t.column("state", .text).notNull().indexed()
                t.column("attempts", .integer).notNull().defaults(to: 0)
                t.column("lastError", .text)
                t.column("createdAt", .double).notNull()
                t.column("updatedAt", .double).notNull()
            }
        }
        migrator.registerMigration("v2: revisions are opaque text; the cache's own card encoding") { db in
            try migrateToTextRevisions(db)
        }
        migrator.registerMigration(claimsAndKeys, migrate: addClaimsAndKeys)
        migrator.registerMigration("v4: groups of cards (a CardDAV book's group vCards)") { db in
            try db.create(table: "cardGroup") { t in
                t.primaryKey("id", .text)
                t.column("name", .text).notNull()
                t.column("revision", .text).notNull()
                // The members' UIDs, lower-cased, as a JSON array.
                t.column("members", .text).notNull()
            }
        }
        migrator.registerMigration("v5: a whole card's source beside its record; rows waiting to be indexed") { db in
            // Cards stored before keep their source inside `detail`; CardRecord reads both.
            try db.alter(table: "card") { t in t.add(column: "detailSource", .text) }
            // The rows a first sync stored without indexing them: indexed before the next search.
            try db.create(table: "searchBacklog") { t in
                t.primaryKey("key", .integer)
            }
        }
        return migrator
    }

    /// The second migration: every revision column becomes a text column (added, filled from
    /// the integer one, which is dropped), and each whole card is written again in the cache's
    /// own encoding (``CardRecord``) instead of the card API's JSON.
    static func migrateToTextRevisions(_ db: Database) throws {
        for (table, old, new, notNull) in [
            ("card", "version", "revision", true), ("card", "detailVersion", "detailRevision", false),
            ("cardImage", "version", "revision", true), ("outbox", "baseVersion", "baseRevision", false),
        ] {
            try db.execute(
                sql: "ALTER TABLE \(table) ADD COLUMN \(new) TEXT" + (notNull ? " NOT NULL DEFAULT ''" : ""))
            try db.execute(sql: "UPDATE \(table) SET \(new) = CAST(\(old) AS TEXT) WHERE \(old) IS NOT NULL")
            try db.execute(sql: "ALTER TABLE \(table) DROP COLUMN \(old)")
        }
        // The token a backend that syncs by token (CardDAV) hands out with a listing.
        try db.execute(sql: "ALTER TABLE wallet ADD COLUMN syncToken TEXT")
        let decoder = CardWalletJSON.decoder()
        let rows = try Row.fetchAll(db, sql: "SELECT key, detail FROM card WHERE detail IS NOT NULL")
        for row in rows {
            let key: Int64 = row[0]
            let old: String = row[1]
            guard let card = try? decoder.decode(Card.self, from: Data(old.utf8)) else {
                // A whole card that cannot be read is read again from the server.
                try db.execute(
                    sql: "UPDATE card SET detail = NULL, detailRevision = NULL, detailConfirmedAt = NULL WHERE key = ?",
                    arguments: [key])
                continue
            }
            try db.execute(
                sql: "UPDATE card SET detail = ? WHERE key = ?", arguments: [try CardRecord.text(card), key])
        }
    }

    /// The third migration's name.
    static let claimsAndKeys = "v3: outbox claims with a lease, idempotency keys of additions"

    /// Entries are claimed before they are sent (`claimant`, `leaseExpiresAt`), and additions
    /// carry the key they are sent with. A v1 addition gets its key now; one already handed to
    /// the network once went without a key, so it is marked `sending` with no lease: the next
    /// replay looks for its card on the server before sending it again.
    private static func addClaimsAndKeys(_ db: Database) throws {
        try db.alter(table: "outbox") { t in
            t.add(column: "claimant", .text)
            t.add(column: "leaseExpiresAt", .double)
            t.add(column: "idempotencyKey", .text)
        }
        for id in try Int64.fetchAll(db, sql: "SELECT id FROM outbox WHERE kind = 'add'") {
            try db.execute(
                sql: "UPDATE outbox SET idempotencyKey = ? WHERE id = ?", arguments: [UUID().uuidString, id])
        }
        try db.execute(
            sql: "UPDATE outbox SET state = 'sending' WHERE kind = 'add' AND state = 'pending' AND attempts > 0")
    }
}
