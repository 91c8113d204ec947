import ArgumentParser
import CardMockServer
import Foundation
import Logging

/// `cardwallet mock-server`: runs the mock card server until SIGINT or SIGTERM.
struct MockServerCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "mock-server",
        abstract: "Run the mock card server (the API of docs/API.md) on this machine.",
        discussion: """
            The first line on standard output is exactly "listening on http://HOST:PORT/v1"; the demo \
            accounts follow. Request logs go to standard error and never contain tokens or passwords. \
            SIGINT (Ctrl-C) or SIGTERM stops the server after the requests in flight (and their \
            --data writes) finish.

            Durations take a unit: ms, s, m, h or d (200ms, 30s, 5m, 1h, 1d, or 1h30m).

            Exit status: 0 after SIGINT or SIGTERM; 1 when the server cannot start (the address \
            is taken, the --data file cannot be used); 64 for invalid options or configuration.
            """)

    @OptionGroup var server: MockServerOptions

    @Option(
        name: .customLong("log-level"),
        help: ArgumentHelp(
            "Request log level on standard error: trace, debug, info, notice, warning, error or critical. (default: info)",
            valueName: "level"),
        transform: Self.parseLogLevel)
    var logLevel: Logger.Level = .info

    private static func parseLogLevel(_ text: String) throws -> Logger.Level {
        guard let level = Logger.Level(rawValue: text.lowercased()) else {
            throw ValidationError("use trace, debug, info, notice, warning, error or critical")
        }
        return level
    }

    func run() async throws {
        let (configuration, source) = try server.makeConfiguration()
        let level = logLevel
        LoggingSystem.bootstrap { label in
            var handler = StreamLogHandler.standardError(label: label)
            handler.logLevel = level
            return handler
        }
        let logger = Logger(label: "cardwallet.mock-server")
        let running: RunningMockServer
        do {
            running = try await MockServer.start(configuration: configuration, logger: logger, handlesShutdownSignals: true)
        } catch {
            Console.error(error.description)
            throw ExitCode.failure
        }
        var lines = await running.banner()
        lines.append("configuration: \(source)")
        // Written straight to the file descriptor: nothing is left in a buffer when stdout is a pipe.
        FileHandle.standardOutput.write(Data((lines.joined(separator: "\n") + "\n").utf8))
        try await running.waitUntilStopped()
        logger.info("Mock server stopped")
    }
}
