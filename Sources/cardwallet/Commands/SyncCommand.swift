import ArgumentParser
import CardBackend
import CardModels
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
            refused as a conflict, never overwritten; the wallet's conflict view offers it). Moves, \
            copies and merges waiting in any book's outbox (interrupted) are carried on too. Then \
            it lists the wallet into the cache and reads every card the cache lacks in full (8 at \
            a time), so that `export`, `qr` and `query` work offline on every card. With --book \
            all, every book of every stored account.

            --watch keeps going, as the wallet does while it is open: every `syncInterval` \
            seconds (60 by default; --interval N for this run) each book syncs (a book on a \
            server that syncs by token costs one request when nothing changed), and a line says \
            what changed: `14:02:07 work: 1 added, 2 changed, 0 removed`. Offline or \
            rate-limited it waits longer each time (up to 15 minutes) and says so on standard \
            error. Ctrl-C ends it.

            Examples:
              cardwallet sync
              cardwallet sync --book all --watch

            Exit status: 0 everything sent (or nothing to send); 3 log in first; 5 the server \
            refused a change (it stays in the outbox as failed); 6 server unreachable (the changes \
            stay pending).
            """)

    @OptionGroup(title: "Server and logging options") var client: ClientOptions

    /// `--watch`.
    @Flag(help: "Keep syncing every syncInterval seconds, printing what changed (Ctrl-C ends it).")
    var watch = false

    /// `--interval`.
    @Option(
        help: ArgumentHelp("With --watch: seconds between two syncs (default: syncInterval, 60).", valueName: "seconds")
    )
    var interval: Int?

    func validate() throws {
        guard ArgumentChecks.apply else { return }
        if let interval, !(1...86_400).contains(interval) {
            throw ValidationError("--interval takes 1 to 86400 seconds.")
        }
        if interval != nil, !watch { throw ValidationError("--interval goes with --watch.") }
    }

    func run() async throws {
        try await ClientCommandRunner.run(client, allowsAllBooks: true) { context in
            if watch { return try await watchBooks(context) }
            let books = context.allBooks ? await context.shelf.books() : []
            let wallets =
                context.allBooks
                ? try await books.asyncMap { try await context.shelf.wallet(for: $0) } : [await context.wallet()]
            guard wallets.contains(where: { $0.cache != nil }) else {
                throw CommandFailure(
                    "there is no card cache for this account (log in first)", status: CLIExitCode.loginRequired)
            }
            var sent = 0
            var refused: [String] = []
            var pending = 0
            for wallet in wallets {
                let report = await wallet.replayOutbox()
                sent += report.sent
                refused += report.refused
                pending += report.pending
                if report.stoppedOffline {
                    throw CommandFailure(
                        "the server cannot be reached; \(sent) change(s) sent, \(pending) still pending.",
                        status: CLIExitCode.networkFailure)
                }
            }
            // Moves, copies and merges interrupted in other books' outboxes are carried on too.
            for (_, report) in await context.shelf.replayEveryOutbox() {
                sent += report.sent
                refused += report.refused
                if report.stoppedOffline {
                    throw CommandFailure(
                        "a server cannot be reached; \(sent) change(s) sent, \(report.pending) still pending.",
                        status: CLIExitCode.networkFailure)
                }
            }
            var cards = 0
            for wallet in wallets {
                let listed = try await wallet.list(.online)
                // Every whole card too, so that export, qr and query work offline on every card.
                try await wallet.fillWholeCards(listed.value)
                cards += listed.value.count
            }
            Console.out("Sent \(sent) change(s); \(cards) card(s) in the cache, each in full.\n")
            if !refused.isEmpty {
                throw CommandFailure(
                    "the server refused \(refused.count) change(s); they stay in the outbox as failed: "
                        + refused.joined(separator: " "), status: CLIExitCode.conflict)
            }
        }
    }

    /// `--watch`: each book shown, every interval, with backoff, until interrupted.
    private func watchBooks(_ context: CommandContext) async throws {
        let seconds = interval ?? context.resolved.settings.syncInterval
        guard seconds > 0 else {
            throw CommandFailure.usage("syncInterval is 0 (off): give --interval N to watch.")
        }
        let watcher = SyncWatcher(shelf: context.shelf, allBooks: context.allBooks, interval: .seconds(seconds))
        Console.err(
            "cardwallet: syncing \(context.allBooks ? "every book" : "the book in use") every \(seconds) s; Ctrl-C ends it.\n"
        )
        try await watcher.run { line in
            Console.out(line + "\n")
        } problem: { line in
            Console.err("cardwallet: " + line + "\n")
        }
    }
}
