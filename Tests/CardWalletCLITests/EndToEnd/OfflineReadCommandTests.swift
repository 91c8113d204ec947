import CardMockServer
import Foundation
import TestSupport
import Testing

/// `export`, `query`, `qr` and `image` with the local card cache: what they read online is
/// recorded, and they answer the same from the cache once the server is gone or with `--offline`.
extension EndToEndTests {
    @Test func exportQueryQRAndImageAnswerFromTheCacheAfterTheServerIsKilled() async throws {
        try await CLIWorld.with { world in
            try await world.login()
            let commands: [[String]] = [
                ["export"],
                ["export", "demo-02", "--format", "vcard4"],
                ["export", "--format", "json"],
                ["query", "seoul"],
                ["qr", "demo-02"],
                ["image", "demo-01", "--protocol", "blocks", "--width", "10"],
            ]
            var online: [[String]: CLIResult] = [:]
            for command in commands {
                let result = try await world.run(command)
                #expect(result.status == 0 && result.stderr.isEmpty, "\(command): \(result)")
                online[command] = result
            }
            #expect(online[["export"]]?.stdout.contains("PHOTO;ENCODING=b") == true, "the pictures are exported")

            await world.server.stop()
            for command in commands {
                let offline = try await world.run(command)
                #expect(offline.status == 0, "\(command): \(offline)")
                #expect(offline.stderr.hasPrefix("offline — cards as of "), "\(command): \(offline)")
                if command.first == "query" {
                    #expect(offline.stdout.hasPrefix("cardwallet: 1 address for “seoul” (offline — cards as of "))
                    #expect(
                        offline.stdout.hasSuffix("minjun.kim@seoul-data.example\t김민준\t서울데이터랩\n"), "\(offline)")
                } else {
                    #expect(offline.stdout == online[command]?.stdout, "\(command) gives the same output")
                }
            }
            let nothing = try await world.run("query", "zzz-nothing")
            #expect(nothing.status == 1 && nothing.stdout.hasPrefix("cardwallet: 0 addresses"), "\(nothing)")
            let missing = try await world.run("qr", "no-such-card")
            #expect(missing.status == 4, "\(missing)")
        }
    }

    @Test func offlineFlagReadsExportQueryQRAndImageOnlyFromTheCache() async throws {
        try await CLIWorld.with { world in
            try await world.login()
            let none = try await world.run("qr", "demo-01", "--offline")
            #expect(none.status == 6 && none.stderr.contains("no cards are cached"), "\(none)")
            #expect(try await world.run("list").status == 0)
            let reads = world.server.statistics.count("GET /card/{cardId}")

            // Only the list is cached: query answers from its entries, the rest needs whole cards.
            let query = try await world.run("query", "ADA", "--remove-first-line", "--offline")
            #expect(
                query.status == 0 && query.stdout == "ada@analytical.example\tAda Lovelace\tAnalytical Engines Ltd\n")
            #expect(query.stderr.hasPrefix("offline — cards as of "), "\(query)")
            let export = try await world.run("export", "--offline")
            #expect(export.status == 6 && export.stdout.isEmpty, "\(export)")
            // Which cards lack their whole card, named; never an export cut down to list entries.
            #expect(export.stderr.contains("12 cards are cached only as a list entry"), "\(export)")
            #expect(export.stderr.contains("“Ada Lovelace” (demo-01)") && export.stderr.contains("7 more"), "\(export)")
            #expect(export.stderr.contains("cardwallet sync"), "\(export)")
            let unknown = try await world.run("export", "no-such-card", "--offline")
            #expect(unknown.status == 4, "\(unknown)")
            #expect(world.server.statistics.count("GET /card/{cardId}") == reads, "--offline sends nothing")

            // A card shown in full: its QR code offline; its image only once shown online.
            #expect(try await world.run("show", "demo-01").status == 0)
            let qr = try await world.run("qr", "demo-01", "--offline")
            #expect(qr.status == 0 && qr.stdout.contains("█"), "\(qr)")
            let export1 = try await world.run("export", "demo-01", "--offline")
            #expect(export1.status == 0 && export1.stdout.contains("FN:Ada Lovelace"), "\(export1)")
            #expect(!export1.stdout.contains("PHOTO"), "\(export1)")
            #expect(export1.stderr.contains("1 picture is not cached and left out"), "\(export1)")
            let image = ["image", "demo-01", "--protocol", "blocks", "--width", "10"]
            let uncached = try await world.run(image + ["--offline"])
            #expect(uncached.status == 6 && uncached.stderr.contains("image of this card is not cached"), "\(uncached)")
            let shown = try await world.run(image)
            #expect(shown.status == 0, "\(shown)")
            let cached = try await world.run(image + ["--offline"])
            #expect(cached.status == 0 && cached.stdout == shown.stdout, "\(cached)")
            #expect(cached.stderr.hasPrefix("offline — cards as of "), "\(cached)")

            // One card more on the server, added elsewhere (another computer: its own cache), listed
            // here but never read: named alone. (A card added here is cached whole at once.)
            let elsewhere = ["XDG_CACHE_HOME": world.folder.path("elsewhere-cache")]
            #expect(try await world.run(["add", "--name", "Listed Only"], environment: elsewhere).status == 0)
            #expect(try await world.run("list").status == 0)
            #expect(try await world.run("export").status == 0)
            #expect(try await world.run(["add", "--name", "Listed Later"], environment: elsewhere).status == 0)
            #expect(try await world.run("list").status == 0)
            let partial = try await world.run("export", "--offline")
            #expect(partial.status == 6 && partial.stdout.isEmpty, "\(partial)")
            #expect(partial.stderr.contains("1 card is cached only as a list entry"), "\(partial)")
            #expect(partial.stderr.contains("“Listed Later”") && !partial.stderr.contains("Listed Only"), "\(partial)")
        }
    }

    @Test func syncReadsEveryWholeCardSoAnOfflineExportHasThemAll() async throws {
        try await CLIWorld.with { world in
            try await world.login()
            let before = try await world.run("export", "--offline")
            #expect(before.status == 6, "\(before)")
            let sync = try await world.run("sync")
            #expect(sync.status == 0 && sync.stdout.contains("12 card(s) in the cache, each in full"), "\(sync)")
            // The 12 whole cards in one batch read, none one by one.
            #expect(world.server.statistics.count("GET /cards/whole") == 1, "each whole card read once")
            #expect(world.server.statistics.count("GET /card/{cardId}") == 0)
            let export = try await world.run("export", "--offline")
            #expect(export.status == 0, "\(export)")
            #expect(
                export.stdout.components(separatedBy: "BEGIN:VCARD").count - 1 == 12, "\(export.stdout.prefix(300))")
            #expect(export.stderr.hasPrefix("offline — cards as of "), "\(export)")
            let again = try await world.run("sync")
            #expect(again.status == 0, "\(again)")
            #expect(world.server.statistics.count("GET /cards/whole") == 1, "a second sync reads none again")
        }
    }
}
