import CNCurses
public import CardWalletUI

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

extension CursesBackend {
    /// Waits at most `timeoutMilliseconds` for a key or a resize; `nil` when none came (or the
    /// key means nothing to the UI, such as Insert), and `nil` at once when ``waker`` was
    /// called since the last call or while waiting.
    ///
    /// Keys come first: whatever curses holds (the rest of a paste, a byte after an Escape) or
    /// the terminal already sent is returned before a wake-up is reported. Then it waits in
    /// `poll(2)` on the terminal and the wake-up pipe together, and reads the key once the
    /// terminal has one (curses still waits its escape delay for the rest of a sequence).
    ///
    /// A termination signal is reported once as `.key(.ctrl("c"))` (see ``terminationSignal``).
    /// Ctrl-Z suspends the program when ``Configuration/suspendsOnCtrlZ`` allows it and the
    /// shell has job control; on return the terminal is repainted and the event is a resize.
    public func nextEvent(timeoutMilliseconds: Int) -> TerminalEvent? {
        guard let window else { return nil }
        if let interruption = takeTerminationSignal() { return interruption }
        switch readKey(window, waitingMilliseconds: 0) {
        case .event(let event): return event
        case .nothing: break
        }
        guard let wake = wakeSignal else {
            // No pipe: curses waits for the key itself, as before wake-ups existed.
            if case .event(let event) = readKey(window, waitingMilliseconds: max(0, timeoutMilliseconds)) {
                return event
            }
            return nil
        }
        let ready = waitForInput(wake: wake, timeoutMilliseconds: max(0, timeoutMilliseconds))
        if let interruption = takeTerminationSignal() { return interruption }
        if ready.input {
            // Input, a hang-up or a signal (SIGWINCH: curses reports KEY_RESIZE now). The first
            // byte is there; the escape delay is the most the rest of a character may take.
            if case .event(let event) = readKey(
                window, waitingMilliseconds: configuration.escapeDelayMilliseconds)
            {
                return event
            }
            // Nothing to read from a terminal that hung up: stop polling it, or every wait would
            // end at once (SIGHUP ends the program soon anyway).
            if ready.hungUp { inputHungUp = true }
        }
        if ready.woken { wake.clear() }
        return nil
    }

    /// What one `wget_wch` gave.
    private enum KeyRead {
        /// A key or a resize, or `nil` for a key the UI ignores.
        case event(TerminalEvent?)
        /// `ERR`: nothing came within the wait.
        case nothing
    }

    private func readKey(_ window: UnsafeMutablePointer<WINDOW>, waitingMilliseconds: Int) -> KeyRead {
        wtimeout(window, Int32(clamping: waitingMilliseconds))
        var value: wint_t = 0
        let status = wget_wch(window, &value)
        if let interruption = takeTerminationSignal() { return .event(interruption) }
        let raw: RawKey
        switch status {
        case OK: raw = .character(UInt32(value))
        case cn_key_code_yes(): raw = .code(Int32(bitPattern: UInt32(value)))
        default: return .nothing
        }
        if case .code(let code) = raw {
            if code == EscapeSequences.pasteStart { return .event(.paste(readPaste(window))) }
            if code == EscapeSequences.pasteEnd { return .event(nil) }
            if code == cn_key_mouse() { return .event(readMouse().map(TerminalEvent.mouse)) }
        }
        switch KeyMapping.input(for: raw) {
        case nil:
            return .event(nil)
        case .resize:
            needsFullRepaint = true
            return .event(.resize(width: size.width, height: size.height))
        case .key(.ctrl("z")) where canSuspend:
            suspend()
            return .event(.resize(width: size.width, height: size.height))
        case .key(let key):
            return .event(.key(key))
        }
    }

    /// The most characters a paste keeps; the rest of a larger paste is read and dropped.
    static let maximumPasteCharacters = 100_000

    /// Reads a bracketed paste up to its end marker: text, whatever keys it holds (a line break
    /// is a line break, never Enter). A terminal that never sends the end marker ends the paste
    /// after half a second of silence.
    private func readPaste(_ window: UnsafeMutablePointer<WINDOW>) -> String {
        var text = ""
        var count = 0
        var lastWasCarriageReturn = false
        wtimeout(window, 500)
        while true {
            var value: wint_t = 0
            let status = wget_wch(window, &value)
            if status == cn_key_code_yes() {
                if Int32(bitPattern: UInt32(value)) == EscapeSequences.pasteEnd { break }
                continue  // a key sequence inside the paste: not text
            }
            guard status == OK else { break }
            let character = UInt32(value)
            // CR LF is one line break.
            defer { lastWasCarriageReturn = character == 0x0D }
            if character == 0x0A, lastWasCarriageReturn { continue }
            guard count < Self.maximumPasteCharacters else { continue }
            let piece = KeyMapping.pasted(character)
            text += piece
            count += piece.isEmpty ? 0 : 1
        }
        return text
    }

    /// The mouse event curses holds, if it is one the interface uses.
    private func readMouse() -> MouseEvent? {
        var event = MEVENT()
        guard getmouse(&event) == OK else { return nil }
        let state = event.bstate
        let kind: MouseEvent.Kind
        if state & cn_button4_pressed() != 0 {
            kind = .wheelUp
        } else if cn_button5_pressed() != 0, state & cn_button5_pressed() != 0 {
            kind = .wheelDown
        } else if state & (cn_button1_pressed() | cn_button1_clicked() | cn_button1_double_clicked()) != 0 {
            kind = .press
        } else {
            return nil
        }
        return MouseEvent(kind, x: Int(event.x), y: Int(event.y))
    }

    /// Waits in `poll(2)` until the terminal has input, the wake-up pipe is readable, a signal
    /// arrives or `timeoutMilliseconds` pass.
    ///
    /// - Returns: Whether to read the terminal (input, a hang-up or an interrupting signal),
    ///   whether the terminal hung up, and whether a wake-up is pending.
    private func waitForInput(wake: WakeSignal, timeoutMilliseconds: Int) -> (
        input: Bool, hungUp: Bool, woken: Bool
    ) {
        var descriptors = [
            // A negative descriptor is skipped: a terminal that hung up stays readable forever.
            pollfd(fd: inputHungUp ? -1 : inputDescriptor, events: Int16(POLLIN), revents: 0),
            pollfd(fd: wake.readDescriptor, events: Int16(POLLIN), revents: 0),
        ]
        let count = poll(&descriptors, nfds_t(descriptors.count), Int32(clamping: timeoutMilliseconds))
        if count < 0 {
            // EINTR: a signal came to this thread; SIGWINCH is waiting in curses as KEY_RESIZE.
            return (input: true, hungUp: false, woken: false)
        }
        let input = descriptors[0].revents
        return (
            input: input != 0, hungUp: input & Int16(POLLHUP | POLLERR | POLLNVAL) != 0,
            woken: descriptors[1].revents != 0
        )
    }

    private func takeTerminationSignal() -> TerminalEvent? {
        guard signalsInstalled, terminationSignal == nil, let signal = SignalTrap.pendingSignal else {
            return nil
        }
        terminationSignal = signal
        return .key(.ctrl("c"))
    }

    /// Job control by hand, since raw mode turns Ctrl-Z into a key: leave curses mode, give fds
    /// 1 and 2 back, stop until the shell's `fg`, then take the terminal again.
    private func suspend() {
        guard let window else { return }
        _ = def_prog_mode()
        _ = endwin()
        strayOutput?.detach()
        // SIGSTOP, not SIGTSTP: ncurses may have a SIGTSTP handler of its own.
        _ = raise(SIGSTOP)
        strayOutput?.attach()
        // Refreshing after endwin re-enters curses mode (alternate screen, keypad, raw).
        needsFullRepaint = true
        _ = clearok(cn_curscr(), true)
        _ = wrefresh(window)
    }
}
