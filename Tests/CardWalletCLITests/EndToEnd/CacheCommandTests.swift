import CardCache
import CardMockServer
import CardModels
import Foundation
import Logging
import TestSupport
import Testing

/// The scripting commands with the local card cache: online answers recorded, offline answers
/// from the cache once the server is gone, changes refused offline, `sync` sending the outbox
/// once, logout wiping the cache.
extension EndToEndTests {
    /// The cache folder of the commands `world` runs (`$HOME/.cache/cardwallet`).
    static func cacheFolder(_ world: CLIWorld) -> String { world.folder.path("home") + "/.cache/cardwallet" }

    /// The test account's cache, opened as the commands open it.
    static func cache(_ world: CLIWorld) throws -> CardCache {
        try CardCache.open(
            server: world.server.baseURLString, account: CLIWorld.email,
            location: CacheLocation(folder: cacheFolder(world)),
            logger: Logger(label: "test.cache"))
    }

    @Test func readsWorkOfflineFromTheCacheAfterTheServerIsKilled() async throws {
        try await CLIWorld.with { world in
            try await world.login()
            let online = try await world.run("list")
            #expect(online.status == 0 && online.stderr.isEmpty, "\(online)")
            let found = try await world.run("list", "--query", "파이프라인")
            #expect(found.status == 0, "\(found)")
            #expect(
                found.stdout.contains("MATCH") && found.stdout.contains("demo-02") && found.stdout.contains("bio"),
                "\(found)")
            #expect(try await world.run("show", "demo-02").status == 0)

            await world.server.stop()
            let offline = try await world.run("list")
            #expect(offline.status == 0, "\(offline)")
            #expect(offline.stdout == online.stdout)
            #expect(offline.stderr.hasPrefix("offline — cards as of "), "\(offline)")
            let shown = try await world.run("show", "demo-02", "--json")
            #expect(shown.status == 0 && shown.stdout.contains("김민준"), "\(shown)")
            let search = try await world.run("list", "--query", "zzz-nothing")
            #expect(search.status == 0 && search.stdout.contains("No cards match"), "\(search)")
            let phone = try await world.run("list", "--query", "10 1234-5678", "--json")
            #expect(phone.status == 0 && phone.stdout.contains("demo-02"), "\(phone)")
            let change = try await world.run("rm", "demo-02", "--yes")
            #expect(change.status == 6, "\(change)")

            // Nothing of the session is in the cache files.
            let tokens = try world.storedTokens()
            #expect(!tokens.isEmpty)
            for name in try FileManager.default.contentsOfDirectory(atPath: Self.cacheFolder(world)) {
                let bytes = try Data(contentsOf: URL(fileURLWithPath: Self.cacheFolder(world) + "/" + name))
                for token in tokens { #expect(bytes.range(of: Data(token.utf8)) == nil, "a token in \(name)") }
                #expect(bytes.range(of: Data(CLIWorld.password.utf8)) == nil, "the password in \(name)")
            }
        }
    }

    @Test func offlineFlagAnswersWithoutTheNetworkAndRefusesChanges() async throws {
        try await CLIWorld.with { world in
            try await world.login()
            let nothing = try await world.run("list", "--offline")
            #expect(nothing.status == 6 && nothing.stderr.contains("no cards are cached"), "\(nothing)")
            #expect(try await world.run("list").status == 0)
            let lists = world.server.statistics.count("GET /cards")
            let offline = try await world.run("list", "--offline", "--json")
            #expect(offline.status == 0 && offline.stderr.hasPrefix("offline — cards as of "), "\(offline)")
            #expect(world.server.statistics.count("GET /cards") == lists, "--offline sends nothing")
            let add = try await world.run("add", "--name", "Nope", "--offline")
            #expect(add.status == 6 && add.stderr.contains("nothing was changed"), "\(add)")
            let missing = try await world.run("show", "no-such-card", "--offline")
            #expect(missing.status == 4, "\(missing)")
        }
    }

    @Test func syncSendsTheOutboxOnceAndLogoutWipesTheCache() async throws {
        try await CLIWorld.with { world in
            try await world.login()
            #expect(try await world.run("show", "demo-01").status == 0)
            let cache = try Self.cache(world)
            let ada = try #require(try cache.card(id: "demo-01")).card
            var fields = ada.fields
            fields.title = "Edited Offline"
            try cache.enqueue(.edit(cardID: ada.id, fields: fields, baseRevision: ada.revision))
            try cache.enqueue(.add(localID: "local:1", fields: CardFields(name: "Made Offline"), image: nil))
            cache.close()

            let sync = try await world.run("sync")
            #expect(sync.status == 0 && sync.stdout.hasPrefix("Sent 2 change(s);"), "\(sync)")
            let again = try await world.run("sync")
            #expect(again.status == 0 && again.stdout.hasPrefix("Sent 0 change(s);"), "\(again)")
            let shown = try await world.run("show", "demo-01", "--json")
            #expect(shown.stdout.contains("Edited Offline"))
            let list = try await world.run("list", "--json")
            #expect(list.stdout.components(separatedBy: "Made Offline").count == 2, "added exactly once")

            #expect(try await world.run("logout").status == 0)
            let left = (try? FileManager.default.contentsOfDirectory(atPath: Self.cacheFolder(world))) ?? []
            #expect(!left.contains { $0.hasSuffix(".sqlite") }, "\(left)")
        }
    }
}
