import GRDB

/// The tables of the `--data` database and how each version of the server gets there.
///
/// Migrations are never edited once released: a new version of the server adds one, and
/// GRDB's `DatabaseMigrator` applies what a file lacks when the server opens it. A card's
/// editable fields are one JSON column (the API's own encoding of ``CardModels/CardFields``),
/// so a new card field needs no migration; only what the server looks cards up by (id, owner,
/// position) has columns of its own.
enum DatabaseSchema {
    /// `PRAGMA application_id` of our files ("CWms"): read from the file's header before SQLite
    /// opens it, so another program's database is refused without being touched.
    static let applicationID: Int32 = 0x4357_6D73

    /// The migrations, oldest first.
    static var migrator: DatabaseMigrator {
        var migrator = DatabaseMigrator()
        migrator.registerMigration("v1: users, cards, images, tokens") { db in
            try db.execute(sql: "PRAGMA application_id = \(applicationID)")
            try db.create(table: UserRow.databaseTableName) { t in
                t.primaryKey("id", .text)
                t.column("email", .text).notNull()
                t.column("name", .text).notNull()
                t.column("passwordHash", .text).notNull()
            }
            try db.create(table: CardRow.databaseTableName) { t in
                t.primaryKey("id", .text)
                t.column("ownerID", .text).notNull().indexed()
                    .references(UserRow.databaseTableName, onDelete: .cascade, deferred: true)
                t.column("position", .integer).notNull()
                t.column("version", .integer).notNull()
                t.column("createdAt", .double).notNull()
                t.column("updatedAt", .double).notNull()
                t.column("imageContentType", .text)
                t.column("imageSize", .integer)
                t.column("fields", .jsonText).notNull()
            }
            try db.create(table: CardImageRow.databaseTableName) { t in
                t.primaryKey("cardID", .text)
                    .references(CardRow.databaseTableName, onDelete: .cascade, deferred: true)
                t.column("contentType", .text).notNull()
                t.column("data", .blob).notNull()
            }
            try db.create(table: TokenFamilyRow.databaseTableName) { t in
                t.primaryKey("id", .text)
                t.column("userID", .text).notNull()
                    .references(UserRow.databaseTableName, onDelete: .cascade, deferred: true)
                t.column("revoked", .boolean).notNull()
            }
            for table in [AccessTokenRow.databaseTableName, RefreshTokenRow.databaseTableName] {
                try db.create(table: table) { t in
                    t.primaryKey("selector", .text)
                    t.column("verifier", .blob).notNull()
                    t.column("familyID", .text).notNull().indexed()
                        .references(TokenFamilyRow.databaseTableName, onDelete: .cascade, deferred: true)
                    t.column("userID", .text).notNull()
                    t.column("expiresAt", .double).notNull()
                    if table == RefreshTokenRow.databaseTableName { t.column("state", .text).notNull() }
                }
            }
        }
        return migrator
    }
}
