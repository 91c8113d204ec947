import ArgumentParser
import Foundation

/// Runs the figures and prints their tables (the default subcommand).
struct RunCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "run",
        abstract: "Run the benchmarks (the default)."
    )

    @Flag(help: "Run every figure at tiny sizes, in seconds: a smoke test for CI (debug builds are fine).")
    var quick = false

    @Argument(
        help: ArgumentHelp(
            "Figures to run (default: all): \(FigureID.allCases.map(\.rawValue).joined(separator: ", ")).",
            valueName: "figure"))
    var names: [FigureID] = []

    @Option(
        name: .customLong("figure"),
        help: ArgumentHelp("Run only this figure (repeatable; the same as naming it).", valueName: "name"))
    var figures: [FigureID] = []

    @Option(help: ArgumentHelp("How to print the tables: text or markdown.", valueName: "style"))
    var format: TablePrinter.Style = .text

    @Option(
        help: ArgumentHelp(
            "The cardwallet executable for the terminal and startup figures (default: the one next to this bench).",
            valueName: "path"))
    var cardwallet: String?

    @Option(
        name: .customLong("baseline-cardwallet"),
        help: ArgumentHelp(
            "Another cardwallet executable (the build before a change): the first-frame figure runs it in the same interleaved rounds, on the same cache, and prints this build ÷ it.",
            valueName: "path"))
    var baselineCardwallet: String?

    @Option(
        name: .customLong("scan-cards"),
        help: ArgumentHelp(
            "How many cards the scan figure renders and reads (at least 50 for the record).", valueName: "n"))
    var scanCards = 60

    @Option(
        name: .customLong("scan-seed"),
        help: ArgumentHelp(
            "The seed of the scan figure's cards (default: scripts/make-scan-cards.py's own).", valueName: "n"))
    var scanSeed: Int?

    @Option(
        name: .customLong("carddav-cards"),
        help: ArgumentHelp(
            "How many cards the carddav figure's Radicale book holds (default 5,000; 100 with --quick).",
            valueName: "n"))
    var carddavCards: Int?

    @Option(
        name: .customLong("vcard-corpus"),
        help: ArgumentHelp(
            "The vcard figure's corpus: own (cards as CardWallet writes them) or realistic (issue 43's mix); repeatable (default: both).",
            valueName: "name"))
    var vcardCorpora: [VCardFigure.Corpus] = []

    @Option(
        name: .customLong("vcard-cards"),
        help: ArgumentHelp(
            "Cards in each of the vcard figure's files (default 10,000; 300 with --quick).", valueName: "n"))
    var vcardCards: Int?

    func validate() throws {
        if let vcardCards, !(10...100_000).contains(vcardCards) {
            throw ValidationError("--vcard-cards must be 10–100000.")
        }
        guard (1...2000).contains(scanCards) else { throw ValidationError("--scan-cards must be 1–2000.") }
        if let carddavCards, !(10...50_000).contains(carddavCards) {
            throw ValidationError("--carddav-cards must be 10–50000.")
        }
    }

    func run() async throws {
        let executable = Self.ownExecutable()
        var context = BenchContext(
            quick: quick,
            benchExecutable: executable,
            cardwalletExecutable: cardwallet
                ?? URL(fileURLWithPath: executable)
                .deletingLastPathComponent().appendingPathComponent("cardwallet").path,
            progress: { line in FileHandle.standardError.write(Data(("· " + line + "\n").utf8)) })
        context.baselineCardwallet = baselineCardwallet
        context.scanCards = scanCards
        context.scanSeed = scanSeed
        context.carddavCards = carddavCards
        context.vcardCorpora = vcardCorpora.isEmpty ? nil : vcardCorpora
        context.vcardCards = vcardCards
        let chosen = names + figures
        let selected = chosen.isEmpty ? FigureID.allCases : FigureID.allCases.filter(chosen.contains)

        emit(MachineInfo.current().lines(quick: quick, style: format))
        var failures: [String] = []
        for id in selected {
            context.progress("\(id.section) \(id.title)…")
            do {
                for table in try await id.figure.run(context) {
                    emit(TablePrinter.lines(table, style: format))
                }
            } catch {
                failures.append("\(id.rawValue): \(error)")
                emit(["\(id.section) \(id.title): FAILED — \(error)", ""])
            }
        }
        emit(["Finished: load average now \(MachineInfo.loadAverage() ?? "unknown")."])
        if !failures.isEmpty {
            let report = (["cardwallet-bench: broken figures:"] + failures.map { "  " + $0 }).joined(separator: "\n")
            FileHandle.standardError.write(Data((report + "\n").utf8))
            throw ExitCode.failure
        }
    }

    private func emit(_ lines: [String]) {
        for line in lines { print(line) }
    }

    /// The path of this executable, to re-run it for memory probes and to find `cardwallet`.
    static func ownExecutable() -> String {
        (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe"))
            ?? URL(fileURLWithPath: CommandLine.arguments[0]).standardizedFileURL.path
    }
}

extension TablePrinter.Style: ExpressibleByArgument {}
