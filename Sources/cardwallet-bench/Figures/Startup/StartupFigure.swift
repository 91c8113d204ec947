import Foundation
import OwnThreads

/// §6: `cardwallet --help`, from spawn to exit, against `/bin/true` (the cost of starting any
/// process here) in interleaved rounds; and `cardwallet demo` from spawn to its first complete
/// frame in a pseudo-terminal (the rule of §4's ``FrameWatch``).
struct StartupFigure: Figure {
    static let floor = "/bin/true"
    /// The demo's login form fills in this email: the form is on screen once it shows.
    static let demoMarker = "demo@cardwallet.dev"

    func run(_ context: BenchContext) async throws -> [ResultTable] {
        let cardwallet = try context.cardwallet()
        let (status, output) = try Spawn.captured(cardwallet, ["--help"])
        guard status == 0, output.contains("USAGE:") else {
            throw BenchError("cardwallet --help exited with status \(status) without printing its usage")
        }
        let sampler = Sampler(warmup: context.pick(full: 5, quick: 1), rounds: context.pick(full: 40, quick: 3))
        let samples = try await sampler.roundRobin(measuring: [
            { try Self.time(cardwallet, ["--help"]) },
            { try Self.time(Self.floor, []) },
        ])
        let demoSampler = Sampler(warmup: context.pick(full: 1, quick: 0), rounds: context.pick(full: 10, quick: 1))
        let rules = context.pick(
            full: TerminalRules(frameQuiet: 0.4, keyQuiet: 0.15, keystrokes: 0, startupLimit: 30),
            quick: TerminalRules(frameQuiet: 0.25, keyQuiet: 0.1, keystrokes: 0, startupLimit: 60))
        context.progress("startup: cardwallet demo to first frame")
        let demo = try await demoFrames(cardwallet, sampler: demoSampler, rules: rules)

        var table = ResultTable(title: "§6 Startup", ratioHeader: "÷ /bin/true")
        table.rows = [
            ResultRow(
                label: "cardwallet --help, spawn to exit", size: "", summary: Summary(samples[0]), quantity: .time,
                ratio: Summary.pairedRatios(samples[0], samples[1])),
            ResultRow(
                label: "/bin/true, spawn to exit (process start floor)", size: "", summary: Summary(samples[1]),
                quantity: .time),
            ResultRow(
                label: "cardwallet demo, spawn to first byte written", size: "80×24",
                summary: Summary(demo.map(\.firstByte)), quantity: .time),
            ResultRow(
                label: "cardwallet demo, spawn to first complete frame", size: "80×24",
                summary: Summary(demo.map(\.startup)),
                quantity: .time),
            ResultRow(
                label: "  bytes of that frame", size: "80×24",
                summary: Summary(demo.map { Double($0.firstFrameBytes) }),
                quantity: .count),
            ResultRow(
                label: "  resident memory (VmRSS) then", size: "80×24",
                summary: Summary(demo.map { Double($0.memory.residentBytes) }), quantity: .bytes),
        ]
        table.notes = [
            "--help: posix_spawn to waitpid, output to /dev/null, \(sampler.rounds) interleaved rounds after \(sampler.warmup) warm-up; binary: \(cardwallet).",
            "demo: \(demoSampler.rounds) runs after \(demoSampler.warmup) warm-up in an 80×24 pseudo-terminal (as in §4); the frame is complete once it shows \"\(Self.demoMarker)\" (the login form's filled-in email) and nothing arrives for \(Int(rules.frameQuiet * 1000)) ms; its time is that of its last byte. The demo starts its mock server in the process first (two bcrypt password hashes at the configured cost) before the terminal is set up. Esc quits it.",
            "No target in the issue for either.",
        ]
        return [table]
    }

    /// `cardwallet demo` runs in a pseudo-terminal, each quit at its first frame.
    private func demoFrames(_ cardwallet: String, sampler: Sampler, rules: TerminalRules) async throws -> [TerminalRun]
    {
        let folder = try TemporaryFolder("demo")
        defer { folder.remove() }
        let program = TerminalProgram(
            label: "cardwallet demo", path: cardwallet, arguments: ["demo"],
            environment: TerminalFixture.terminalEnvironment(home: try folder.folder("home")).merging([
                // The demo appends its network log under XDG_STATE_HOME and keeps its tokens under TMPDIR.
                "XDG_STATE_HOME": try folder.folder("state"),
                "XDG_CONFIG_HOME": try folder.folder("config"),
                "TMPDIR": try folder.folder("tmp"),
            ]) { $1 },
            marker: Self.demoMarker, quit: [0x1B])
        var runs: [TerminalRun] = []
        for round in 0..<(sampler.warmup + sampler.rounds) {
            let run = try await OwnThread.run(name: "cardwallet-bench.pty") {
                try TerminalSession.run(program, columns: 80, rows: 24, rules: rules)
            }
            if round >= sampler.warmup { runs.append(run) }
        }
        return runs
    }

    private static func time(_ path: String, _ arguments: [String]) throws -> Double {
        let outcome = try Spawn.timed(path, arguments)
        guard outcome.status == 0 else {
            throw BenchError("\(path) \(arguments.joined(separator: " ")) exited with status \(outcome.status)")
        }
        return outcome.seconds
    }
}
