import ArgumentParser

/// `cardwallet-bench`: the benchmarks of issue 6. `swift run -c release cardwallet-bench` for
/// the record, `swift run cardwallet-bench --quick` as the CI smoke run.
@main
struct BenchCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "cardwallet-bench",
        abstract: "Measures CardWallet: the TUI core at scale, the mock server, startup.",
        discussion: """
            Prints one table per figure: min, median and max over repeated rounds, the ratio to \
            a baseline measured in the same run (interleaved), and the target with PASS or MISS. \
            Build in release for real numbers (swift run -c release cardwallet-bench); --quick \
            runs every figure at tiny sizes in seconds and fails only if something is broken.
            """,
        subcommands: [
            RunCommand.self, MemoryProbeCommand.self, VCardProbeCommand.self, VCardCorpusCommand.self,
            VCardTimeCommand.self,
            ServePairCommand.self,
            CardDAVProbeCommand.self,
        ],
        defaultSubcommand: RunCommand.self
    )
}
