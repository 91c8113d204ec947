import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Questions asked at the user's terminal (`/dev/tty`), so they work even when standard input
/// and output are redirected: a password without echo, a line of text, a yes/no confirmation.
///
/// ```swift
/// guard let terminal = TerminalPrompt.openControllingTerminal() else { throw … }
/// defer { terminal.close() }
/// let password = try terminal.readSecret(prompt: "Password: ")
/// ```
struct TerminalPrompt: Sendable {
    /// The terminal's file descriptor, open for reading and writing.
    let fileDescriptor: Int32
    private let ownsDescriptor: Bool

    /// A prompt on an open terminal descriptor (tests pass a pseudo-terminal); not closed by
    /// ``close()``.
    init(fileDescriptor: Int32) {
        self.fileDescriptor = fileDescriptor
        self.ownsDescriptor = false
    }

    private init(owned descriptor: Int32) {
        self.fileDescriptor = descriptor
        self.ownsDescriptor = true
    }

    /// The controlling terminal, or `nil` when the process has none (a script, a service).
    static func openControllingTerminal() -> TerminalPrompt? {
        let descriptor = open("/dev/tty", O_RDWR | O_CLOEXEC)
        guard descriptor >= 0 else { return nil }
        guard isatty(descriptor) == 1 else {
            _ = systemClose(descriptor)
            return nil
        }
        return TerminalPrompt(owned: descriptor)
    }

    /// Whether standard input is a terminal (a person may be there to answer).
    static var standardInputIsTerminal: Bool { isatty(STDIN_FILENO) == 1 }

    /// Closes the terminal if this prompt opened it.
    func close() {
        if ownsDescriptor { _ = systemClose(fileDescriptor) }
    }

    /// Writes `text` to the terminal.
    func write(_ text: String) {
        var bytes = Array(text.utf8)
        var offset = 0
        while offset < bytes.count {
            let written = bytes.withUnsafeMutableBytes { buffer in
                systemWrite(fileDescriptor, buffer.baseAddress! + offset, buffer.count - offset)
            }
            if written < 0, errno == EINTR { continue }
            guard written > 0 else { return }
            offset += written
        }
    }

    /// Asks for a line of text, shown as it is typed.
    ///
    /// - Throws: ``PromptError/cancelled`` at end of input.
    func readLine(prompt: String) throws(PromptError) -> String {
        write(prompt)
        var bytes: [UInt8] = []
        while true {
            guard let byte = try readByte() else {
                if bytes.isEmpty { throw .cancelled }
                break
            }
            if byte == 0x0A { break }
            bytes.append(byte)
        }
        if bytes.last == 0x0D { bytes.removeLast() }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// Asks a yes/no question; only `y` or `yes` (any case) is yes.
    func confirm(_ question: String) throws(PromptError) -> Bool {
        let answer = try readLine(prompt: question + " [y/N] ").trimmingCharacters(in: .whitespaces).lowercased()
        return answer == "y" || answer == "yes"
    }

    /// Reads one byte; `nil` at end of input.
    func readByte() throws(PromptError) -> UInt8? {
        var byte: UInt8 = 0
        while true {
            let count = systemRead(fileDescriptor, &byte, 1)
            if count == 1 { return byte }
            if count == 0 { return nil }
            if errno == EINTR { continue }
            throw .terminalFailed(String(cString: strerror(errno)))
        }
    }
}

// File-level wrappers: inside the type, `close`, `write` and `read` name its own methods.
private func systemClose(_ descriptor: Int32) -> Int32 { close(descriptor) }
private func systemWrite(_ descriptor: Int32, _ buffer: UnsafeRawPointer, _ count: Int) -> Int {
    write(descriptor, buffer, count)
}
private func systemRead(_ descriptor: Int32, _ buffer: UnsafeMutableRawPointer, _ count: Int) -> Int {
    read(descriptor, buffer, count)
}
