/// Why a question could not be asked or answered at the terminal.
enum PromptError: Error, Sendable, Equatable, CustomStringConvertible {
    /// There is no terminal to ask on (a script, a pipe, a service).
    case noTerminal(advice: String)
    /// The user pressed Ctrl-C (or Ctrl-D on an empty line).
    case cancelled
    /// Reading from or setting up the terminal failed.
    case terminalFailed(String)

    /// The exit status: cancelled is 130 (as for SIGINT), no terminal is a usage error.
    var status: Int32 {
        switch self {
        case .noTerminal: CLIExitCode.usage
        case .cancelled: CLIExitCode.cancelled
        case .terminalFailed: CLIExitCode.failure
        }
    }

    var description: String {
        switch self {
        case .noTerminal(let advice): "There is no terminal to ask on. \(advice)"
        case .cancelled: "Cancelled."
        case .terminalFailed(let problem): "The terminal cannot be used: \(problem)."
        }
    }
}
