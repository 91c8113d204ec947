import CardMockServer
import Foundation
import PseudoTerminalSupport
import TestSupport
import Testing

/// One end-to-end test's world: the mock server in-process on 127.0.0.1 port 0 (admin on, a
/// manual wall clock) and private `HOME`, `XDG_STATE_HOME` and `XDG_CONFIG_HOME` folders, so
/// no test touches the real home folder or another test's token file.
struct CLIWorld: Sendable {
    static let email = "demo@cardwallet.dev"
    static let password = "demo1234"

    let server: RunningMockServer
    let clock: ManualWallClock
    let folder: TemporaryFolder

    /// Runs `body` against a fresh server (`.testing`, or `configuration`); always stops it
    /// and removes the folders.
    static func with(
        _ configuration: MockServerConfiguration = .testing, _ body: (CLIWorld) async throws -> Void
    ) async throws {
        let clock = ManualWallClock()
        let server = try await MockServer.start(configuration: configuration, clock: clock)
        let folder = try TemporaryFolder("e2e")
        let world = CLIWorld(server: server, clock: clock, folder: folder)
        var failure: (any Error)?
        do {
            try await body(world)
        } catch {
            failure = error
        }
        await server.stop()
        folder.remove()
        if let failure { throw failure }
    }

    /// The environment every process gets: nothing is inherited from the test runner.
    var environment: [String: String] {
        [
            "HOME": folder.path("home"),
            "XDG_STATE_HOME": folder.path("state"),
            "XDG_CONFIG_HOME": folder.path("config"),
            "CARDWALLET_SERVER": server.baseURLString,
            "LANG": "C.UTF-8",
        ]
    }

    /// The token file the commands use.
    var tokenFile: String { folder.path("state") + "/cardwallet/tokens.json" }

    /// Starts `cardwallet arguments…` without waiting (under `umask` when given: ``CLIProcess``).
    func start(
        _ arguments: [String], input: String? = nil, environment extra: [String: String] = [:], umask: String? = nil
    ) throws -> CLIProcess {
        try CLIProcess(
            arguments, environment: environment.merging(extra) { $1 }, input: input, scratch: folder, umask: umask)
    }

    /// Starts the interactive interface (`cardwallet` with `arguments`) on `terminal`, as an
    /// 80×24 xterm.
    func startInterface(
        _ arguments: [String] = [], on terminal: PseudoTerminal, term: String = "xterm-256color", umask: String? = nil
    ) throws -> CLIProcess {
        let screen = ["TERM": term, "COLUMNS": "80", "LINES": "24"]
        return try CLIProcess(
            arguments, environment: environment.merging(screen) { $1 }, input: nil, scratch: folder,
            terminal: terminal, umask: umask)
    }

    /// The interface's network log file.
    var logFile: String { folder.path("state") + "/cardwallet/cardwallet.log" }

    /// Runs `cardwallet arguments…` to completion.
    func run(
        _ arguments: String..., input: String? = nil, environment extra: [String: String] = [:],
        sourceLocation: SourceLocation = #_sourceLocation
    ) async throws -> CLIResult {
        try await run(arguments, input: input, environment: extra, sourceLocation: sourceLocation)
    }

    /// Runs `cardwallet arguments…` to completion.
    func run(
        _ arguments: [String], input: String? = nil, environment extra: [String: String] = [:],
        sourceLocation: SourceLocation = #_sourceLocation
    ) async throws -> CLIResult {
        try await start(arguments, input: input, environment: extra).finish(sourceLocation: sourceLocation)
    }

    /// Logs the demo user in through `cardwallet login --password-stdin`.
    func login(sourceLocation: SourceLocation = #_sourceLocation) async throws {
        let result = try await run(
            "login", "--email", Self.email, "--password-stdin", input: Self.password + "\n",
            sourceLocation: sourceLocation)
        #expect(result.status == 0, "\(result)", sourceLocation: sourceLocation)
    }

    /// The tokens in the token file now (access and refresh), to look for in outputs.
    func storedTokens() throws -> [String] {
        guard FileManager.default.fileExists(atPath: tokenFile) else { return [] }
        let data = try Data(contentsOf: URL(fileURLWithPath: tokenFile))
        let object = try JSONSerialization.jsonObject(with: data) as? [String: Any]
        let items = object?["items"] as? [[String: Any]] ?? []
        return items.flatMap { item in
            [item["accessToken"] as? String, item["refreshToken"] as? String].compactMap { $0 }
        }
    }

    /// Successful refreshes the server answered.
    var refreshes: Int { server.statistics.count("POST /auth/refresh", status: 200) }
}
