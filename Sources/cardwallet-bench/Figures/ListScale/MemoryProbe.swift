import ArgumentParser
import CardWalletUI
import Foundation

/// `cardwallet-bench memory-probe --cards N` (hidden): loads N cards into a fresh process,
/// renders, filters, and prints one JSON line with its memory. The bench runs it as a child so
/// that the sizes do not inherit each other's heap.
struct MemoryProbeCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "memory-probe",
        abstract: "Measure the resident memory of N loaded cards (run by the bench itself).",
        shouldDisplay: false
    )

    @Option(help: "How many cards to load.")
    var cards: Int

    func run() throws {
        guard cards >= 0 else { throw ValidationError("--cards must be 0 or more") }
        let before = try ProcessMemory.current()
        var state = try WalletFixture.state(cards: cards, width: ListScaleFigure.width, height: ListScaleFigure.height)
        blackHole(Renderer.render(state))
        for key in ["/"] + ListScaleFigure.query.map(String.init) {
            _ = state.reduce(.key(.char(Character(key))))
        }
        blackHole(Renderer.render(state))
        let after = try ProcessMemory.current()
        let result = MemoryProbeResult(
            cards: state.list.cards.loadedCount, baselineBytes: before.residentBytes,
            residentBytes: after.residentBytes, peakResidentBytes: after.peakResidentBytes)
        // Keeps the state alive until its memory is read.
        blackHole(state)
        let line = try JSONEncoder().encode(result)
        print(String(decoding: line, as: UTF8.self))
    }
}

/// What one memory probe prints.
struct MemoryProbeResult: Codable, Equatable, Sendable {
    /// Cards loaded.
    var cards: Int
    /// `VmRSS` before loading: the runtime and the bench's own code.
    var baselineBytes: Int
    /// `VmRSS` with the cards loaded, a frame rendered and a filter applied.
    var residentBytes: Int
    /// `VmHWM`: the peak, including the pages while they arrived.
    var peakResidentBytes: Int
}

/// Runs memory probes in child processes and tabulates them.
enum MemoryProbe {
    static let limit = 150e6

    static func table(sizes: [Int], context: BenchContext) async throws -> ResultTable {
        let rounds = context.pick(full: 3, quick: 1)
        var results = Array(repeating: [MemoryProbeResult](), count: sizes.count)
        for round in 0..<rounds {
            for position in Sampler.order(count: sizes.count, round: round) {
                results[position].append(try probe(cards: sizes[position], executable: context.benchExecutable))
            }
        }
        let largest = sizes.max() ?? 0
        var table = ResultTable(
            title: "§3 List scale — resident memory, one fresh child process per probe",
            ratioHeader: "÷ \(Formatting.grouped(sizes[0])) cards")
        for (label, value) in [
            ("VmRSS: cards loaded, rendered, filtered", \MemoryProbeResult.residentBytes),
            ("VmHWM: peak while the pages arrived", \MemoryProbeResult.peakResidentBytes),
        ] {
            for (position, size) in sizes.enumerated() {
                let samples = results[position].map { Double($0[keyPath: value]) }
                let targets: [Target] =
                    !context.quick && size == largest ? [.median(.atMost(limit), "median ≤ 150 MB")] : []
                table.rows.append(
                    ResultRow(
                        label: label, size: "\(Formatting.grouped(size)) cards", summary: Summary(samples),
                        quantity: .bytes,
                        ratio: position == 0
                            ? nil : Summary.pairedRatios(samples, results[0].map { Double($0[keyPath: value]) }),
                        targets: targets))
            }
        }
        let baselines = results.flatMap { $0.map { Double($0.baselineBytes) } }
        let perCard = zip(sizes, results).compactMap { size, probes -> String? in
            guard size > 0, let median = Summary(probes.map { Double($0.residentBytes - $0.baselineBytes) })?.median
            else { return nil }
            return "\(Int((median / Double(size)).rounded())) B (\(Formatting.grouped(size)))"
        }
        table.notes = [
            "\(rounds) probe\(rounds == 1 ? "" : "s") per size: `cardwallet-bench memory-probe --cards N` loads N sample cards through the reducer in pages of 200, renders a \(ListScaleFigure.width)×\(ListScaleFigure.height) frame, types the filter, then reads /proc/self/status.",
            "Baseline VmRSS before loading (runtime, Foundation, the bench's code): \(Formatting.format(Summary(baselines)?.median ?? 0, as: .bytes)); resident bytes per card above it: \(perCard.joined(separator: ", ")).",
        ]
        return table
    }

    /// One child process's result.
    static func probe(cards: Int, executable: String) throws -> MemoryProbeResult {
        let (status, output) = try Spawn.captured(executable, ["memory-probe", "--cards", String(cards)])
        guard status == 0 else { throw BenchError("the memory probe for \(cards) cards exited with status \(status)") }
        let line = output.split(separator: "\n").last.map(String.init) ?? ""
        guard let result = try? JSONDecoder().decode(MemoryProbeResult.self, from: Data(line.utf8)),
            result.cards == cards
        else {
            throw BenchError("the memory probe for \(cards) cards printed something unexpected")
        }
        return result
    }
}
