import ArgumentParser
import CardAPI
import CursesTerminal
import Foundation
import Networking
import TokenStore

/// `cardwallet` without a subcommand: the interface against a server, restoring the stored
/// session for it when there is one (else the login screen, with the server filled in).
enum WalletLauncher {
    /// Runs the interface until the user quits.
    ///
    /// - Parameters:
    ///   - configuration: The server and client rules.
    ///   - tokenStore: The user's token store.
    ///   - stateDirectory: Where the log file goes.
    ///   - transport: The HTTP transport; shut down here when the interface ends.
    ///   - logger: The logger plugin the clients use.
    ///   - email: The email to fill in when no session is stored.
    /// - Throws: `ExitCode` with the status to exit with, after printing why.
    static func run(
        configuration: CardAPIConfiguration, tokenStore: TokenStore, stateDirectory: StateDirectory?,
        transport: LiveTransport, logger: LoggerPlugin, email: String?
    ) async throws {
        if let problem = TerminalCheck.problem() {
            TerminalCheck.report(problem)
            throw ExitCode(problem.exitCode)
        }
        let stored = (try? tokenStore.accounts(server: configuration.serverKey)) ?? []
        let setup = TerminalAppSetup(
            configuration: configuration, tokenStore: tokenStore, transport: transport, logger: logger,
            stateDirectory: stateDirectory, email: email ?? configuration.account ?? stored.first ?? "")
        let outcome: Result<TerminalAppOutcome, any Error>
        do {
            outcome = .success(try await TerminalApp.run(setup))
        } catch {
            outcome = .failure(error)
        }
        try? await transport.shutdown()
        switch outcome {
        case .success(let ended):
            for warning in ended.warnings {
                FileHandle.standardError.write(Data("cardwallet: \(warning)\n".utf8))
            }
        case .failure(let error as CursesTerminalError):
            if case .terminated = error {} else { TerminalCheck.report(error) }
            throw ExitCode(error.exitCode)
        case .failure(let error):
            FileHandle.standardError.write(Data("cardwallet: \(error)\n".utf8))
            throw ExitCode.failure
        }
    }
}
