import CNCurses
public import CardWalletUI
import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A ``TerminalBackend`` over ncursesw: keys in through `wget_wch`, frames out as the cells that
/// changed, and the terminal restored on every way out (see `docs/Terminal.md`).
///
/// Curses is process-global, so at most one backend is active at a time, on the main actor.
/// Prefer ``CursesTerminal/run(configuration:_:)``, which guarantees ``restore()``.
@MainActor
public final class CursesBackend: TerminalBackend {
    /// Whether a backend of this process owns the terminal.
    private static var isTerminalInUse = false

    /// How this backend was started.
    public let configuration: Configuration

    /// The first SIGINT, SIGTERM or SIGHUP the process received while the interface was open.
    ///
    /// When one arrives, ``nextEvent(timeoutMilliseconds:)`` returns `.key(.ctrl("c"))` once so
    /// the loop wakes up and quits; the loop should also stop whenever this is set. A second
    /// such signal restores the terminal at once and ends the process.
    public internal(set) var terminationSignal: Int32?

    var screen: OpaquePointer?
    var window: UnsafeMutablePointer<WINDOW>?
    private var outputFile: UnsafeMutablePointer<FILE>?
    private var inputFile: UnsafeMutablePointer<FILE>?
    private var terminal: Int32 = -1
    private var originalModes = termios()
    var strayOutput: StrayOutput?
    var palette = Palette.monochrome
    var lastPainted: Grid?
    var needsFullRepaint = true
    var canSuspend = false
    private(set) var signalsInstalled = false
    private var ownsTerminal = false
    /// Curses' copy of the input descriptor, which ``nextEvent(timeoutMilliseconds:)`` polls.
    var inputDescriptor: Int32 = -1
    /// Set once the terminal hung up: polling it would return at once forever.
    var inputHungUp = false
    /// The self-pipe ``waker`` writes to; `nil` before start, after restore, or when no pipe
    /// could be made.
    var wakeSignal: WakeSignal?
    private var lastKnownSize = (width: 0, height: 0)

    /// Takes over the terminal: curses mode, keypad, no echo, hidden cursor, colours.
    /// - Parameter configuration: Which terminal, where stray output goes, colours, signals.
    /// - Throws: ``CursesTerminalError`` when the streams are not a terminal, `TERM` is unset or
    ///   unknown, no UTF-8 locale exists, another backend is active, or set-up fails. Nothing
    ///   is changed on the terminal then.
    public init(configuration: Configuration = Configuration()) throws(CursesTerminalError) {
        self.configuration = configuration
        guard !Self.isTerminalInUse else { throw .alreadyActive }
        guard isatty(configuration.inputDescriptor) == 1 else { throw .notATerminal(.input) }
        guard isatty(configuration.outputDescriptor) == 1 else { throw .notATerminal(.output) }
        let type = configuration.terminalType ?? Self.environment("TERM")
        guard let type, !type.isEmpty else { throw .terminalTypeUnset }
        if let problem = Self.capabilityProblem(type: type, descriptor: configuration.outputDescriptor) {
            throw problem
        }
        guard TerminalLocale.ensureUTF8() else { throw .noUTF8Locale }
        guard tcgetattr(configuration.outputDescriptor, &originalModes) == 0 else {
            throw .systemCallFailed(call: "tcgetattr", reason: SystemError.describe(errno))
        }
        Self.isTerminalInUse = true
        ownsTerminal = true
        do {
            try start(type: type)
        } catch {
            restore()
            throw error
        }
    }

    /// Why a terminal of `type` on `descriptor` cannot run the interface (an unknown type, or
    /// one that cannot move the cursor, such as `dumb`), or `nil`. Reads the terminfo entry
    /// without changing the terminal, so it can run before anything else starts.
    public nonisolated static func capabilityProblem(type: String, descriptor: Int32) -> CursesTerminalError? {
        switch cn_terminal_addresses_cursor(type, descriptor) {
        case 1: nil
        case 0: .cannotAddressCursor(type)
        default: .unknownTerminalType(type)
        }
    }

    /// Columns and rows right now.
    public var size: (width: Int, height: Int) {
        guard window != nil else { return lastKnownSize }
        return (Int(cn_cols()), Int(cn_lines()))
    }

    /// Makes a waiting ``nextEvent(timeoutMilliseconds:)`` return `nil` at once (or the next
    /// one, when none is waiting); callable from any thread. Calls after ``restore()`` do
    /// nothing harmful. `nil` only when the system had no descriptors left for the pipe.
    public var waker: (@Sendable () -> Void)? {
        guard let wakeSignal else { return nil }
        return { wakeSignal.wake() }
    }

    /// Makes the next ``present(_:)`` clear the terminal and paint every cell, as after a resize:
    /// for a redraw key (Ctrl-L) when something else scribbled on the screen.
    public func requestFullRepaint() {
        needsFullRepaint = true
    }

    /// Puts `text` on the clipboard through the terminal: OSC 52, which works over SSH; inside
    /// tmux also wrapped for passthrough, so the outer terminal gets it whether tmux keeps
    /// clipboard requests (`set-clipboard on`) or passes them through (`allow-passthrough on`).
    public func copyToClipboard(_ text: String) {
        guard window != nil else { return }
        let sequence = "\u{1B}]52;c;" + Data(text.utf8).base64EncodedString() + "\u{07}"
        writeToTerminal(sequence)
        if Self.environment("TMUX") != nil {
            writeToTerminal(
                "\u{1B}Ptmux;" + sequence.replacingOccurrences(of: "\u{1B}", with: "\u{1B}\u{1B}") + "\u{1B}\\")
        }
    }

    /// Drops typeahead: keys the terminal sent that have not been read (`flushinp`).
    public func discardPendingInput() {
        guard window != nil else { return }
        _ = flushinp()
    }

    /// Leaves curses mode: the terminal's modes, cursor, keypad and main screen are as before,
    /// fds 1 and 2 point where they did, and the signal handlers are the previous ones.
    /// Safe to call more than once.
    public func restore() {
        guard ownsTerminal else { return }
        if window != nil {
            lastKnownSize = size
            writeToTerminal(EscapeSequences.disableBracketedPaste)
            if configuration.usesMouse { _ = mousemask(0, nil) }
            _ = endwin()
        }
        if terminal >= 0 {
            _ = tcsetattr(terminal, TCSADRAIN, &originalModes)
        }
        SignalTrap.disarm()
        // The terminal is sane again before fd 2 comes back, so anything written from here
        // on (an error message, a runtime crash report) lands on a readable screen.
        strayOutput?.end()
        strayOutput = nil
        if signalsInstalled {
            // A request that came after the loop last asked still counts: `run` reports it.
            if terminationSignal == nil { terminationSignal = SignalTrap.pendingSignal }
            SignalTrap.uninstall()
            signalsInstalled = false
        }
        if let screen {
            delscreen(screen)
            self.screen = nil
        }
        window = nil
        if let outputFile { fclose(outputFile) }
        if let inputFile { fclose(inputFile) }
        outputFile = nil
        inputFile = nil
        terminal = -1
        inputDescriptor = -1
        // Wakers handed out keep the pipe open (and harmless) until they are gone.
        wakeSignal = nil
        ownsTerminal = false
        Self.isTerminalInUse = false
    }

    private func start(type: String) throws(CursesTerminalError) {
        let tstpIsDefault = cn_signal_is_default(SIGTSTP) != 0
        if configuration.handlesSignals {
            // Before newterm: ncurses installs its own SIGINT/SIGTERM handlers (which exit
            // without our restore) only where it finds the default action.
            try SignalTrap.install()
            signalsInstalled = true
        }
        // Curses gets its own descriptors: fds 0 and 1 may be redirected below.
        guard let output = Self.open(configuration.outputDescriptor, mode: "w") else {
            throw .systemCallFailed(call: "dup", reason: SystemError.describe(errno))
        }
        outputFile = output.file
        terminal = output.descriptor
        guard let input = Self.open(configuration.inputDescriptor, mode: "r") else {
            throw .systemCallFailed(call: "dup", reason: SystemError.describe(errno))
        }
        inputFile = input.file
        inputDescriptor = input.descriptor
        wakeSignal = WakeSignal()
        use_tioctl(true)  // the window size from the terminal wins over stale LINES/COLUMNS
        guard let screen = newterm(type, output.file, input.file) else {
            throw .unknownTerminalType(type)
        }
        self.screen = screen
        _ = set_term(screen)
        window = cn_stdscr()
        let resetBytes = Self.resetSequence()
        try redirectStrayOutput()
        if signalsInstalled {
            try SignalTrap.arm(
                SignalTrap.Restoration(
                    terminal: terminal, terminalModes: originalModes, resetBytes: resetBytes,
                    originalStandardOutput: strayOutput?.original(of: STDOUT_FILENO) ?? -1,
                    originalStandardError: strayOutput?.original(of: STDERR_FILENO) ?? -1,
                    note: crashNote()
                )
            )
        }
        enterCursesModes()
        palette = startColors()
        canSuspend =
            configuration.suspendsOnCtrlZ && tstpIsDefault
            && getpgrp() != getsid(0)  // an orphaned job could never be resumed
            && tcgetpgrp(terminal) == getpgrp()
    }

    private func enterCursesModes() {
        guard let window else { return }
        // raw, not cbreak: Ctrl-C, Ctrl-Z, Ctrl-\, Ctrl-S and Ctrl-Q arrive as keys instead of
        // signals and flow control; Ctrl-C reaches the UI as `.ctrl("c")`, its quit key.
        _ = raw()
        _ = noecho()
        _ = nonl()
        _ = intrflush(window, false)
        _ = keypad(window, true)
        _ = meta(window, true)
        _ = set_escdelay(Int32(clamping: configuration.escapeDelayMilliseconds))
        _ = curs_set(0)
        _ = leaveok(window, true)
        _ = scrollok(window, false)
        _ = idlok(window, false)
        EscapeSequences.install()
        if configuration.usesMouse {
            // Presses and the wheel only: no motion reports, no click delay.
            _ = mousemask(cn_button1_pressed() | cn_button4_pressed() | cn_button5_pressed(), nil)
            _ = mouseinterval(0)
        }
        writeToTerminal(EscapeSequences.enableBracketedPaste)
    }

    /// Writes `text` to the terminal as it is (a mode change curses does not know).
    func writeToTerminal(_ text: String) {
        writeToTerminal(bytes: Array(text.utf8))
    }

    /// Writes `bytes` to the terminal as they are, after what curses has buffered.
    func writeToTerminal(bytes: [UInt8]) {
        guard terminal >= 0 else { return }
        if let outputFile { fflush(outputFile) }
        var bytes = bytes
        var offset = 0
        while offset < bytes.count {
            let written = bytes.withUnsafeMutableBytes { buffer in
                write(terminal, buffer.baseAddress! + offset, buffer.count - offset)
            }
            if written < 0, errno == EINTR { continue }
            if written <= 0 { return }
            offset += written
        }
    }

    private func startColors() -> Palette {
        guard configuration.colors == .automatic,
            Palette.environmentAllowsColor(noColor: Self.environment("NO_COLOR")),
            has_colors(), start_color() == OK
        else { return .monochrome }
        let defaultBackground = use_default_colors() == OK
        let palette = Palette(
            usesColor: true, colorCount: Int(cn_colors()), usesDefaultBackground: defaultBackground)
        guard cn_color_pairs() > Int32(Style.Color.allCases.count) else { return .monochrome }
        for definition in palette.pairDefinitions {
            _ = init_pair(definition.pair, definition.foreground, definition.background)
        }
        return palette
    }

    private func redirectStrayOutput() throws(CursesTerminalError) {
        guard let path = configuration.strayOutputPath else { return }
        let descriptors = [STDOUT_FILENO, STDERR_FILENO].filter { isatty($0) == 1 }
        strayOutput = try StrayOutput(path: path, descriptors: descriptors)
    }

    private func crashNote() -> [UInt8] {
        guard let path = strayOutput?.path, path != "/dev/null" else { return [] }
        let note =
            "The terminal was restored after a crash. "
            + "Output written while the interface was open is in \(path).\n"
        return Array(note.utf8)
    }

    /// What the terminal needs to be usable again: attributes off, cursor visible, keypad
    /// transmit off, main screen. Padding (`$<5>`) is dropped: there is no one to interpret it.
    private static func resetSequence() -> [UInt8] {
        var bytes: [UInt8] = []
        for capability in ["sgr0", "cnorm", "rmkx", "rmcup"] {
            var buffer = [CChar](repeating: 0, count: 256)
            let length = cn_string_capability(capability, &buffer, buffer.count)
            bytes += TerminfoString.removingPadding(buffer[..<length].map { UInt8(bitPattern: $0) })
        }
        bytes += Array((EscapeSequences.disableBracketedPaste + EscapeSequences.disableMouse).utf8)
        return bytes
    }

    private static func open(_ descriptor: Int32, mode: String) -> (
        file: UnsafeMutablePointer<FILE>, descriptor: Int32
    )? {
        let copy = fcntl(descriptor, F_DUPFD_CLOEXEC, 3)
        guard copy >= 0 else { return nil }
        guard let file = fdopen(copy, mode) else {
            _ = close(copy)
            return nil
        }
        return (file, copy)
    }

    static func environment(_ name: String) -> String? {
        getenv(name).map { String(cString: $0) }
    }
}
