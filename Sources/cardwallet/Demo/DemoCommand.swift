import ArgumentParser
import CardAPI
import CardMockServer
import CursesTerminal
import Foundation
import Networking
import TokenStore

/// `cardwallet demo`: the mock server in this process and the wallet pointed at it.
struct DemoCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "demo",
        abstract: "Try CardWallet: start the mock server on this machine and open the wallet on it.",
        discussion: """
            The mock server runs inside this process on 127.0.0.1, on a free port unless --port says \
            otherwise, with access tokens that live \(DemoDefaults.accessTokenLifetime) unless --access-ttl \
            says otherwise, so token refreshes show in the network log (press l). The demo account's \
            email and password are filled in: press Enter to log in. q quits and stops the server.

            The demo's tokens live in a private folder under $TMPDIR (or /tmp) that is deleted when the \
            demo ends: your own token file is never read or changed. The network log is appended to \
            $XDG_STATE_HOME/cardwallet/cardwallet.log (~/.local/state/cardwallet/ by default); the \
            server's own request log is not kept.

            With --admin, end the session from another shell while the demo runs (the log pane shows \
            the exact commands):
              curl -X POST 'http://127.0.0.1:PORT/v1/_admin/expire?email=demo@cardwallet.dev'
                  expires the access tokens: the next request refreshes them.
              curl -X POST 'http://127.0.0.1:PORT/v1/_admin/revoke?email=demo@cardwallet.dev'
                  revokes the refresh tokens: the next refresh gets E06 and the login dialog opens.

            Durations take a unit: ms, s, m, h or d (200ms, 30s, 5m, 1h).
            """)

    @OptionGroup var server: MockServerOptions

    func run() async throws {
        if let problem = TerminalCheck.problem() {
            TerminalCheck.report(problem)
            throw ExitCode(problem.exitCode)
        }
        let configuration: MockServerConfiguration
        let folder: DemoFolder
        do {
            configuration = try DemoDefaults.apply(to: server)
            folder = try DemoFolder.create()
        } catch {
            throw Self.failure("\(error)")
        }
        defer { folder.remove() }

        let running: RunningMockServer
        do {
            running = try await MockServer.start(configuration: configuration)
        } catch {
            throw Self.failure(error.description)
        }
        let transport = LiveTransport()
        let account = configuration.users.first { $0.password != nil } ?? configuration.users.first
        let notes = DemoNotes(baseURL: running.baseURLString, email: account?.email, configuration: configuration)
        let setup = TerminalAppSetup(
            configuration: CardAPIConfiguration(server: running.baseURL),
            tokenStore: TokenStore(path: folder.tokenFilePath),
            transport: transport,
            logger: TUILogger.make(),
            stateDirectory: try? StateDirectory(environment: ProcessInfo.processInfo.environment),
            email: account?.email ?? "",
            password: account?.password ?? "",
            notes: notes.whileRunning)

        let outcome: Result<TerminalAppOutcome, any Error>
        do {
            outcome = .success(try await TerminalApp.run(setup))
        } catch {
            outcome = .failure(error)
        }
        try? await transport.shutdown()
        await running.stop()

        switch outcome {
        case .success(let ended):
            Self.printLines(notes.afterExit(logPath: ended.logPath) + ended.warnings)
        case .failure(let error as CursesTerminalError):
            if case .terminated = error {
                Self.printLines(notes.afterExit(logPath: nil))
            } else {
                TerminalCheck.report(error)
            }
            throw ExitCode(error.exitCode)
        case .failure(let error):
            throw Self.failure("\(error)")
        }
    }

    private static func printLines(_ lines: [String]) {
        FileHandle.standardOutput.write(Data(lines.map { $0 + "\n" }.joined().utf8))
    }

    /// Prints `message` on standard error and returns the exit status to throw.
    private static func failure(_ message: String) -> ExitCode {
        FileHandle.standardError.write(Data("cardwallet demo: \(message)\n".utf8))
        return ExitCode.failure
    }
}

/// What the demo changes in the mock server's configuration when the options leave it open.
enum DemoDefaults {
    /// Short, so refreshes show during a demo.
    static let accessTokenLifetime = TimeSpan.seconds(30)

    /// The server configuration of `options`, with a free port and short-lived access tokens
    /// unless the options (not the configuration file) say otherwise.
    static func apply(to options: MockServerOptions) throws(MockServerError) -> MockServerConfiguration {
        var configuration = try options.makeConfiguration().configuration
        if options.port == nil { configuration.port = 0 }
        if options.accessTTL == nil { configuration.accessTokenTTL = accessTokenLifetime }
        try configuration.validate()
        return configuration
    }
}
