import ArgumentParser
import CardMockServer
import CardModels
import CardWalletLive
import CursesTerminal
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
            these commands with its port). Expire the access tokens, so the next request refreshes \
            them:
              curl -X POST '127.0.0.1:PORT/v1/_admin/expire?email=demo@cardwallet.dev'
            Or revoke the refresh tokens, so the next refresh gets E06 and the login dialog opens:
              curl -X POST '127.0.0.1:PORT/v1/_admin/revoke?email=demo@cardwallet.dev'

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
        settings.serverIsDefault = false
        let live: LiveBackends
        let sink: LiveEventSink
        do {
            (live, sink) = try TerminalApp.makeLive(settings: settings, environment: environment)
        } catch {
            await running.stop()
            throw Self.failure(error.description)
        }
        let account = configuration.users.first { $0.password != nil } ?? configuration.users.first
        let notes = DemoNotes(baseURL: running.baseURLString, email: account?.email, configuration: configuration)
        // The local cache lives in the demo's private folder and goes with it: `/` searches
        // every field of the cards read in full, and nothing is left in ~/.cache.
        let setup = TerminalAppSetup(
            live: live, sink: sink, stateDirectory: try? StateDirectory(environment: environment),
            email: account?.email ?? "", password: account?.password ?? "", notes: notes.whileRunning,
            cacheEnvironment: ["XDG_CACHE_HOME": folder.path + "/cache"])

        let outcome = await TerminalApp.runCatching(setup)
        await live.shutdown()
        await running.stop()
        folder.remove()
        try TerminalApp.finish(outcome) { logPath in notes.afterExit(logPath: logPath) }
    }

    /// Prints `message` on standard error (`cardwallet: …`, as every command's messages) and
    /// returns the exit status to throw.
    private static func failure(_ message: String) -> ExitCode {
        Console.error("the demo cannot start: \(message)")
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
    /// (without a config file named by `--config` or `CARDWALLET_MOCK_CONFIG`) a fast password
    /// hash, unless an option or an environment variable says otherwise.
    static func apply(
        to options: DemoServerOptions, environment: [String: String] = ProcessInfo.processInfo.environment
    ) throws(MockServerError) -> MockServerConfiguration {
        var resolved = try options.resolve(environment: environment)
        if !resolved.origin(of: .port).isExplicit { resolved.configuration.port = 0 }
        if !resolved.origin(of: .accessTokenTTL).isExplicit {
            resolved.configuration.accessTokenTTL = accessTokenLifetime
        }
        if !(resolved.configFileOrigin?.isExplicit ?? false), !resolved.origin(of: .passwordHashCost).isExplicit {
            resolved.configuration.passwordHashCost = passwordHashCost
        }
        try resolved.validate()
        return resolved.configuration
    }
}
