import CardCache
import CardModels
import Foundation
import GRDB
import Testing

#if canImport(Glibc)
    import Glibc
#endif

@Suite("Opening the cache: where, modes, migrations, damaged files")
struct OpeningTests {
    @Test func theDefaultLocationFollowsXDG() throws {
        #expect(
            try CacheLocation(environment: ["XDG_CACHE_HOME": "/x/cache", "HOME": "/home/u"]).folder
                == "/x/cache/cardwallet")
        #expect(try CacheLocation(environment: ["HOME": "/home/u"]).folder == "/home/u/.cache/cardwallet")
        // Relative and empty values are ignored, as the XDG specification says.
        #expect(
            try CacheLocation(environment: ["XDG_CACHE_HOME": "rel", "HOME": "/home/u"]).folder
                == "/home/u/.cache/cardwallet")
        #expect(throws: CacheError.self) { try CacheLocation(environment: ["XDG_CACHE_HOME": ""]) }
    }

    @Test func oneFilePerServerAndAccount() throws {
        let location = CacheLocation(folder: "/c")
        let a = location.databasePath(server: "http://a/v1", account: "x@y")
        #expect(a == location.databasePath(server: "http://a/v1", account: "X@Y"))
        #expect(a != location.databasePath(server: "http://b/v1", account: "x@y"))
        #expect(a != location.databasePath(server: "http://a/v1", account: "z@y"))
        #expect(!a.contains("x@y"))
    }

    /// Under the test runner's umask; under umask 000, in `cardwallet` processes (the umask is
    /// process-wide): `EndToEndTests.tokensLogAndCacheArePrivateUnderUmask000`.
    @Test func filesArePrivate() throws {
        let world = try CacheWorld()
        let cache = try world.open()
        try cache.storeCards(Cards.wallet, confirmedAt: Cards.date)
        #expect(try mode(world.location.folder) == 0o700)
        for suffix in ["", "-wal", "-shm", ".lock"] {
            #expect(try mode(world.path + suffix) == 0o600, "\(suffix)")
        }
        cache.close()
    }

    @Test func aFolderOthersCouldEnterIsMadePrivate() throws {
        let world = try CacheWorld()
        try FileManager.default.createDirectory(atPath: world.location.folder, withIntermediateDirectories: true)
        chmod(world.location.folder, 0o755)
        _ = try world.open()
        #expect(try mode(world.location.folder) == 0o700)
    }

    @Test func migrationsAreRecordedAndReopeningKeepsTheData() throws {
        let world = try CacheWorld()
        try world.open().storeCards(Cards.wallet, confirmedAt: Cards.date)
        let queue = try DatabaseQueue(path: world.path)
        let applied = try queue.read { try String.fetchAll($0, sql: "SELECT identifier FROM grdb_migrations") }
        #expect(applied == CacheFixture.migrations)
        let tables = try queue.read {
            try String.fetchAll($0, sql: "SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name")
        }
        for table in ["card", "cardImage", "cardSearch", "cardWords", "outbox", "wallet", "cacheInfo"] {
            #expect(tables.contains(table))
        }
        let mode = try queue.read { try String.fetchOne($0, sql: "PRAGMA journal_mode") }
        #expect(mode == "wal")
        try queue.close()
        #expect(try world.open().card(id: "c-grace")?.card == Cards.wallet[4])
        #expect(world.warnings.isEmpty)
    }

    @Test(arguments: [
        ("garbage", Array("this is not a database at all, just some text that fills a file".utf8)),
        ("a truncated header", Array("SQLite format 3\0".utf8) + [0, 16]),
    ])
    func anUnusableFileIsMovedAsideAndTheCacheStartsAgain(_ label: String, _ bytes: [UInt8]) throws {
        let world = try CacheWorld()
        try world.open().storeCards(Cards.wallet, confirmedAt: Cards.date)
        try Data(bytes).write(to: URL(fileURLWithPath: world.path))
        let cache = try world.open()
        #expect(try cache.state().cards == 0)
        try cache.storeCards([Cards.wallet[0]], confirmedAt: Cards.date)
        #expect(try cache.state().cards == 1)
        #expect(FileManager.default.contents(atPath: world.path + ".damaged") == Data(bytes))
        #expect(world.warnings.count == 1, "\(world.warnings)")
        #expect(world.warnings.first?.contains("moved aside") == true)
    }

    @Test func aTruncatedDatabaseIsMovedAside() throws {
        let world = try CacheWorld()
        let cache = try world.open()
        try cache.storeCards(
            (0..<300).map { Cards.card("c\($0)", "Card \($0)") { $0.bio = String(repeating: "x", count: 400) } },
            confirmedAt: Cards.date)
        cache.close()
        let whole = try Data(contentsOf: URL(fileURLWithPath: world.path))
        try whole.prefix(whole.count / 2).write(to: URL(fileURLWithPath: world.path))
        let reopened = try world.open()
        #expect(try reopened.state().cards == 0)
        #expect(world.warnings.count == 1)
        #expect(world.warnings.first?.contains("truncated") == true, "\(world.warnings)")
    }

    @Test func anotherProgramsDatabaseIsNeverChanged() throws {
        let world = try CacheWorld()
        try FileManager.default.createDirectory(atPath: world.location.folder, withIntermediateDirectories: true)
        let foreign = try DatabaseQueue(path: world.path)
        try foreign.write { try $0.execute(sql: "CREATE TABLE notes (text TEXT); INSERT INTO notes VALUES ('mine')") }
        try foreign.close()
        let before = try Data(contentsOf: URL(fileURLWithPath: world.path))
        _ = try world.open()
        #expect(try Data(contentsOf: URL(fileURLWithPath: world.path + ".damaged")) == before)
        #expect(world.warnings.first?.contains("another program") == true, "\(world.warnings)")
    }

    /// A new cache still held open (its header's application id waiting in the write-ahead
    /// log) is opened again by a second process, or the interface's second caches: the same
    /// file, never taken for another program's.
    /// Opening a cache that is up to date and this account's only reads (one transaction):
    /// a script writing to it at that moment does not hold the interface's first frame up.
    @Test func anUpToDateCacheOpensWhileAnotherConnectionWrites() throws {
        let world = try CacheWorld()
        try world.open().storeList(Cards.wallet.map(\.summary), confirmedAt: Cards.date)
        var configuration = Configuration()
        configuration.allowsUnsafeTransactions = true
        let writer = try DatabaseQueue(path: world.path, configuration: configuration)
        try writer.writeWithoutTransaction { db in
            // A script that has written already (its write-ahead log is not empty: GRDB writes
            // one transaction at an opening that finds it empty), and is writing again.
            try db.execute(sql: "UPDATE card SET name = 'Before' WHERE id = 'c-grace'")
            try db.execute(sql: "BEGIN IMMEDIATE")
            try db.execute(sql: "UPDATE card SET name = 'Changing' WHERE id = 'c-grace'")
        }
        // The write lock is held until the writer commits: an opening that took it would wait
        // out the cache's busy timeout (10 s) and then fail.
        let cache = try world.open()
        #expect(try cache.list()?.cards.map(\.id) == Cards.wallet.map(\.id))
        #expect(try cache.list()?.cards.first { $0.id == "c-grace" }?.name == "Before")
        try writer.writeWithoutTransaction { try $0.execute(sql: "COMMIT") }
        #expect(try cache.list()?.cards.first { $0.id == "c-grace" }?.name == "Changing")
        #expect(world.warnings.isEmpty, "\(world.warnings)")
        cache.close()
        try writer.close()
    }

    @Test func aNewCacheOpenElsewhereIsSharedNotMovedAside() throws {
        let world = try CacheWorld()
        let first = try world.open()
        try first.storeCards(Cards.wallet, confirmedAt: Cards.date)
        #expect(FileManager.default.fileExists(atPath: world.path + "-wal"))
        let second = try world.open()
        #expect(try second.state().fullCards == Cards.wallet.count)
        #expect(!FileManager.default.fileExists(atPath: world.path + ".damaged"))
        #expect(world.warnings.isEmpty, "\(world.warnings)")
        second.close()
        first.close()
    }

    /// Another program's database in WAL mode whose header has no application id yet is
    /// still recognised (through SQLite) and never changed.
    @Test func anotherProgramsDatabaseInWALModeIsNeverChanged() throws {
        let world = try CacheWorld()
        try FileManager.default.createDirectory(atPath: world.location.folder, withIntermediateDirectories: true)
        let foreign = try DatabasePool(path: world.path)
        try foreign.write { try $0.execute(sql: "CREATE TABLE notes (text TEXT); INSERT INTO notes VALUES ('mine')") }
        #expect(FileManager.default.fileExists(atPath: world.path + "-wal"))
        _ = try world.open()
        #expect(world.warnings.first?.contains("another program") == true, "\(world.warnings)")
        #expect(FileManager.default.fileExists(atPath: world.path + ".damaged"))
        try foreign.close()
    }

    @Test func aFileOfANewerVersionIsMovedAside() throws {
        let world = try CacheWorld()
        try world.open().close()
        let queue = try DatabaseQueue(path: world.path)
        try queue.write {
            try $0.execute(sql: "INSERT INTO grdb_migrations (identifier) VALUES ('v99: from the future')")
        }
        try queue.close()
        _ = try world.open()
        #expect(world.warnings.first?.contains("newer version") == true, "\(world.warnings)")
    }

    @Test func aFileOfAnotherAccountIsMovedAside() throws {
        let world = try CacheWorld()
        try world.open().storeCards(Cards.wallet, confirmedAt: Cards.date)
        let other = world.location.databasePath(server: CacheWorld.server, account: "other@example.com")
        try FileManager.default.copyItem(atPath: world.path, toPath: other)
        let cache = try world.open(account: "other@example.com")
        #expect(try cache.state().cards == 0)
        #expect(world.warnings.first?.contains("another server or account") == true, "\(world.warnings)")
    }

    @Test func damageFoundWhileInUseMovesTheFileAside() throws {
        let world = try CacheWorld()
        let cache = try world.open()
        try cache.storeCards(
            (0..<300).map { Cards.card("c\($0)", "Card \($0)") { $0.bio = String(repeating: "y", count: 400) } },
            confirmedAt: Cards.date)
        cache.close()
        // Scribble over the middle of the file, past the header and the schema.
        let handle = try #require(FileHandle(forWritingAtPath: world.path))
        let size = try handle.seekToEnd()
        try handle.seek(toOffset: size / 2)
        try handle.write(contentsOf: Data(repeating: 0xA5, count: 16_384))
        try handle.close()
        let damaged = try world.open()
        var failures = 0
        for read in [
            { _ = try damaged.list() }, { _ = try damaged.search("card", limit: nil) },
            { _ = try damaged.search("yyy", limit: nil) },
        ]
            + (0..<300).map({ id in { _ = try damaged.card(id: "c\(id)") } })
        {
            do { try read() } catch { failures += 1 }
        }
        #expect(failures > 0)
        #expect(world.warnings.count == 1, "\(world.warnings)")
        #expect(FileManager.default.fileExists(atPath: world.path + ".damaged"))
        #expect(try world.open().state().cards == 0)
    }

    private func mode(_ path: String) throws -> mode_t {
        var info = stat()
        guard stat(path, &info) == 0 else { throw CacheError("no file at \(path)") }
        return info.st_mode & 0o777
    }
}
