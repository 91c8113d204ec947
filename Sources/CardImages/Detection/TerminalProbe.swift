import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// Asks the terminal (and tmux) what it can draw, before curses starts, and chooses with
/// ``ImageProtocolDetector``. Everything is bounded by a short deadline: a terminal that
/// answers nothing costs that long once and gets half blocks.
public enum TerminalProbe {
    /// The queries, in the order they are written: kitty's graphics query (a 1×1 RGB image,
    /// `a=q` so nothing is stored), the cell size in pixels (`CSI 16 t`), then DA1 (`CSI c`),
    /// which every terminal answers, and answers last — so its reply ends the wait.
    static func queries(kittyThroughTmux: Bool) -> [UInt8] {
        let kitty = Array("\u{1B}_Gi=31,s=1,v=1,a=q,t=d,f=24;AAAA\u{1B}\\".utf8)
        return (kittyThroughTmux ? TmuxPassthrough.wrap(kitty) : kitty) + Array("\u{1B}[16t\u{1B}[c".utf8)
    }

    /// Detects the protocol for the terminal on `/dev/tty`.
    ///
    /// Asks nothing when the answer cannot change the choice (an explicit `requested` or
    /// `CARDWALLET_IMAGES`, `NO_COLOR`, `TERM=dumb`) or when there is no terminal to ask
    /// (then the environment alone decides).
    ///
    /// - Parameters:
    ///   - environment: the environment to read (`nil`: this process's).
    ///   - requested: an explicit protocol from the command line.
    ///   - timeout: how long to wait for the terminal's replies (and, separately, tmux's).
    public static func detect(
        environment: [String: String]? = nil, requested: ImageProtocol? = nil, timeout: Duration = .milliseconds(250)
    ) -> GraphicsChoice {
        let environment = environment ?? ProcessInfo.processInfo.environment
        let settled = ImageProtocolDetector.choose(environment: environment, requested: requested)
        let override = ImageSetting.parse(environment["CARDWALLET_IMAGES"])
        if requested != nil || (override != .some(nil) && override != nil) || settled.imageProtocol == .off {
            return settled
        }
        let inTmux = !(environment["TMUX"] ?? "").isEmpty
        let tmux = inTmux ? askTmux(timeout: .milliseconds(500)) : nil
        let descriptor = open("/dev/tty", O_RDWR | O_NOCTTY | O_CLOEXEC)
        guard descriptor >= 0 else {
            return ImageProtocolDetector.choose(environment: environment, answers: nil, tmux: tmux)
        }
        defer { close(descriptor) }
        let answers = query(descriptor, kittyThroughTmux: inTmux && tmux?.allowPassthrough == true, timeout: timeout)
        return ImageProtocolDetector.choose(environment: environment, answers: answers, tmux: tmux)
    }

    /// Writes the queries to the terminal on `descriptor` and reads its replies until DA1's
    /// arrives or `timeout` passes. The terminal is put in non-canonical, no-echo mode for the
    /// wait (so replies are not shown and arrive byte by byte) and restored on return.
    ///
    /// - Returns: the answers, or `nil` when `descriptor` is not a terminal.
    public static func query(_ descriptor: Int32, kittyThroughTmux: Bool = false, timeout: Duration) -> TerminalAnswers?
    {
        var saved = termios()
        guard tcgetattr(descriptor, &saved) == 0 else { return nil }
        var raw = saved
        raw.c_lflag &= ~tcflag_t(ICANON | ECHO)
        withUnsafeMutableBytes(of: &raw.c_cc) { cc in
            cc[Int(VMIN)] = 0
            cc[Int(VTIME)] = 0
        }
        guard tcsetattr(descriptor, TCSANOW, &raw) == 0 else { return nil }
        defer { _ = tcsetattr(descriptor, TCSANOW, &saved) }

        let queries = queries(kittyThroughTmux: kittyThroughTmux)
        guard writeAll(queries, to: descriptor) else { return TerminalAnswers() }
        let clock = ContinuousClock()
        let deadline = clock.now.advanced(by: timeout)
        var received: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 512)
        while received.count < 65_536 {
            let remaining = clock.now.duration(to: deadline)
            guard remaining > .zero else { break }
            let milliseconds = Int32(
                max(1, remaining.components.seconds * 1000 + remaining.components.attoseconds / 1_000_000_000_000_000))
            var poller = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
            let ready = poll(&poller, 1, milliseconds)
            if ready < 0 && errno == EINTR { continue }
            guard ready > 0 else { break }
            let count = buffer.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
            if count < 0 && (errno == EINTR || errno == EAGAIN) { continue }
            guard count > 0 else { break }
            received += buffer[..<count]
            if TerminalAnswers.parse(received).complete { break }
        }
        return TerminalAnswers.parse(received)
    }

    /// Asks tmux for our pane's `allow-passthrough` and the outer terminal's name and type.
    public static func askTmux(timeout: Duration) -> TmuxAnswers? {
        guard let passthrough = run(["tmux", "show-options", "-Apv", "allow-passthrough"], timeout: timeout) else {
            return nil
        }
        let value =
            passthrough.split(separator: "\n").first.map { String($0).trimmingCharacters(in: .whitespaces) } ?? ""
        var answers = TmuxAnswers(allowPassthrough: value == "on" || value == "all")
        if let client = run(
            ["tmux", "display-message", "-p", "#{client_termname}\t#{client_termtype}"], timeout: timeout)
        {
            let fields = client.trimmingCharacters(in: .newlines).split(
                separator: "\t", omittingEmptySubsequences: false)
            answers.clientTermName = fields.first.map(String.init).flatMap { $0.isEmpty ? nil : $0 }
            answers.clientTermType = fields.count > 1 ? (fields[1].isEmpty ? nil : String(fields[1])) : nil
        }
        return answers
    }

    /// Runs a command found on `PATH`, returning its standard output when it exits 0 in time.
    private static func run(_ arguments: [String], timeout: Duration) -> String? {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = arguments
        let output = Pipe()
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        process.standardInput = FileHandle.nullDevice
        let finished = DispatchSemaphore(value: 0)
        process.terminationHandler = { _ in finished.signal() }
        do { try process.run() } catch { return nil }
        let seconds = Double(timeout.components.seconds) + Double(timeout.components.attoseconds) / 1e18
        if finished.wait(timeout: .now() + seconds) == .timedOut {
            process.terminate()
            return nil
        }
        let data = output.fileHandleForReading.readDataToEndOfFile()
        guard process.terminationStatus == 0 else { return nil }
        return String(decoding: data, as: UTF8.self)
    }

    private static func writeAll(_ bytes: [UInt8], to descriptor: Int32) -> Bool {
        var offset = 0
        while offset < bytes.count {
            let written = bytes[offset...].withUnsafeBytes { write(descriptor, $0.baseAddress, $0.count) }
            if written < 0 && errno == EINTR { continue }
            guard written > 0 else { return false }
            offset += written
        }
        return true
    }
}
