import ArgumentParser
import CardMockServer
import CardModels
import CardWalletLive
import Foundation
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
            server's own request log is not kept. Without --config, the demo users' published passwords \
            are hashed with bcrypt cost \(DemoDefaults.passwordHashCost) (not 10), so the wallet opens at once.

            With --admin, end the session from another shell while the demo runs (the log pane shows \
            the exact commands):
              curl -X POST 'http://127.0.0.1:PORT/v1/_admin/expire?email=demo@cardwallet.dev'
                  expires the access tokens: the next request refreshes them.
              curl -X POST 'http://127.0.0.1:PORT/v1/_admin/revoke?email=demo@cardwallet.dev'
                  revokes the refresh tokens: the next refresh gets E06 and the login dialog opens.

            Durations take a unit: ms, s, m, h or d (200ms, 30s, 5m, 1h).
            """)

    @OptionGroup var server: DemoServerOptions

    func run() async throws {
        let environment = ProcessInfo.processInfo.environment
        if let problem = TerminalCheck.problem(environment: environment) {
            TerminalCheck.report(problem)
            throw ExitCode(problem.exitCode)
        }
        let configuration: MockServerConfiguration
        let folder: DemoFolder
        do {
            configuration = try DemoDefaults.apply(to: server)
            folder = try DemoFolder.create(environment: environment)
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
        var settings = ClientSettings.defaults
        settings.server = running.baseURLString
        settings.tokenFile = folder.tokenFilePath
        let live: LiveClient
        let sink: LiveEventSink
        do {
            (live, sink) = try TerminalApp.makeLive(settings: settings, environment: environment)
        } catch {
            await running.stop()
            throw Self.failure(error.description)
        }
        let account = configuration.users.first { $0.password != nil } ?? configuration.users.first
        let notes = DemoNotes(baseURL: running.baseURLString, email: account?.email, configuration: configuration)
        let setup = TerminalAppSetup(
            live: live, sink: sink, stateDirectory: try? StateDirectory(environment: environment),
            email: account?.email ?? "", password: account?.password ?? "", notes: notes.whileRunning)

        let outcome = await TerminalApp.runCatching(setup)
        await live.shutdown()
        await running.stop()
        folder.remove()
        try TerminalApp.finish(outcome) { logPath in notes.afterExit(logPath: logPath) }
    }

    /// Prints `message` on standard error and returns the exit status to throw.
    private static func failure(_ message: String) -> ExitCode {
        Console.err("cardwallet demo: \(message)\n")
        return ExitCode.failure
    }
}

/// What the demo changes in the mock server's configuration when the options leave it open.
enum DemoDefaults {
    /// Short, so refreshes show during a demo.
    static let accessTokenLifetime = TimeSpan.seconds(30)

    /// The lowest bcrypt cost, for the seed passwords of a demo without `--config`: they are the
    /// published demo passwords of a server that lives inside the process on 127.0.0.1, and at
    /// the usual cost (10) hashing them took ~140 ms before the first frame.
    static let passwordHashCost = 4

    /// The server configuration of `options`, with a free port, short-lived access tokens and
    /// (without `--config`) a fast password hash, unless the options say otherwise.
    static func apply(to options: DemoServerOptions) throws(MockServerError) -> MockServerConfiguration {
        var configuration = try options.makeConfiguration().configuration
        if options.port == nil { configuration.port = 0 }
        if options.accessTTL == nil { configuration.accessTokenTTL = accessTokenLifetime }
        if options.config == nil { configuration.passwordHashCost = passwordHashCost }
        try configuration.validate()
        return configuration
    }
}
