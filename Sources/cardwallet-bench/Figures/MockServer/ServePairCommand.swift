import ArgumentParser
import AsyncHTTPClient
import Foundation

/// `cardwallet-bench serve-pair` (hidden): keeps the mock server and its bare baseline running
/// for an outside load generator (`scripts/bench-crosscheck.sh` points wrk at them).
struct ServePairCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "serve-pair",
        abstract: "Serve the mock server and the bare baseline route for an outside load generator.",
        discussion: """
            Prints `mock URL`, `bare URL`, then one `route PATH` line per measured route, and \
            serves until --seconds pass or the process is terminated. The mock server's demo \
            accounts are the built-in ones; log in yourself to get a token.
            """,
        shouldDisplay: false
    )

    @Option(help: "How long to serve, in seconds.")
    var seconds: Int = 300

    func run() async throws {
        guard seconds > 0 else { throw ValidationError("--seconds must be positive") }
        let client = LoadGenerator.makeClient(connections: 1)
        let pair = try await ServerPair.start(client: client)
        try await client.shutdown()
        let lines = ["mock \(pair.mockBase)", "bare \(pair.bareBase)"] + pair.routes.map { "route \($0.path)" }
        FileHandle.standardOutput.write(Data((lines.joined(separator: "\n") + "\n").utf8))
        try? await Task.sleep(for: .seconds(seconds))
        await pair.stop()
    }
}
