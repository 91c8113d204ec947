import CardCache
import CardModels
import Foundation
import Testing

/// The cache file read by a program we did not write: the `sqlite3` shell (Debian's `sqlite3`,
/// installed by `scripts/bootstrap`). It proves the file is a plain SQLite database in WAL mode
/// that another process can read and write while the cache has it open, that its FTS5 tables
/// answer in a stock SQLite, and that nothing in it is a token or a password.
@Suite("The cache file in the sqlite3 shell")
struct SQLiteShellTests {
    /// Runs `sqlite3 arguments…` and returns its standard output.
    private func sqlite3(_ arguments: [String]) throws -> String {
        let path = ["/usr/bin/sqlite3", "/usr/local/bin/sqlite3"].first {
            FileManager.default.isExecutableFile(atPath: $0)
        }
        let shell = try #require(path, "the sqlite3 shell is not installed (scripts/bootstrap installs it)")
        let process = Process()
        process.executableURL = URL(fileURLWithPath: shell)
        process.arguments = ["-batch", "-bail"] + arguments
        let output = Pipe()
        let errors = Pipe()
        process.standardOutput = output
        process.standardError = errors
        try process.run()
        let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        let problems = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        #expect(process.terminationStatus == 0, "sqlite3: \(problems)")
        return text
    }

    @Test func theShellReadsTheOpenCacheAndItsIndex() throws {
        let world = try CacheWorld()
        let cache = try world.open()
        try cache.storeList(Cards.wallet.map(\.summary), confirmedAt: Cards.date)
        try cache.storeCards(Cards.wallet, confirmedAt: Cards.date)
        // Read while our pool has the file open in WAL mode: the shell sees every commit.
        let lines = try sqlite3([
            "-readonly", world.path,
            "PRAGMA application_id; PRAGMA journal_mode; SELECT count(*) FROM card;"
                + " SELECT card.id FROM cardSearch JOIN card ON card.key = cardSearch.rowid WHERE cardSearch MATCH '\"데이터\"';"
                + " SELECT json_extract(detail, '$.name') FROM card WHERE id = 'c-zoe';"
                + " SELECT group_concat(identifier) FROM grdb_migrations; PRAGMA integrity_check;",
        ]).split(separator: "\n").map(String.init)
        #expect(
            lines == [
                "1129800545", "wal", "6", "c-minjun", "Zoë Dvořák",
                "v1: cards, images, wallet, search, outbox,v2: outbox claims with a lease, idempotency keys of additions",
                "ok",
            ])
        cache.close()
    }

    @Test func anotherProcessWritingMeanwhileIsFine() throws {
        let world = try CacheWorld()
        let cache = try world.open()
        try cache.storeList(Cards.wallet.map(\.summary), confirmedAt: Cards.date)
        // The shell takes the write lock and changes a row; our next write waits its turn
        // (busy timeout), and our next read sees the shell's change.
        _ = try sqlite3([
            world.path, ".timeout 10000", "UPDATE card SET name = 'Renamed by sqlite3' WHERE id = 'c-ada';",
        ])
        try cache.storeOrder(["c-yuki"])
        let list = try #require(try cache.list())
        #expect(list.cards.first?.id == "c-yuki")
        #expect(list.cards.first { $0.id == "c-ada" }?.name == "Renamed by sqlite3")
        cache.close()
    }

    @Test func theSchemaHoldsNoSecrets() throws {
        let world = try CacheWorld()
        let cache = try world.open()
        try cache.storeCards(Cards.wallet, confirmedAt: Cards.date)
        let schema = try sqlite3(["-readonly", world.path, ".schema"]).lowercased()
        #expect(schema.contains("\"card\" ("))
        // (FTS5's `tokenize` option is the one "token" allowed.)
        for word in ["accesstoken", "refreshtoken", "access_token", "password", "secret", "authorization", "bearer"] {
            #expect(!schema.contains(word), "\(word)")
        }
        cache.close()
    }
}
