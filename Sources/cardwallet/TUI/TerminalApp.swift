import CardAPI
import CardWalletUI
import CursesTerminal
import Foundation
import Networking
import TokenStore

/// What the interactive interface starts with: the live pieces and what to fill in.
struct TerminalAppSetup: Sendable {
    /// The server the app starts on, and the client rules.
    var configuration: CardAPIConfiguration
    /// Where tokens are kept (the user's file, or the demo's private one).
    var tokenStore: TokenStore
    /// The HTTP transport every client shares; shut down by the caller.
    var transport: any Transport
    /// The logger plugin every client uses; the log pane and the log file read its events.
    var logger: LoggerPlugin
    /// The state folder: `cardwallet.log` and `cardwallet.stderr.log` go there.
    var stateDirectory: StateDirectory?
    /// The email to fill in.
    var email: String = ""
    /// The password to fill in (the demo's public one); never shown.
    var password: String = ""
    /// Lines for the log pane before any request (the demo's server address, say).
    var notes: [String] = []
}

/// How the interface ended.
struct TerminalAppOutcome: Sendable {
    /// The state when the loop stopped.
    var state: AppState
    /// The log file, when one was written.
    var logPath: String?
    /// Problems worth telling after the terminal is back (an unusable log file…).
    var warnings: [String]
}

/// Runs the interactive interface: the ncurses backend, the UI core's main loop and the live
/// glue (CardAPI performer, log pane and log file, session news).
enum TerminalApp {
    /// Runs until the user quits.
    ///
    /// - Returns: How it ended.
    /// - Throws: ``CursesTerminal/CursesTerminalError`` when the terminal cannot be used, or
    ///   ``CursesTerminal/CursesTerminalError/terminated(signal:)`` after SIGINT/SIGTERM/SIGHUP
    ///   (the terminal is restored either way).
    @MainActor
    static func run(_ setup: TerminalAppSetup) async throws -> TerminalAppOutcome {
        var warnings: [String] = []
        let maker = LogLineMaker()
        var notes = setup.notes

        var logFile: LogFileWriter?
        var strayOutputPath = "/dev/null"
        if let directory = setup.stateDirectory {
            do {
                logFile = try LogFileWriter(directory: directory)
                strayOutputPath = try StrayOutputFile.prepare(in: directory)
            } catch {
                let text = "The network log is not written to a file: \(error)"
                warnings.append(text)
                notes.append(text)
            }
        }

        let performer = CardAPIPerformer(
            configuration: setup.configuration, tokenStore: setup.tokenStore, transport: setup.transport,
            plugins: [setup.logger])
        defer { performer.close() }

        let state = AppState(
            server: setup.configuration.serverKey, email: setup.email, password: setup.password,
            utcOffsetSeconds: TimeZone.current.secondsFromGMT())

        let configuration = CursesBackend.Configuration(strayOutputPath: strayOutputPath)
        let final = try await CursesTerminal.run(configuration: configuration) { terminal in
            let runner = AppRunner(state: state, backend: terminal) { request in await performer.perform(request) }
            for note in notes {
                let line = maker.note(note)
                logFile?.write(line)
                runner.inbox.send(.log(line))
            }
            runner.listen(to: LiveFeeds.logActions(from: setup.logger.events(), lines: maker, file: logFile))
            runner.listen(to: LiveFeeds.sessionActions(from: performer.sessionStates(), lines: maker, file: logFile))
            // Ctrl-C and SIGTERM reach the loop as a quit key; the signal check is a second line.
            while await runner.step(), terminal.terminationSignal == nil {}
            runner.finish()
            return runner.state
        }
        if let problem = logFile?.problem { warnings.append("The log file stopped: \(problem)") }
        logFile?.close()
        return TerminalAppOutcome(state: final, logPath: logFile?.path, warnings: warnings)
    }
}
