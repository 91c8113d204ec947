import CNCurses
import CardWalletUI

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

extension CursesBackend {
    /// Waits at most `timeoutMilliseconds` for a key or a resize; `nil` when none came (or the
    /// key means nothing to the UI, such as Insert).
    ///
    /// A termination signal is reported once as `.key(.ctrl("c"))` (see ``terminationSignal``).
    /// Ctrl-Z suspends the program when ``Configuration/suspendsOnCtrlZ`` allows it and the
    /// shell has job control; on return the terminal is repainted and the event is a resize.
    public func nextEvent(timeoutMilliseconds: Int) -> TerminalEvent? {
        guard let window else { return nil }
        if let interruption = takeTerminationSignal() { return interruption }
        wtimeout(window, Int32(clamping: max(0, timeoutMilliseconds)))
        var value: wint_t = 0
        let status = wget_wch(window, &value)
        if let interruption = takeTerminationSignal() { return interruption }
        let raw: RawKey
        switch status {
        case OK: raw = .character(UInt32(value))
        case cn_key_code_yes(): raw = .code(Int32(bitPattern: UInt32(value)))
        default: return nil  // ERR: the timeout passed
        }
        switch KeyMapping.input(for: raw) {
        case nil:
            return nil
        case .resize:
            needsFullRepaint = true
            return .resize(width: size.width, height: size.height)
        case .key(.ctrl("z")) where canSuspend:
            suspend()
            return .resize(width: size.width, height: size.height)
        case .key(let key):
            return .key(key)
        }
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
