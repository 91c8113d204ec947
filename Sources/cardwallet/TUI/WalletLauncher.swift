import ArgumentParser
import CardBackend
import CardWalletLive
import CardWalletUI
import CursesTerminal
import Foundation
import Logging
import TokenStore

/// `cardwallet` without a subcommand: the interface against the configured server, restoring
/// the stored session for it when there is one (else the login screen, with the server filled in).
enum WalletLauncher {
    /// Resolves the settings (`overrides`: the command line's), builds the live client and runs
    /// the interface until the user quits.
    ///
    /// - Throws: `ExitCode` with the status to exit with, after printing why: 64 for bad
    ///   settings, 1 when the terminal cannot be used, 128 + signal after SIGTERM/SIGHUP.
    static func run(
        overrides: ClientSettingsOverrides, environment: [String: String] = ProcessInfo.processInfo.environment
    ) async throws {
        if let problem = TerminalCheck.problem(environment: environment) {
            TerminalCheck.report(problem)
            throw ExitCode(problem.exitCode)
        }
        var resolved: ResolvedClientSettings
        let live: LiveBackends
        let sink: LiveEventSink
        let early: Task<EarlyWallet?, Never>
        var showsAllBooks = false
        do {
            resolved = try await ClientSettingsLoader.load(overrides: overrides, environment: environment)
            // `--book all`: every book of every account (the All view), not a book called "all".
            showsAllBooks = resolved.settings.book.map(AllBooks.isAll) ?? false
            if showsAllBooks { resolved.settings.book = nil }
            // swift-log output goes to stderr, which the interface sends to cardwallet.stderr.log.
            ClientCommandRunner.bootstrapLogging(level: resolved.settings.logLevel)
            // The cached wallet is read while the live client and the interface start (its
            // logger made after the bootstrap, so it logs as every other one does).
            early = EarlyWallet.start(
                settings: resolved.settings, environment: environment, logger: Logger(label: "cardwallet.cache"))
            (live, sink) = try TerminalApp.makeLive(
                settings: resolved.settings, environment: environment,
                sessionLogger: Logger(label: "cardwallet.session"))
        } catch {
            Console.error("\(error)")
            throw ExitCode(CLIExitCode.usage)
        }
        let stored = (try? live.tokenStore.accounts(server: live.backend.server)) ?? []
        let setup = TerminalAppSetup(
            live: live, sink: sink, stateDirectory: try? StateDirectory(environment: environment),
            email: live.account?.user ?? stored.first ?? "", showsAllBooks: showsAllBooks, notes: resolved.warnings,
            cacheEnvironment: environment,
            earlyWallet: early)
        let outcome = await TerminalApp.runCatching(setup)
        await live.shutdown()
        try TerminalApp.finish(outcome)
    }
}
