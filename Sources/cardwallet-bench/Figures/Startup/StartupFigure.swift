import Foundation

/// §6 (first half): `cardwallet --help`, from spawn to exit, against `/bin/true` (the cost of
/// starting any process here) in interleaved rounds. `cardwallet demo` to its first painted
/// frame waits for the full TUI.
struct StartupFigure: Figure {
    static let floor = "/bin/true"

    func run(_ context: BenchContext) async throws -> [ResultTable] {
        let cardwallet = context.cardwalletExecutable
        guard FileManager.default.isExecutableFile(atPath: cardwallet) else {
            throw BenchError(
                "no cardwallet executable at \(cardwallet): build it first (swift build --product cardwallet, with -c release for the record) or pass --cardwallet PATH")
        }
        let (status, output) = try Spawn.captured(cardwallet, ["--help"])
        guard status == 0, output.contains("USAGE:") else {
            throw BenchError("cardwallet --help exited with status \(status) without printing its usage")
        }
        let sampler = Sampler(warmup: context.pick(full: 5, quick: 1), rounds: context.pick(full: 40, quick: 3))
        let samples = try await sampler.roundRobin(measuring: [
            { try Self.time(cardwallet, ["--help"]) },
            { try Self.time(Self.floor, []) },
        ])
        var table = ResultTable(title: "§6 Startup — spawn to exit", ratioHeader: "÷ /bin/true")
        table.rows = [
            ResultRow(label: "cardwallet --help", size: "", summary: Summary(samples[0]), quantity: .time,
                      ratio: Summary.pairedRatios(samples[0], samples[1])),
            ResultRow(label: "/bin/true (process start floor)", size: "", summary: Summary(samples[1]), quantity: .time),
            ResultRow(label: "cardwallet demo to first frame", size: "to be measured", summary: nil, quantity: .time),
        ]
        table.notes = [
            "posix_spawn to waitpid, output to /dev/null, \(sampler.rounds) interleaved rounds after \(sampler.warmup) warm-up; binary: \(cardwallet).",
            "cardwallet demo to first frame: to be measured (needs the full TUI).",
            "No target in the issue for --help.",
        ]
        return [table]
    }

    private static func time(_ path: String, _ arguments: [String]) throws -> Double {
        let outcome = try Spawn.timed(path, arguments)
        guard outcome.status == 0 else { throw BenchError("\(path) \(arguments.joined(separator: " ")) exited with status \(outcome.status)") }
        return outcome.seconds
    }
}
