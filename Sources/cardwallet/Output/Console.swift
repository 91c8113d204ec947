import Foundation

/// Standard output and standard error, written straight to the file descriptors so nothing
/// waits in a buffer when the process exits or its output is a pipe.
enum Console {
    /// Writes `text` to standard output as it is (callers escape untrusted text).
    static func out(_ text: String) {
        write(text, to: FileHandle.standardOutput)
    }

    /// Writes `text` to standard error as it is.
    static func err(_ text: String) {
        write(text, to: FileHandle.standardError)
    }

    /// Writes `cardwallet: <message>` and a newline to standard error.
    static func error(_ message: String) {
        err("cardwallet: \(message)\n")
    }

    /// Writes `cardwallet: warning: <message>` and a newline to standard error.
    static func warning(_ message: String) {
        err("cardwallet: warning: \(message)\n")
    }

    private static func write(_ text: String, to handle: FileHandle) {
        // A closed pipe (`cardwallet list | head -1`) is not worth a crash or a message.
        try? handle.write(contentsOf: Data(text.utf8))
    }
}
