import Foundation
import OwnThreads

/// #17: the wallet's first frame painted from the local cache at 1,000 cards, against abook on
/// the same contacts (its first complete frame) and `khard list` on a vdir of them (to its exit),
/// in interleaved rounds; then the pieces that bound our first frame (``StartupPieces``).
struct FirstFrameFigure: Figure {
    static let cards = 1_000
    static let size = (columns: 80, rows: 24)

    func run(_ context: BenchContext) async throws -> [ResultTable] {
        let cardwallet = try context.cardwallet()
        let baseline = try context.baseline()
        let abook = TerminalFixture.onPath("abook")
        let khard = try Self.khard()
        if !context.quick, abook == nil || khard == nil {
            throw BenchError(
                "the comparison needs abook (apt-get install abook) and khard (pip install -r scripts/requirements-interop.txt); --quick runs without them"
            )
        }
        let count = context.pick(full: Self.cards, quick: 100)
        let rules = context.pick(
            full: TerminalRules(frameQuiet: 0.4, keyQuiet: 0.15, keystrokes: 0, startupLimit: 30),
            quick: TerminalRules(frameQuiet: 0.25, keyQuiet: 0.1, keystrokes: 0, startupLimit: 60))
        let sampler = Sampler(warmup: context.pick(full: 2, quick: 0), rounds: context.pick(full: 15, quick: 1))
        context.progress("first-frame: caching \(count) cards with cardwallet sync, exporting a vdir")
        let fixture = try await FirstFrameFixture.start(count: count, cardwallet: cardwallet)
        let tables: [ResultTable]
        do {
            let runs = try await measure(
                fixture: fixture, cardwallet: cardwallet, baseline: baseline, abook: abook, khard: khard,
                sampler: sampler, rules: rules)
            let pieces = try await StartupPieces.measure(context, cardwallet: cardwallet, fixture: fixture)
            tables = [table(runs, count: count, sampler: sampler, rules: rules, judged: !context.quick), pieces]
        } catch {
            await fixture.stop()
            throw error
        }
        await fixture.stop()
        return tables
    }

    /// What the rounds measured: each program's samples, in seconds.
    struct Runs {
        var wallet: [CacheFrameRun] = []
        var abook: [TerminalRun] = []
        var khard: [Double] = []
        var khardCPU: [Double] = []
        var abookPath: String?
        var khardPath: String?
        /// The `--baseline-cardwallet` build's sessions, in the same rounds.
        var baseline: [CacheFrameRun] = []
        var baselinePath: String?
    }

    /// The programs of one round.
    private enum Contender {
        case wallet, abook, khard, baseline
    }

    private func measure(
        fixture: FirstFrameFixture, cardwallet: String, baseline: String?, abook: String?, khard: String?,
        sampler: Sampler, rules: TerminalRules
    ) async throws -> Runs {
        let size = Self.size
        func walletProgram(_ label: String, _ path: String) -> TerminalProgram {
            TerminalProgram(
                label: label, path: path, arguments: [], environment: fixture.environment,
                marker: TerminalFixture.marker)
        }
        func cacheFrame(_ program: TerminalProgram) async throws -> CacheFrameRun {
            try await OwnThread.run(name: "cardwallet-bench.pty") {
                try CacheFrameSession.run(program, columns: size.columns, rows: size.rows, rules: rules)
            }
        }
        let wallet = walletProgram("cardwallet", cardwallet)
        let baselineWallet = baseline.map { walletProgram("cardwallet (baseline)", $0) }
        let abookProgram = try abook.map { try fixture.terminal.abook(executable: $0, columns: size.columns) }
        if let khard {
            let listed = try Spawn.captured(khard, ["-c", fixture.khardConfiguration, "list"])
            guard listed.status == 0, listed.output.contains(TerminalFixture.marker) else {
                throw BenchError("khard list on the vdir exited with status \(listed.status) without the cards")
            }
        }
        var runs = Runs(abookPath: abook, khardPath: khard, baselinePath: baseline)
        let contenders: [Contender] =
            [.wallet] + (abookProgram == nil ? [] : [.abook]) + (khard == nil ? [] : [.khard])
            + (baselineWallet == nil ? [] : [.baseline])
        for round in 0..<(sampler.warmup + sampler.rounds) {
            let keep = round >= sampler.warmup
            for position in Sampler.order(count: contenders.count, round: round) {
                switch contenders[position] {
                case .wallet:
                    let run = try await cacheFrame(wallet)
                    if keep { runs.wallet.append(run) }
                case .baseline:
                    guard let baselineWallet else { continue }
                    let run = try await cacheFrame(baselineWallet)
                    if keep { runs.baseline.append(run) }
                case .abook:
                    guard let program = abookProgram else { continue }
                    let run = try await OwnThread.run(name: "cardwallet-bench.pty") {
                        try TerminalSession.run(program, columns: size.columns, rows: size.rows, rules: rules)
                    }
                    if keep { runs.abook.append(run) }
                case .khard:
                    guard let khard else { continue }
                    let outcome = try Spawn.timed(khard, ["-c", fixture.khardConfiguration, "list"])
                    guard outcome.status == 0 else {
                        throw BenchError("khard list exited with status \(outcome.status)")
                    }
                    if keep {
                        runs.khard.append(outcome.seconds)
                        runs.khardCPU.append(outcome.cpuSeconds)
                    }
                }
            }
        }
        return runs
    }

    private func table(_ runs: Runs, count: Int, sampler: Sampler, rules: TerminalRules, judged: Bool)
        -> ResultTable
    {
        let size = "\(Self.size.columns)×\(Self.size.rows)"
        let cards = Formatting.grouped(count)
        let frames = runs.wallet.map(\.cacheFrame)
        let abookFrames = runs.abook.map(\.startup)
        var table = ResultTable(
            title:
                "#17 First frame from the cache — \(cards) cards, cardwallet vs abook and khard\(runs.abook.isEmpty || runs.khard.isEmpty ? " (abook or khard not installed: skipped)" : "")",
            ratioHeader: "÷ abook")
        table.rows = [
            ResultRow(
                label: "cardwallet: first frame from the cache", size: size, summary: Summary(frames), quantity: .time,
                ratio: runs.abook.isEmpty ? nil : Summary.pairedRatios(frames, abookFrames),
                targets: judged ? [.ratio(.atMost(3), "≤ 3× abook")] : []),
            ResultRow(
                label: "  first byte written", size: size, summary: Summary(runs.wallet.map(\.firstByte)),
                quantity: .time),
            ResultRow(
                label: "  settled (then quiet for the rule's window)", size: size,
                summary: Summary(runs.wallet.map(\.settled)), quantity: .time,
                ratio: runs.abook.isEmpty ? nil : Summary.pairedRatios(runs.wallet.map(\.settled), abookFrames)),
        ]
        let walletCPU = runs.wallet.map(\.cpuAtCacheFrame)
        let abookCPU = runs.abook.map(\.cpuAtFirstFrame)
        table.rows.append(
            ResultRow(
                label: "  CPU used by then (all threads)", size: size, summary: Summary(walletCPU), quantity: .time,
                ratio: runs.abook.isEmpty ? nil : Summary.pairedRatios(walletCPU, abookCPU)))
        if !runs.abook.isEmpty {
            table.rows.append(
                ResultRow(
                    label: "abook: first complete frame", size: size, summary: Summary(abookFrames), quantity: .time))
            table.rows.append(
                ResultRow(label: "  CPU used by then", size: size, summary: Summary(abookCPU), quantity: .time))
        }
        if !runs.khard.isEmpty {
            table.rows.append(
                ResultRow(
                    label: "khard list: spawn to exit", size: cards, summary: Summary(runs.khard), quantity: .time))
            table.rows.append(
                ResultRow(label: "  CPU used", size: cards, summary: Summary(runs.khardCPU), quantity: .time))
            table.rows.append(
                ResultRow(
                    label: "khard ÷ cardwallet (how far ahead we are)", size: "", summary: nil, quantity: .count,
                    ratio: Summary.pairedRatios(runs.khard, frames),
                    targets: judged ? [.ratio(.atLeast(10), "≥ 10× ahead of khard")] : []))
            table.rows.append(
                ResultRow(
                    label: "  the same in CPU time", size: "", summary: nil, quantity: .count,
                    ratio: Summary.pairedRatios(runs.khardCPU, walletCPU)))
        }
        if !runs.baseline.isEmpty {
            let baselineFrames = runs.baseline.map(\.cacheFrame)
            let baselineCPU = runs.baseline.map(\.cpuAtCacheFrame)
            table.rows += [
                ResultRow(
                    label: "baseline build: first frame from the cache", size: size, summary: Summary(baselineFrames),
                    quantity: .time,
                    ratio: runs.abook.isEmpty ? nil : Summary.pairedRatios(baselineFrames, abookFrames)),
                ResultRow(
                    label: "  CPU used by then (all threads)", size: size, summary: Summary(baselineCPU),
                    quantity: .time,
                    ratio: runs.abook.isEmpty ? nil : Summary.pairedRatios(baselineCPU, abookCPU)),
                ResultRow(
                    label: "this build ÷ baseline build: first frame", size: "", summary: nil, quantity: .count,
                    ratio: Summary.pairedRatios(frames, baselineFrames)),
                ResultRow(
                    label: "  the same in CPU time", size: "", summary: nil, quantity: .count,
                    ratio: Summary.pairedRatios(walletCPU, baselineCPU)),
            ]
        }
        let statuses = Dictionary(grouping: runs.wallet.map(\.status), by: { $0 }).mapValues(\.count)
        table.notes = [
            "\(sampler.rounds) rounds after \(sampler.warmup) warm-up; in each, one session of every program, the order alternating (A B C, C B A); ratios are medians of the per-round ratios.",
            "cardwallet: the wallet with a stored session; its cache (\(cards) cards) was filled by `cardwallet sync` from the in-process mock server, which was then stopped and its port held bound but not listening, so the list request is refused at once. Its first frame is the chunk of output that completes a card of the list (“\(TerminalFixture.marker)”) and the status bar's cache text (\(statuses.map { "“\($0.key)” \($0.value)×" }.sorted().joined(separator: ", "))); settled is its last byte before \(Int(rules.frameQuiet * 1000)) ms of quiet (“offline” on screen by then in \(runs.wallet.filter(\.offlineShown).count) of \(runs.wallet.count) sessions: the refused list request answered from the cache). The bench answers its terminal query (DA1) as a VT220-class terminal would.",
            "abook: §4's addressbook export of the same cards and its abookrc at 80 columns; its first complete frame is §4's rule (“\(TerminalFixture.marker)” on screen, then \(Int(rules.frameQuiet * 1000)) ms of quiet; the time of its last byte).",
            "CPU: the child's process CPU-time clock (clock_getcpuclockid: user + system, every thread) read when its frame was complete, and wait4's rusage for khard; less moved by the other processes on the machine than the times.",
            "khard: \(runs.khardPath ?? "not installed") -c khard.conf list, on the vdir `cardwallet export --vdir` wrote from the same cards; spawn to exit, output to /dev/null.",
        ]
        if let baseline = runs.baselinePath {
            table.notes.append(
                "baseline build: \(baseline) (--baseline-cardwallet), one more session in every round, on the same cache and the same rules; “this build ÷ baseline build” is the median of the per-round ratios (below 1: this build is faster)."
            )
        }
        return table
    }

    /// khard's own script (not a pyenv shim, which would add a shell and pyenv's start-up).
    static func khard() throws -> String? {
        guard let found = TerminalFixture.onPath("khard") else { return nil }
        guard found.contains("/shims/"), let pyenv = TerminalFixture.onPath("pyenv") else { return found }
        let resolved = try Spawn.captured(pyenv, ["which", "khard"])
        let path = resolved.output.trimmingCharacters(in: .whitespacesAndNewlines)
        return resolved.status == 0 && FileManager.default.isExecutableFile(atPath: path) ? path : found
    }
}
