import CardMockServer
import Foundation
import OwnThreads

/// #40: the All view's first frame from the cache — three books of 5,000 cards each, of three
/// accounts — against one book of 15,000 in the same rounds (the target: within 1.2×), and what
/// the background sync costs while nothing changes (requests and CPU per sync of three books).
struct AllViewFigure: Figure {
    static let perBook = 5_000
    static let size = (columns: 80, rows: 24)

    func run(_ context: BenchContext) async throws -> [ResultTable] {
        let cardwallet = try context.cardwallet()
        let perBook = context.pick(full: Self.perBook, quick: 100)
        let rules = context.pick(
            full: TerminalRules(frameQuiet: 0.4, keyQuiet: 0.15, keystrokes: 0, startupLimit: 60),
            quick: TerminalRules(frameQuiet: 0.25, keyQuiet: 0.1, keystrokes: 0, startupLimit: 60))
        let sampler = Sampler(warmup: context.pick(full: 1, quick: 0), rounds: context.pick(full: 9, quick: 1))
        context.progress("all-view: caching 3 books of \(perBook) cards and one of \(perBook * 3)")
        let fixture = try await AllViewFixture.start(perBook: perBook, cardwallet: cardwallet)
        do {
            let window = context.pick(full: 10.0, quick: 3.0)
            context.progress("all-view: the idle sync of 3 unchanged books for \(Int(window)) s")
            let idle = try await fixture.idleSync(cardwallet: cardwallet, seconds: window)
            let port = fixture.server.baseURL.port ?? 0
            await fixture.server.stop()
            let refused = try RefusedPort(port: port)
            defer { refused.close() }
            context.progress("all-view: first frames, \(sampler.rounds) rounds")
            var all: [CacheFrameRun] = []
            var single: [CacheFrameRun] = []
            let programs = [
                TerminalProgram(
                    label: "all", path: cardwallet, arguments: [], environment: fixture.all,
                    marker: TerminalFixture.marker),
                TerminalProgram(
                    label: "single", path: cardwallet, arguments: [], environment: fixture.single,
                    marker: TerminalFixture.marker),
            ]
            for round in 0..<(sampler.warmup + sampler.rounds) {
                for position in Sampler.order(count: 2, round: round) {
                    let program = programs[position]
                    let run = try await OwnThread.run(name: "cardwallet-bench.pty") {
                        try CacheFrameSession.run(
                            program, columns: Self.size.columns, rows: Self.size.rows, rules: rules)
                    }
                    guard round >= sampler.warmup else { continue }
                    if position == 0 { all.append(run) } else { single.append(run) }
                }
            }
            await fixture.stop()
            return [
                table(all: all, single: single, idle: idle, window: window, perBook: perBook, judged: !context.quick)
            ]
        } catch {
            await fixture.stop()
            throw error
        }
    }

    private func table(
        all: [CacheFrameRun], single: [CacheFrameRun], idle: (requests: Int, syncs: Double, cpu: Double),
        window: Double, perBook: Int, judged: Bool
    ) -> ResultTable {
        let size = "\(Self.size.columns)×\(Self.size.rows)"
        let allFrames = all.map(\.cacheFrame)
        let singleFrames = single.map(\.cacheFrame)
        var table = ResultTable(
            title:
                "#40 The All view's first frame from the cache — 3 books × \(Formatting.grouped(perBook)) vs 1 book × \(Formatting.grouped(perBook * 3)); the idle sync",
            ratioHeader: "÷ one book")
        table.rows = [
            ResultRow(
                label: "All view (3 accounts' books): first frame", size: size, summary: Summary(allFrames),
                quantity: .time, ratio: Summary.pairedRatios(allFrames, singleFrames),
                targets: judged ? [.ratio(.atMost(1.2), "≤ 1.2× one book")] : []),
            ResultRow(
                label: "  CPU used by then (all threads)", size: size, summary: Summary(all.map(\.cpuAtCacheFrame)),
                quantity: .time,
                ratio: Summary.pairedRatios(all.map(\.cpuAtCacheFrame), single.map(\.cpuAtCacheFrame))),
            ResultRow(
                label: "one book: first frame", size: size, summary: Summary(singleFrames), quantity: .time),
            ResultRow(
                label: "  CPU used by then (all threads)", size: size,
                summary: Summary(single.map(\.cpuAtCacheFrame)), quantity: .time),
            ResultRow(
                label: "idle sync of 3 unchanged books: requests per sync", size: "3 books",
                summary: Summary(single: idle.syncs > 0 ? Double(idle.requests) / idle.syncs : 0), quantity: .count),
            ResultRow(
                label: "  CPU per sync (= per minute at syncInterval 60)", size: "3 books",
                summary: Summary(single: idle.syncs > 0 ? idle.cpu / idle.syncs : 0), quantity: .time),
        ]
        table.notes = [
            "\(all.count) rounds, one session of each wallet in each, the order alternating; the ratio is the median of the per-round ratios.",
            "Both wallets' caches were filled by `cardwallet sync` (`--book all` for the three accounts) from the in-process mock server, which was then stopped and its port held refused; the All view was remembered as shown (books.json), so its first frame is every book's cache merged (Bookshelf.cachedListings). The first frame is the output chunk that completes a card of the list (“\(TerminalFixture.marker)”) with the status bar's cache text (docs/BENCHMARKS.md, #17's rule).",
            "Idle sync: `cardwallet sync --book all --watch --interval 1` for \(String(format: "%.0f", window)) s on the three unchanged books, before the server was stopped: \(idle.requests) requests, \(String(format: "%.1f", idle.syncs)) syncs (requests ÷ 3 books ÷ \((perBook + AllViewFixture.pageSize - 1) / AllViewFixture.pageSize) pages a book: the card API has no sync token, so an unchanged book costs its whole list; a CardDAV book with a sync token costs one REPORT), \(String(format: "%.3f", idle.cpu)) s of CPU (getrusage of the child). At the default syncInterval of 60 s that is one sync a minute.",
        ]
        return table
    }
}
