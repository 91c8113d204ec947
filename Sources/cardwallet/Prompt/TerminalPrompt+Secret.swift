import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

extension TerminalPrompt {
    /// Asks for a secret without showing it: the terminal's echo is off while it is typed, and
    /// its settings are restored on every way out — Enter, Ctrl-C, Ctrl-D, a read error, and
    /// a signal such as SIGTERM or SIGHUP arriving meanwhile.
    ///
    /// Signals from the keyboard are off while reading (`ISIG` cleared), so Ctrl-C arrives as
    /// a byte and cancels through the normal return path, and Ctrl-Z cannot stop the program
    /// with echo off. Backspace deletes a character, Ctrl-U the whole line; other control keys
    /// and escape sequences (arrows) are ignored.
    ///
    /// - Parameter prompt: shown before reading, e.g. `Password: `.
    /// - Returns: the text typed before Enter.
    /// - Throws: ``PromptError/cancelled`` for Ctrl-C, or Ctrl-D on an empty line;
    ///   ``PromptError/terminalFailed(_:)`` when the terminal cannot be set up or read.
    func readSecret(prompt: String) throws(PromptError) -> String {
        var original = termios()
        guard tcgetattr(fileDescriptor, &original) == 0 else {
            throw .terminalFailed("it does not accept terminal settings (\(String(cString: strerror(errno))))")
        }
        var quiet = original
        quiet.c_lflag &= ~tcflag_t(ECHO | ECHONL | ICANON | ISIG | IEXTEN)
        withUnsafeMutableBytes(of: &quiet.c_cc) { characters in
            characters[Int(VMIN)] = 1
            characters[Int(VTIME)] = 0
        }
        write(prompt)
        let guardian = EchoGuardian.install(descriptor: fileDescriptor, settings: original)
        guard tcsetattr(fileDescriptor, TCSAFLUSH, &quiet) == 0 else {
            guardian.remove()
            throw .terminalFailed("echo cannot be turned off (\(String(cString: strerror(errno))))")
        }
        var bytes: [UInt8] = []
        defer {
            var restore = original
            _ = tcsetattr(fileDescriptor, TCSAFLUSH, &restore)
            guardian.remove()
            write("\n")
            for index in bytes.indices { bytes[index] = 0 }
        }
        while true {
            guard let byte = try readByte() else { throw .cancelled }
            switch byte {
            case 0x0D, 0x0A:
                return String(decoding: bytes, as: UTF8.self)
            case 0x03:
                throw .cancelled
            case 0x04:
                if bytes.isEmpty { throw .cancelled }
            case 0x7F, 0x08:
                Self.deleteLastCharacter(&bytes)
            case 0x15:
                for index in bytes.indices { bytes[index] = 0 }
                bytes.removeAll()
            case 0x1B:
                try skipEscapeSequence()
            case 0x00..<0x20:
                continue
            default:
                bytes.append(byte)
            }
        }
    }

    /// Removes the last UTF-8 encoded scalar.
    static func deleteLastCharacter(_ bytes: inout [UInt8]) {
        while let last = bytes.popLast() {
            if last & 0xC0 != 0x80 { return }
        }
    }

    /// Consumes the rest of an escape sequence (`ESC [ … final` or `ESC O x`).
    private func skipEscapeSequence() throws(PromptError) {
        guard let introducer = try readByte() else { return }
        if introducer == UInt8(ascii: "O") {
            _ = try readByte()
        } else if introducer == UInt8(ascii: "[") {
            while let byte = try readByte(), !(0x40...0x7E).contains(byte) {}
        }
    }
}

/// Restores the terminal's settings if SIGINT, SIGTERM, SIGHUP or SIGQUIT arrive (from `kill`:
/// the keyboard sends none while the secret is read) while echo is off,
/// then lets the signal do what it would have done. Only one secret prompt runs at a time.
struct EchoGuardian {
    private static let signals = [SIGINT, SIGTERM, SIGHUP, SIGQUIT]
    private let previous: [sighandler_t?]

    static func install(descriptor: Int32, settings: termios) -> EchoGuardian {
        guardedDescriptor = descriptor
        guardedSettings = settings
        return EchoGuardian(previous: signals.map { signal($0, restoreAndResignal) })
    }

    func remove() {
        for (index, number) in Self.signals.enumerated() {
            _ = signal(number, previous[index])
        }
        guardedDescriptor = -1
    }
}

// Read by the signal handler; written only by the one prompt that installs it, before the
// handler is installed and after it is removed.
nonisolated(unsafe) private var guardedDescriptor: Int32 = -1
nonisolated(unsafe) private var guardedSettings = termios()

private let restoreAndResignal: @convention(c) (Int32) -> Void = { number in
    if guardedDescriptor >= 0 { _ = tcsetattr(guardedDescriptor, TCSANOW, &guardedSettings) }
    _ = signal(number, SIG_DFL)
    _ = raise(number)
}
