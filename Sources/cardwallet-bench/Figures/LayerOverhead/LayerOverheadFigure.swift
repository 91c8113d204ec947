import CardMockServer
import CardModels
import Synchronization

/// §1: `GET /card/{id}` through the whole `CardAPIClient` (as the TUI builds it) against raw
/// AsyncHTTPClient + `JSONDecoder`, on the in-process mock server, sequentially and with 32
/// requests in flight. The variants between the two show where the overhead comes from.
///
/// Every variant sends the same requests in blocks; blocks alternate between the variants
/// (A B C…, then …C B A), and each block gives one sample: its wall time per request. A block
/// lasts tens of milliseconds, so a burst of load from another process lands on neighbouring
/// blocks of every variant alike, and the ratio is taken block by block.
struct LayerOverheadFigure: Figure {
    /// One measured setting: how many requests in flight, how many per variant in all, per block.
    struct Setting {
        var concurrency: Int
        var requests: Int
        var block: Int
    }

    static let target = 1.10

    func run(_ context: BenchContext) async throws -> [ResultTable] {
        let settings = [
            Setting(
                concurrency: 1, requests: context.pick(full: 5_000, quick: 120),
                block: context.pick(full: 50, quick: 40)),
            Setting(
                concurrency: 32, requests: context.pick(full: 5_000, quick: 256),
                block: context.pick(full: 250, quick: 128)),
        ]
        let fixture = try await LayerFixture.start()
        var tables: [ResultTable] = []
        do {
            let before = fixture.server.statistics
            var sent = 0
            for setting in settings {
                context.progress(
                    "layer-overhead: \(setting.requests) requests per variant at concurrency \(setting.concurrency)")
                let (table, count) = try await measure(setting, fixture: fixture, context: context)
                tables.append(table)
                sent += count
            }
            let after = fixture.server.statistics
            let served =
                after.count(LayerFixture.cardRoute, status: 200) - before.count(LayerFixture.cardRoute, status: 200)
            let all = after.count(LayerFixture.cardRoute) - before.count(LayerFixture.cardRoute)
            let refreshes = after.count(LayerFixture.refreshRoute) - before.count(LayerFixture.refreshRoute)
            guard served == sent, all == sent, refreshes == 0 else {
                throw BenchError(
                    "the server counted \(served) answers 200 (\(all) in all) and \(refreshes) refreshes for \(sent) card requests; expected every one 200 and no refresh"
                )
            }
            let lines = await fixture.stop()
            guard lines > 0 else { throw BenchError("the log pane's subscriber received no event") }
            for index in tables.indices {
                tables[index].notes.append(
                    "Server statistics over both tables: \(Formatting.grouped(sent)) GET /card/{id}, all 200, no token refresh; the log panes made \(Formatting.grouped(lines)) lines."
                )
            }
        } catch {
            _ = await fixture.stop()
            throw error
        }
        return tables
    }

    /// One table: wall time and process CPU per request for every variant.
    private func measure(_ setting: Setting, fixture: LayerFixture, context: BenchContext) async throws
        -> (ResultTable, requests: Int)
    {
        let sampler = Sampler(warmup: 1, rounds: max(1, setting.requests / setting.block))
        let cpu = SampleLog(variants: fixture.variants.count)
        let ids = fixture.ids
        let samples = try await sampler.roundRobin(
            measuring: fixture.variants.enumerated().map { index, variant in
                {
                    let (wall, cpuSeconds) = try await Self.block(
                        variant, ids: ids, count: setting.block, concurrency: setting.concurrency)
                    cpu.append(cpuSeconds / Double(setting.block), to: index)
                    return wall / Double(setting.block)
                }
            })
        let cpuSamples = cpu.values.map { Array($0.dropFirst(sampler.warmup)) }

        var table = ResultTable(
            title:
                "§1 Layer overhead — GET /card/{id}, \(setting.concurrency == 1 ? "sequential" : "\(setting.concurrency) in flight"), per request",
            ratioHeader: "÷ raw client")
        let size = "c=\(setting.concurrency)"
        for (label, values, quantity) in [("wall", samples, "wall time"), ("CPU", cpuSamples, "process CPU")] {
            for (index, variant) in fixture.variants.enumerated() {
                var targets: [Target] = []
                if label == "wall", fixture.judged.contains(index), !context.quick {
                    targets = [.ratio(.atMost(Self.target), "ratio ≤ 1.10 (aim ≤ 1.03)")]
                }
                table.rows.append(
                    ResultRow(
                        label: "\(quantity): \(variant.label)", size: size, summary: Summary(values[index]),
                        quantity: .time, ratio: index == 0 ? nil : Summary.pairedRatios(values[index], values[0]),
                        targets: targets))
            }
        }
        let perVariant = sampler.rounds * setting.block
        table.notes = [
            "\(Formatting.grouped(perVariant)) requests per variant in blocks of \(setting.block) (\(sampler.rounds) rounds after 1 warm-up block), variants alternating block by block (A B … then … B A); a sample is a block's time ÷ its requests; the ratio is the median of the per-round ratios.",
            "The issue's stack is CardAPI with provider, auth interceptor, logger plugin and envelope decoding (the LoggerPlugin row); the TUI's client adds the log pane's subscriber, held to the same target. Each block of a plugin row ends when the plugin has handed its events over and the pane has made their lines, so every row pays for its own log work.",
            "Process CPU is the whole bench process (client, in-process mock server, log pane) per request: what each layer adds to the machine's work, whatever the other cores do.",
            "Ids cycle through the demo user's \(ids.count) cards; every answer is checked (200, the card asked for). One HTTPClient configured like LiveTransport's is shared by the raw baseline and the LiveTransport of rows 2–7 (see docs/BENCHMARKS.md); the last row has its own, as LiveBackends.make builds it.",
            "Every provider admits 8 requests at once (the transport's connections per host; issue 14), so at 32 in flight 24 wait in its admission; the row \"admission without a limit\" lets them all through to wait in AsyncHTTPClient's pool instead, as before.",
        ]
        return (table, (sampler.rounds + sampler.warmup) * setting.block * fixture.variants.count)
    }

    /// Fetches `count` cards with `concurrency` in flight; returns wall and process CPU seconds.
    static func block(_ variant: FetchVariant, ids: [String], count: Int, concurrency: Int) async throws
        -> (wall: Double, cpu: Double)
    {
        let clock = ContinuousClock()
        let cpuStart = ProcessCPU.seconds()
        let start = clock.now
        if concurrency <= 1 {
            for index in 0..<count { try await fetch(variant, ids[index % ids.count]) }
        } else {
            try await withThrowingTaskGroup(of: Void.self) { group in
                for worker in 0..<concurrency {
                    group.addTask {
                        var index = worker
                        while index < count {
                            try await fetch(variant, ids[index % ids.count])
                            index += concurrency
                        }
                    }
                }
                try await group.waitForAll()
            }
        }
        await variant.settle(count)
        let wall = seconds(from: start, to: clock.now)
        return (wall, ProcessCPU.seconds() - cpuStart)
    }

    private static func fetch(_ variant: FetchVariant, _ id: String) async throws {
        let card: Card
        do {
            card = try await variant.fetch(id)
        } catch let error as BenchError {
            throw error
        } catch {
            throw BenchError("\(variant.label): GET /card/\(id) failed: \(error)")
        }
        guard card.id == id else { throw BenchError("\(variant.label): asked for card \(id), got \(card.id)") }
    }
}

/// Numbers a measuring closure records beside the one it returns (CPU time beside wall time).
final class SampleLog: Sendable {
    private let storage: Mutex<[[Double]]>

    init(variants: Int) { storage = Mutex(Array(repeating: [], count: variants)) }

    /// Every value, by variant, in the order appended.
    var values: [[Double]] { storage.withLock { $0 } }

    func append(_ value: Double, to variant: Int) { storage.withLock { $0[variant].append(value) } }
}
