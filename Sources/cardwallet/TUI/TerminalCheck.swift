import CursesTerminal
import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The checks the interface's backend makes, run before anything starts (a demo server, a
/// network client), so a pipe or a missing `TERM` gets its message at once.
enum TerminalCheck {
    /// Why the interactive interface cannot run here, or `nil` when it can try.
    static func problem(environment: [String: String] = ProcessInfo.processInfo.environment) -> CursesTerminalError? {
        if isatty(STDIN_FILENO) == 0 { return .notATerminal(.input) }
        if isatty(STDOUT_FILENO) == 0 { return .notATerminal(.output) }
        guard let type = environment["TERM"], !type.isEmpty else { return .terminalTypeUnset }
        return CursesBackend.capabilityProblem(type: type, descriptor: STDOUT_FILENO)
    }

    /// Prints `error` as `cardwallet: …` on standard error, with the commands that work without
    /// a terminal when that is the problem.
    static func report(_ error: CursesTerminalError) {
        Console.error(error.description)
        if case .notATerminal = error {
            Console.err(
                "Without a terminal, use the scripting commands: cardwallet list, show, add, edit, rm, reorder "
                    + "(cardwallet --help lists them).\n")
        }
    }
}
