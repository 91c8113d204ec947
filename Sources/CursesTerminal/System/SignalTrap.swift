import CNCurses

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The process-wide signal handlers that restore the terminal.
///
/// The handlers themselves are C (`cn_trap_*` in `shim.h`) so that they are async-signal-safe.
/// This is the only Swift file that may call those functions: their state is a `static` of the
/// header, which each object file gets its own copy of.
///
/// - SIGINT, SIGTERM, SIGHUP: the first one is recorded for the main loop (see
///   ``CursesBackend/terminationRequest``); a second one restores the terminal at once and takes
///   its default action, so an unresponsive loop can still be stopped.
/// - SIGSEGV, SIGBUS, SIGILL, SIGTRAP (Swift traps), SIGABRT, SIGFPE, SIGSYS, SIGQUIT: restore
///   the terminal, put fds 1 and 2 back, then hand the signal to the previous handler (the Swift
///   runtime's backtracer prints to the restored stderr) or the default action.
enum SignalTrap {
    /// Installs the handlers, unarmed: a crash is passed on untouched until ``arm(_:)``.
    static func install() throws(CursesTerminalError) {
        guard cn_trap_install() == 0 else {
            let reason = SystemError.describe(errno)
            cn_trap_uninstall()
            throw .systemCallFailed(call: "sigaction", reason: reason)
        }
    }

    /// Puts back the handlers that were there before ``install()``.
    static func uninstall() {
        cn_trap_uninstall()
    }

    /// What an emergency restore writes and sets.
    struct Restoration {
        /// The terminal the reset bytes go to and the termios is set on.
        var terminal: Int32
        var terminalModes: termios
        /// `sgr0`, `cnorm`, `rmkx`, `rmcup` of the terminal, already expanded.
        var resetBytes: [UInt8]
        /// Copies of fds 1 and 2 from before the redirection, or -1.
        var originalStandardOutput: Int32
        var originalStandardError: Int32
        /// Printed on the restored stderr after a crash.
        var note: [UInt8]
    }

    /// Arms the emergency restore.
    static func arm(_ restoration: Restoration) throws(CursesTerminalError) {
        var modes = restoration.terminalModes
        let status = restoration.resetBytes.withUnsafeBufferPointer { reset in
            restoration.note.withUnsafeBufferPointer { note in
                reset.withMemoryRebound(to: CChar.self) { reset in
                    note.withMemoryRebound(to: CChar.self) { note in
                        cn_trap_arm(
                            restoration.terminal, &modes, reset.baseAddress, reset.count,
                            restoration.originalStandardOutput, restoration.originalStandardError,
                            note.baseAddress, note.count
                        )
                    }
                }
            }
        }
        guard status == 0 else {
            throw .systemCallFailed(call: "arming the crash handler", reason: "reset sequence too long")
        }
    }

    /// Disarms the emergency restore: the terminal is back to normal by other means.
    static func disarm() {
        cn_trap_disarm()
    }

    /// The first termination signal received since ``install()``, if any.
    static var pendingSignal: Int32? {
        let signal = cn_trap_pending()
        return signal == 0 ? nil : signal
    }

    /// Runs what a crash handler runs, without the crash: for tests.
    static func emergencyRestore() {
        cn_trap_emergency_restore()
    }

    /// Whether the emergency restore ran since the last ``arm(_:)``.
    static var didEmergencyRestore: Bool {
        cn_trap_is_restored() != 0
    }
}
