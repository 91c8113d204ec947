import AsyncHTTPClient
@_spi(Benchmarks) import CardMockServer
import Foundation

/// #17: mock server writes per second under a mixed write load with `--data`, at 100 and at
/// 10,000 cards: the SQLite database (the server's store), the same with an fsync per commit,
/// and the JSON file of earlier versions (rewritten whole on every write), side by side in
/// interleaved rounds.
struct MockServerWritesFigure: Figure {
    /// Writes in flight.
    static let concurrency = 8

    /// A store and how the table names it.
    private struct Store {
        var name: String
        var format: DataFileFormat
        /// Whether the targets apply (the server's own store).
        var judged: Bool
    }

    private static let stores = [
        Store(name: "SQLite (the server's store)", format: .sqlite, judged: true),
        Store(name: "SQLite, fsync per commit", format: .sqlitePowerSafe, judged: false),
        Store(name: "JSON file (earlier versions)", format: .legacyJSON, judged: false),
    ]

    func run(_ context: BenchContext) async throws -> [ResultTable] {
        let sizes = context.pick(full: [100, 10_000], quick: [20, 200])
        let client = LoadGenerator.makeClient(connections: Self.concurrency)
        let folder = try TemporaryFolder("writes")
        var servers: [WriteServer] = []
        do {
            for store in Self.stores {
                for size in sizes {
                    context.progress("mock-server-writes: starting the \(store.name) server with \(size) cards")
                    servers.append(
                        try await WriteServer.start(
                            store: store.name, format: store.format, cards: size, folder: folder, client: client))
                }
            }
            let table = try await measure(servers, sizes: sizes, client: client, context: context)
            for server in servers { await server.server.stop() }
            try await client.shutdown()
            folder.remove()
            return [table]
        } catch {
            for server in servers { await server.server.stop() }
            try? await client.shutdown()
            folder.remove()
            throw error
        }
    }

    private func measure(
        _ servers: [WriteServer], sizes: [Int], client: HTTPClient, context: BenchContext
    ) async throws -> ResultTable {
        let duration = context.pick(full: 1.0, quick: 0.2)
        let sampler = Sampler(warmup: context.pick(full: 1, quick: 0), rounds: context.pick(full: 7, quick: 1))
        let load = WriteLoad(client: client)
        var round = 0
        context.progress("mock-server-writes: \(servers.count) servers, \(sampler.rounds) rounds of \(duration) s each")
        let samples = try await sampler.roundRobin(
            measuring: servers.map { server in
                {
                    round += 1
                    return try await load.writesPerSecond(
                        server, concurrency: Self.concurrency, seconds: duration, round: round)
                }
            })

        var table = ResultTable(
            title: "#17 Mock server — writes per second with --data, mixed write load",
            ratioHeader: "÷ same store at \(Formatting.grouped(sizes[0])) cards")
        for (storeIndex, store) in Self.stores.enumerated() {
            for (sizeIndex, size) in sizes.enumerated() {
                let index = storeIndex * sizes.count + sizeIndex
                let base = samples[storeIndex * sizes.count]
                var targets: [Target] = []
                if store.judged, !context.quick {
                    targets.append(.median(.atLeast(500), "≥ 500/s"))
                    if sizeIndex > 0 {
                        targets.append(.ratio(.atLeast(1 / 1.3), "÷ ≥ 0.77"))
                        targets.append(.ratio(.atMost(1.3), "÷ ≤ 1.3"))
                    }
                }
                table.rows.append(
                    ResultRow(
                        label: store.name, size: "\(Formatting.grouped(size)) cards", summary: Summary(samples[index]),
                        quantity: .rate, ratio: sizeIndex > 0 ? Summary.pairedRatios(samples[index], base) : nil,
                        targets: targets))
            }
        }
        table.notes = notes(servers, samples: samples, sizes: sizes, duration: duration, sampler: sampler)
        return table
    }

    private func notes(
        _ servers: [WriteServer], samples: [[Double]], sizes: [Int], duration: Double, sampler: Sampler
    ) -> [String] {
        let sqliteOverJSON = sizes.indices.map { sizeIndex -> String in
            let json = samples[2 * sizes.count + sizeIndex]
            let ratio = Summary.pairedRatios(samples[sizeIndex], json).map { Formatting.ratio($0.median) } ?? "?"
            return "\(ratio)× at \(Formatting.grouped(sizes[sizeIndex])) cards"
        }
        let files = servers.map {
            "\($0.store) at \(Formatting.grouped($0.cards)): \(Formatting.format(Double($0.fileBytes), as: .bytes))"
        }
        return [
            "Each sample: \(duration) s of closed-loop load from the bench's AsyncHTTPClient, \(Self.concurrency) writes in flight on keep-alive connections to an in-process mock server with --data in a temporary folder; every five writes of a worker are 2 PUT /card/{id} (new fields), 1 POST /card, 1 DELETE /card/{id} (a card it created) and 1 PUT /card/{id}/image (1 kB); every answer checked for 200/201. Rounds alternate the servers (A…F, F…A), \(sampler.rounds) rounds after \(sampler.warmup) warm-up.",
            "Seed wallets: one user's N cards with every field filled and a 2 kB image on every twentieth. Data file sizes after the run: "
                + files.joined(separator: "; ") + ".",
            "SQLite ÷ JSON file (paired rounds): " + sqliteOverJSON.joined(separator: ", ") + ".",
            "The server's store commits one transaction per write in WAL mode with synchronous = NORMAL (no fsync per commit: safe from kill -9, a power cut may lose the last commits); the fsync-per-commit rows show what an fsync per write costs on this disk. The JSON file is written, fsynced, renamed and its folder fsynced on every write, as earlier versions did.",
        ]
    }
}
