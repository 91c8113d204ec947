#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Why the terminal interface could not start, or why it stopped.
public enum CursesTerminalError: Error, Sendable, Hashable, CustomStringConvertible {
    /// One of the standard streams the interface needs.
    public enum Stream: String, Sendable, Hashable {
        case input = "standard input"
        case output = "standard output"
    }

    /// Standard input or output is a pipe or a file, not a terminal.
    case notATerminal(Stream)
    /// `TERM` is unset or empty.
    case terminalTypeUnset
    /// The terminfo database has no entry for this `TERM`.
    case unknownTerminalType(String)
    /// This `TERM` cannot move the cursor (`TERM=dumb`, a printing terminal): nothing could be
    /// drawn where it belongs.
    case cannotAddressCursor(String)
    /// Neither the environment's locale nor a fallback is UTF-8.
    case noUTF8Locale
    /// Another ``CursesBackend`` of this process owns the terminal.
    case alreadyActive
    /// The file for stray output could not be opened.
    case cannotOpenStrayOutput(path: String, reason: String)
    /// A system call needed to set the terminal up failed.
    case systemCallFailed(call: String, reason: String)
    /// The interface stopped because the process received `signal` (SIGINT, SIGTERM, SIGHUP).
    case terminated(signal: Int32)

    /// The conventional exit status: 128 + the signal for ``terminated(signal:)``, else 1.
    public var exitCode: Int32 {
        if case .terminated(let signal) = self { return 128 + signal }
        return 1
    }

    public var description: String {
        switch self {
        case .notATerminal(let stream):
            let redirect = stream == .input ? "`< file` or a pipe" : "`> file` or `| less`"
            return "\(stream.rawValue) is not a terminal, and the interactive interface needs one. "
                + "Run it in a terminal window without redirecting \(stream == .input ? "input" : "output") "
                + "(\(redirect)), or use a non-interactive command."
        case .terminalTypeUnset:
            return "TERM is not set, so the terminal type is unknown. "
                + "Set it to your terminal's type, e.g. `export TERM=xterm-256color`."
        case .unknownTerminalType(let type):
            return "the terminal type TERM=\(type.debugDescription) is not in the terminfo database. "
                + "Set TERM to a known type (e.g. `export TERM=xterm-256color`; `toe -a` lists them) "
                + "or install its description (Debian: `apt-get install ncurses-term`)."
        case .cannotAddressCursor(let type):
            return "the terminal type TERM=\(type.debugDescription) cannot move the cursor, so the "
                + "interactive interface cannot draw on it. Run it in a full terminal (TERM=xterm-256color, "
                + "screen, tmux…), or use the scripting commands (cardwallet list, show, add…)."
        case .noUTF8Locale:
            return "no UTF-8 locale is available (tried the environment's locale, then "
                + "\(TerminalLocale.fallbacks.joined(separator: ", "))). "
                + "Set LANG to a UTF-8 locale (e.g. `export LANG=C.UTF-8`) or install one "
                + "(Debian: `apt-get install locales`)."
        case .alreadyActive:
            return "the terminal is already in use by this program's interface; "
                + "restore it before starting another."
        case .cannotOpenStrayOutput(let path, let reason):
            return "cannot open \(path.debugDescription) for messages written while the interface is open: "
                + "\(reason). Choose a writable path."
        case .systemCallFailed(let call, let reason):
            return "cannot set up the terminal: \(call) failed: \(reason)."
        case .terminated(let signal):
            return "stopped by \(Self.name(ofSignal: signal))."
        }
    }

    /// `SIGTERM` and friends by name, for messages.
    static func name(ofSignal signal: Int32) -> String {
        switch signal {
        case SIGINT: "SIGINT"
        case SIGTERM: "SIGTERM"
        case SIGHUP: "SIGHUP"
        default: "signal \(signal)"
        }
    }
}
