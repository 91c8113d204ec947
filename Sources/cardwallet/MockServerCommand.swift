import ArgumentParser
import CardMockServer
import CardModels
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

            Every setting is taken from its option, else its environment variable, else the \
            configuration file, else its default. The variables and the defaults (the variable \
            names the key in the file: CARDWALLET_MOCK_LIMITS_MAX_IMAGE_BYTES is \
            limits.maxImageBytes; Config/README.md explains each):
            \(MockServerCommand.settingsTable)

            Exit status: 0 after SIGINT or SIGTERM; 1 when the server cannot start (the address \
            is taken, the --data file cannot be used); 64 for invalid options or configuration.
            """)

    @OptionGroup var server: MockServerOptions

    /// The request log level when `--log-level` is not given.
    static let defaultLogLevel = Logger.Level.info

    @Option(
        name: .customLong("log-level"),
        help: ArgumentHelp(
            "Request log level on standard error: trace, debug, info, notice, warning, error or critical. (default: \(MockServerCommand.defaultLogLevel.rawValue))",
            valueName: "level"),
        transform: Self.parseLogLevel)
    var logLevel: Logger.Level = MockServerCommand.defaultLogLevel

    /// One line per setting: its environment variable and its default, from the values in
    /// ``MockServerConfiguration/default``.
    static var settingsTable: String {
        // Built while the command line is parsed (ArgumentParser reads every command's
        // configuration), so every start pays for it: plain Swift strings, no NSString padding.
        let names = MockServerSettingKey.allCases.map { ($0, $0.environmentVariable) }
        let width = names.map(\.1.utf8.count).max() ?? 0
        return names.map { key, name in
            "  " + name + String(repeating: " ", count: width + 2 - name.utf8.count) + key.helpText(in: .default)
        }.joined(separator: "\n")
    }

    private static func parseLogLevel(_ text: String) throws -> Logger.Level {
        guard let level = Logger.Level(rawValue: text.lowercased()) else {
            throw ValidationError("use trace, debug, info, notice, warning, error or critical")
        }
        return level
    }

    func run() async throws {
        let resolved = try server.makeConfiguration()
        let configuration = resolved.configuration
        for warning in resolved.warnings {
            Console.warning(warning)
        }
        let level = logLevel
        LoggingSystem.bootstrap { label in
            // Request logs carry what clients sent (paths, addresses): escaped like every other line.
            var handler = TerminalSafeLogHandler(label: label)
            handler.logLevel = level
            return handler
        }
        let logger = Logger(label: "cardwallet.mock-server")
        let running: RunningMockServer
        do {
            running = try await MockServer.start(
                configuration: configuration, logger: logger, handlesShutdownSignals: true)
        } catch {
            Console.error(error.description)
            throw ExitCode.failure
        }
        var lines = await running.banner()
        lines.append("configuration: \(Self.source(of: resolved))")
        // Written straight to the file descriptor: nothing is left in a buffer when stdout is a pipe.
        FileHandle.standardOutput.write(Data((lines.joined(separator: "\n") + "\n").utf8))
        try await running.waitUntilStopped()
        logger.info("Mock server stopped")
    }

    /// The banner's account of where the settings came from: the file (or the built-in
    /// defaults), and the environment variables that changed any.
    static func source(of resolved: ResolvedMockServerConfiguration) -> String {
        let file = resolved.configFile.map { TerminalText.escaped($0) } ?? "built-in defaults"
        let variables = MockServerSettingKey.allCases.compactMap { key -> String? in
            guard case .environment(let name) = resolved.origin(of: key) else { return nil }
            return name
        }
        return variables.isEmpty ? file : file + " with " + variables.joined(separator: ", ")
    }
}
