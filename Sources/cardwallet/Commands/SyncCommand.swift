import ArgumentParser
import CardWalletLive
import Foundation

/// `cardwallet sync`: sends the changes made offline and refreshes the local card cache.
struct SyncCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "sync",
        abstract: "Send the changes made offline, then refresh the local card cache.",
        discussion: """
            Changes made in the wallet while the server could not be reached wait in the cache's \
            outbox (docs/Cache.md). The wallet sends them when the server is back; this command \
            does it from a script: in the order they were made, each exactly once, edits and \
            deletes with the version they were made on (a card changed on the server meanwhile is \
            refused as a conflict, never overwritten; the wallet's conflict view offers it). Then it \
            lists the wallet into the cache and reads every card the cache lacks in full (8 at a \
            time), so that `export`, `qr` and `query` work offline on every card.

            Examples:
              cardwallet sync

            Exit status: 0 everything sent (or nothing to send); 3 log in first; 5 the server \
            refused a change (it stays in the outbox as failed); 6 server unreachable (the changes \
            stay pending).
            """)

    @OptionGroup(title: "Server and logging options") var client: ClientOptions

    func run() async throws {
        try await ClientCommandRunner.run(client) { context in
            let wallet = await context.wallet()
            guard wallet.cache != nil else {
                throw CommandFailure(
                    "there is no card cache for this account (log in first)", status: CLIExitCode.loginRequired)
            }
            let report = await wallet.replayOutbox()
            if report.stoppedOffline {
                throw CommandFailure(
                    "the server cannot be reached; \(report.sent) change(s) sent, \(report.pending) still pending.",
                    status: CLIExitCode.networkFailure)
            }
            let listed = try await wallet.list(.online)
            // Every whole card too, so that export, qr and query work offline on every card.
            try await wallet.fillWholeCards(listed.value)
            Console.out("Sent \(report.sent) change(s); \(listed.value.count) card(s) in the cache, each in full.\n")
            if !report.refused.isEmpty {
                throw CommandFailure(
                    "the server refused \(report.refused.count) change(s); they stay in the outbox as failed: "
                        + report.refused.joined(separator: " "), status: CLIExitCode.conflict)
            }
        }
    }
}
