import CardModels
import Foundation
import Synchronization

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// Standard output and standard error, written straight to the file descriptors so nothing
/// waits in a buffer when the process exits or its output is a pipe.
enum Console {
    /// Writes `text` to standard output as it is (callers escape untrusted text).
    /// Where a test running commands in its own task collects what they print, instead of the
    /// process's standard output and error (a task-local value: tests side by side never mix).
    @TaskLocal static var capture: ConsoleCapture?

    static func out(_ text: String) {
        if let capture {
            capture.append(text, error: false)
            return
        }
        if let code = write(text, to: STDOUT_FILENO), code != EPIPE {
            // A closed pipe (`cardwallet list | head -1`) is the reader's choice; anything else
            // (a full disk) loses output, and the command must not report success.
            outputError.withLock { $0 = $0 ?? code }
        }
    }

    /// Writes `text` to standard error as it is.
    static func err(_ text: String) {
        if let capture {
            capture.append(text, error: true)
            return
        }
        _ = write(text, to: STDERR_FILENO)
    }

    /// Writes `cardwallet: <message>` and a newline to standard error, made terminal-safe.
    static func error(_ message: String) {
        err("cardwallet: \(visible(message))\n")
    }

    /// Writes `cardwallet: note: <message>` and a newline to standard error, made terminal-safe:
    /// something the person may want to know, not a problem.
    static func note(_ message: String) {
        err("cardwallet: note: \(visible(message))\n")
    }

    /// Writes `cardwallet: warning: <message>` and a newline to standard error, made terminal-safe.
    static func warning(_ message: String) {
        err("cardwallet: warning: \(visible(message))\n")
    }

    /// `message` with every control character escaped except line breaks and tabs. Messages
    /// escape the untrusted text they quote already; this is the net under them, so no
    /// message can ever write ESC, BEL, NUL, a C1 control or a bidi override to the terminal.
    static func visible(_ message: String) -> String {
        if TerminalText.isPrintableASCII(message) { return message }
        return message.split(separator: "\n", omittingEmptySubsequences: false).map { line in
            line.split(separator: "\t", omittingEmptySubsequences: false).map { TerminalText.escaped(String($0)) }
                .joined(separator: "\t")
        }.joined(separator: "\n")
    }

    /// Why standard output could not be written, when it could not (other than a closed pipe):
    /// e.g. `No space left on device`.
    static var outputFailure: String? {
        outputError.withLock { $0 }.map { String(cString: strerror($0)) }
    }

    private static let outputError = Mutex<Int32?>(nil)

    /// Writes all of `text`, retrying short writes; returns the `errno` of a failure.
    private static func write(_ text: String, to descriptor: Int32) -> Int32? {
        var bytes = Array(text.utf8)[...]
        while !bytes.isEmpty {
            let written = bytes.withUnsafeBytes { buffer in
                // Glibc's write(2), not this function.
                systemWrite(descriptor, buffer.baseAddress, buffer.count)
            }
            if written > 0 {
                bytes = bytes.dropFirst(written)
            } else if written < 0 && errno == EINTR {
                continue
            } else {
                return written < 0 ? errno : EIO
            }
        }
        return nil
    }
}

#if canImport(Glibc)
    private let systemWrite = Glibc.write
#elseif canImport(Musl)
    private let systemWrite = Musl.write
#elseif canImport(Darwin)
    private let systemWrite = Darwin.write
#endif

/// What commands printed, collected for a test (``Console/capture``).
final class ConsoleCapture: Sendable {
    private let texts = Mutex<(out: String, err: String)>(("", ""))

    /// Everything printed on standard output so far.
    var out: String { texts.withLock { $0.out } }
    /// Everything printed on standard error so far.
    var err: String { texts.withLock { $0.err } }

    func append(_ text: String, error: Bool) {
        texts.withLock { texts in
            if error { texts.err += text } else { texts.out += text }
        }
    }
}
