import ArgumentParser

/// How `cardwallet` reads its command line: as swift-argument-parser's `main()` does, with two
/// differences that keep the messages honest and alike.
///
/// - An unknown option or an extra argument is reported before what a command's `validate()`
///   says. ArgumentParser validates a command before it looks for arguments nobody took, so
///   `cardwallet edit ID --bogus` said "Nothing to change" instead of "Unknown option".
/// - Every message starts `cardwallet: ` (``_errorPrefix``), as the scripting commands' own
///   messages do, instead of ArgumentParser's `Error: `.
extension CardWalletCommand {
    /// The prefix of every error message ArgumentParser prints for this program.
    static var _errorPrefix: String { "cardwallet: " }

    /// Parses the command line and runs the command; prints the message and exits with the
    /// status of any failure (64 for a usage error), as `AsyncParsableCommand.main()` does.
    static func main() async {
        let arguments = Array(CommandLine.arguments.dropFirst())
        // A bare `cardwallet` opens the wallet with nothing overridden: there is nothing to
        // parse, so the parser of every subcommand (their argument sets by reflection, the
        // completion-script check) is not built — about a sixth of the way to the first frame
        // (docs/BENCHMARKS.md, "#17 First frame from the cache").
        if arguments.isEmpty {
            do {
                try await WalletLauncher.run(overrides: ClientSettingsOverrides())
            } catch {
                exit(withError: error)
            }
            return
        }
        do {
            var command = try parseCommandLine(arguments)
            if var command = command as? any AsyncParsableCommand {
                try await command.run()
            } else {
                try command.run()
            }
        } catch {
            exit(withError: error)
        }
    }

    /// The command `arguments` name, parsed as `parseAsRoot(_:)` does, except that an unknown
    /// option or extra argument wins over a complaint of a command's `validate()`.
    ///
    /// - Throws: ArgumentParser's error for the command line (a help request included).
    static func parseCommandLine(_ arguments: [String]) throws -> any ParsableCommand {
        do {
            return try parseAsRoot(arguments)
        } catch {
            // Parse again with the commands' own checks off: whatever fails then (an unknown
            // option, an extra value) is the more basic mistake; if nothing does, the first
            // error stands. Commands without the guard simply fail the same way twice.
            _ = try ArgumentChecks.$areDeferred.withValue(true) { try parseAsRoot(arguments) }
            throw error
        }
    }
}

/// Whether the commands' `validate()` checks run: ``CardWalletCommand/parseCommandLine(_:)``
/// turns them off for a second parse that looks only for unknown options and extra arguments.
///
/// A command's `validate()` starts with `guard ArgumentChecks.apply else { return }`.
enum ArgumentChecks {
    /// Set while a parse should skip the commands' own checks.
    @TaskLocal static var areDeferred = false

    /// Whether a `validate()` should check now.
    static var apply: Bool { !areDeferred }
}
