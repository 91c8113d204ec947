import Foundation
import OwnThreads

/// §4: `cardwallet` and abook, each showing the same 1,000 contacts in a pseudo-terminal at
/// 80×24 and 200×60: time to the first complete frame, bytes of that frame, bytes and time per
/// `j` keystroke, resident memory. The two programs alternate session by session (A B, B A, …)
/// and ratios are taken round by round.
struct TerminalBytesFigure: Figure {
    static let cards = 1_000
    static let sizes: [(columns: Int, rows: Int)] = [(80, 24), (200, 60)]

    func run(_ context: BenchContext) async throws -> [ResultTable] {
        let cardwallet = try context.cardwallet()
        let abook = TerminalFixture.onPath("abook")
        if abook == nil, !context.quick {
            throw BenchError(
                "abook is not installed: the comparison needs it (apt-get install abook); --quick runs without it")
        }
        let rules = context.pick(
            full: TerminalRules(frameQuiet: 0.4, keyQuiet: 0.15, keystrokes: 10, startupLimit: 30),
            quick: TerminalRules(frameQuiet: 0.25, keyQuiet: 0.1, keystrokes: 2, startupLimit: 60))
        let sampler = Sampler(warmup: context.pick(full: 1, quick: 0), rounds: context.pick(full: 8, quick: 1))
        let sizes = context.pick(full: Self.sizes, quick: [Self.sizes[0]])

        let fixture = try await TerminalFixture.start(count: Self.cards)
        var table = ResultTable(
            title:
                "§4 Bytes to the terminal — \(Formatting.grouped(Self.cards)) contacts, cardwallet vs abook\(abook == nil ? " (abook not installed: skipped)" : "")",
            ratioHeader: "÷ abook")
        do {
            for size in sizes {
                context.progress(
                    "terminal-bytes: \(size.columns)×\(size.rows)\(abook == nil ? " (abook not installed: cardwallet only)" : "")"
                )
                var programs = [fixture.wallet(executable: cardwallet)]
                if let abook { programs.append(try fixture.abook(executable: abook, columns: size.columns)) }
                let runs = try await measure(programs, size: size, sampler: sampler, rules: rules, fixture: fixture)
                table.rows += rows(runs, labels: programs.map(\.label), size: size, judged: !context.quick)
                for (program, sessions) in zip(programs, runs) {
                    guard let first = sessions.first else { continue }
                    let keys = zip(first.keystrokeBytes, first.keystrokeSeconds)
                        .map { "\($0) B/\(Formatting.format($1, as: .time))" }
                    table.notes.append(
                        "\(program.label) at \(size.columns)×\(size.rows), first measured session, each j: \(keys.joined(separator: ", "))."
                    )
                }
            }
        } catch {
            await fixture.stop()
            throw error
        }
        await fixture.stop()
        table.notes = notes(rules: rules, sampler: sampler, abook: abook) + table.notes
        return [table]
    }

    /// `runs[p][r]`: program `p` in round `r`, after the warm-up rounds.
    private func measure(
        _ programs: [TerminalProgram], size: (columns: Int, rows: Int), sampler: Sampler, rules: TerminalRules,
        fixture: TerminalFixture
    ) async throws -> [[TerminalRun]] {
        var runs = Array(repeating: [TerminalRun](), count: programs.count)
        for round in 0..<(sampler.warmup + sampler.rounds) {
            for position in Sampler.order(count: programs.count, round: round) {
                let program = programs[position]
                let listed = fixture.listRequests
                let run = try await OwnThread.run(name: "cardwallet-bench.pty") {
                    try TerminalSession.run(program, columns: size.columns, rows: size.rows, rules: rules)
                }
                // The wallet's frame must come from the server, not from a cache or an error screen.
                if position == 0, fixture.listRequests == listed {
                    throw BenchError("cardwallet showed a first frame without asking the server for the list")
                }
                if let silent = run.keystrokeBytes.firstIndex(of: 0) {
                    throw BenchError("\(program.label): keystroke \(silent + 1) changed nothing on the screen")
                }
                if round >= sampler.warmup { runs[position].append(run) }
            }
        }
        return runs
    }

    private func rows(_ runs: [[TerminalRun]], labels: [String], size: (columns: Int, rows: Int), judged: Bool)
        -> [ResultRow]
    {
        let sizeLabel = "\(size.columns)×\(size.rows)"
        let hasBaseline = runs.count > 1
        func median(_ values: [Double]) -> Double { Summary(values)?.median ?? 0 }
        func one(_ value: @escaping (TerminalRun) -> Double) -> Measure.Values { { [value($0)] } }
        let measures = [
            Measure("startup: first byte written", .time, target: false, all: one(\.firstByte), perRun: \.firstByte),
            Measure(
                "startup: \"\(TerminalFixture.marker)\" on screen", .time, target: false, all: one(\.markerShown),
                perRun: \.markerShown),
            Measure("startup: first complete frame", .time, target: true, all: one(\.startup), perRun: \.startup),
            Measure(
                "bytes of the first frame", .count, target: false, all: one { Double($0.firstFrameBytes) },
                perRun: { Double($0.firstFrameBytes) }),
            Measure(
                "bytes per j keystroke", .count, target: true, all: { $0.keystrokeBytes.map(Double.init) },
                perRun: { median($0.keystrokeBytes.map(Double.init)) }),
            Measure(
                "j to last byte written", .time, target: false, all: \.keystrokeSeconds,
                perRun: { median($0.keystrokeSeconds) }),
            Measure(
                "resident memory (VmRSS)", .bytes, target: true, all: one { Double($0.memory.residentBytes) },
                perRun: { Double($0.memory.residentBytes) }),
            Measure(
                "  of which anonymous (RssAnon)", .bytes, target: false,
                all: one { Double($0.memory.anonymousBytes ?? 0) }, perRun: { Double($0.memory.anonymousBytes ?? 0) }),
        ]
        var rows: [ResultRow] = []
        for measure in measures {
            for (position, label) in labels.enumerated() {
                let isWallet = position == 0
                let ratio =
                    isWallet && hasBaseline
                    ? Summary.pairedRatios(runs[0].map(measure.perRun), runs[1].map(measure.perRun)) : nil
                let targets: [Target] =
                    isWallet && hasBaseline && judged && measure.target
                    ? [.ratio(.atMost(1), "no worse than abook")] : []
                rows.append(
                    ResultRow(
                        label: "\(measure.label): \(label)", size: sizeLabel,
                        summary: Summary(runs[position].flatMap(measure.all)), quantity: measure.quantity, ratio: ratio,
                        targets: targets))
            }
        }
        return rows
    }

    /// One measured quantity of a run: every sample of it, and the one number per run the
    /// ratio pairs.
    private struct Measure {
        typealias Values = (TerminalRun) -> [Double]
        var label: String
        var quantity: Quantity
        var target: Bool
        var all: Values
        var perRun: (TerminalRun) -> Double

        init(
            _ label: String, _ quantity: Quantity, target: Bool, all: @escaping Values,
            perRun: @escaping (TerminalRun) -> Double
        ) {
            self.label = label
            self.quantity = quantity
            self.target = target
            self.all = all
            self.perRun = perRun
        }
    }

    private func notes(rules: TerminalRules, sampler: Sampler, abook: String?) -> [String] {
        var notes = [
            "Each program runs in its own pseudo-terminal (openpty; the terminal is its controlling terminal; TERM=xterm-256color, LANG=C.UTF-8, a private HOME). \(sampler.rounds) sessions per program and size after \(sampler.warmup) warm-up, the programs alternating session by session; the ratio is the median of the per-round ratios.",
            "First frame: complete once the output contains \"\(TerminalFixture.marker)\" (sample card 1, the second row of both lists) and then nothing arrives for \(Int(rules.frameQuiet * 1000)) ms (longer than the TUI's 100 ms spinner period, so a list still loading never counts); its time is that of its last byte, from posix_spawn. Its bytes are everything written until then, terminal set-up included.",
            "Keystrokes: \(rules.keystrokes) × j per session, each typed after the previous answer went quiet for \(Int(rules.keyQuiet * 1000)) ms; a keystroke's bytes are everything written until it went quiet. Memory: /proc/PID/status of the program after the keystrokes; RssAnon is its heap and stacks, the rest of VmRSS (RssFile) the pages of its executable and shared libraries it touched.",
            "cardwallet: the wallet (no subcommand) with a stored session on the in-process mock server (\(Formatting.grouped(Self.cards)) sample cards, the bench's other process): it opens on the list and loads its first page over HTTP. Every session must send GET /cards; a keystroke that writes nothing fails the figure.",
        ]
        if let abook {
            notes.append(
                "abook: \(abook) --datafile (the same \(Formatting.grouped(Self.cards)) cards exported to its addressbook format) --config (custom fields company/title/department and an index_format with the TUI's four list columns at the TUI's widths)."
            )
        } else {
            notes.append(
                "abook is not installed (Debian package abook): the comparison was skipped; only cardwallet ran.")
        }
        return notes
    }
}
