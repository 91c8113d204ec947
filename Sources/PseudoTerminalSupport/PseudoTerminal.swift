// `termios` in the API is the one <pty.h> brings in through CPseudoTerminal.
public import CPseudoTerminal
import Glibc

/// A pseudo-terminal pair: a program (or the curses backend under test) gets the slave side, the
/// caller plays the terminal emulator on the master side — reads what the program paints and
/// writes what the user types.
///
/// One implementation for the curses backend's tests, the CLI's prompt tests and the benchmark's
/// terminal figures (which run whole programs in it: `TerminalProcess`). Opened with `openpty(3)`
/// through `CPseudoTerminal`, since Swift's Glibc module leaves out `<pty.h>`; neither end is
/// inherited by a child process, and the master side never blocks.
public final class PseudoTerminal: @unchecked Sendable {
    /// A failure of a terminal call, with the C library's reason.
    public struct Failure: Error, CustomStringConvertible {
        public let description: String

        init(_ what: String) { description = "\(what): \(String(cString: strerror(errno)))" }
    }

    /// The terminal emulator's end.
    public let master: Int32
    /// The program's end (`-1` once ``closeSlave()`` gave it up).
    public private(set) var slave: Int32
    /// The slave side's device path (`/dev/pts/N`), for a child that opens it by name.
    public let slavePath: String

    /// Opens a pair with a `columns`×`rows` window.
    ///
    /// - Throws: ``Failure`` when the system has no pseudo-terminal to give.
    public init(columns: Int = 80, rows: Int = 24) throws {
        var master: Int32 = -1
        var slave: Int32 = -1
        var size = winsize(
            ws_row: UInt16(clamping: rows), ws_col: UInt16(clamping: columns), ws_xpixel: 0, ws_ypixel: 0)
        var name = [CChar](repeating: 0, count: 256)
        guard openpty(&master, &slave, &name, nil, &size) == 0 else { throw Failure("cannot open a pseudo-terminal") }
        _ = fcntl(master, F_SETFD, FD_CLOEXEC)
        _ = fcntl(slave, F_SETFD, FD_CLOEXEC)
        _ = fcntl(master, F_SETFL, fcntl(master, F_GETFL) | O_NONBLOCK)
        self.master = master
        self.slave = slave
        slavePath = String(decoding: name.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    deinit {
        if slave >= 0 { close(slave) }
        close(master)
    }

    /// Closes this process's copy of the slave side (after a child opened its own): the master
    /// then reads end-of-file (`[]` from ``read(timeout:)``) once the child has gone.
    public func closeSlave() {
        guard slave >= 0 else { return }
        close(slave)
        slave = -1
    }

    /// Sets the window size, as a terminal emulator does when its window changes.
    ///
    /// - Throws: ``Failure`` when the terminal refuses it.
    public func resize(columns: Int, rows: Int) throws {
        var size = winsize(
            ws_row: UInt16(clamping: rows), ws_col: UInt16(clamping: columns), ws_xpixel: 0, ws_ypixel: 0)
        guard ioctl(master, UInt(TIOCSWINSZ), &size) == 0 else { throw Failure("TIOCSWINSZ") }
    }

    /// Types `bytes` as if on the keyboard, all of them.
    ///
    /// - Throws: ``Failure`` when the terminal cannot be written.
    public func write(_ bytes: [UInt8]) throws {
        try Self.writeAll(bytes, to: master)
    }

    /// Types `text` as if on the keyboard.
    public func type(_ text: String) {
        try? write(Array(text.utf8))
    }

    /// Writes `marker` to the slave side, behind everything the program has written so far;
    /// reading up to it (``read(through:within:)``) collects exactly that output.
    public func mark(_ marker: String) {
        guard slave >= 0 else { return }
        try? Self.writeAll(Array(marker.utf8), to: slave)
    }

    /// Waits at most `timeout` seconds for output and returns what arrived: `nil` when nothing
    /// did, an empty array once every copy of the slave side is closed (the program exited).
    public func read(timeout: Double) -> [UInt8]? {
        var descriptor = pollfd(fd: master, events: Int16(POLLIN), revents: 0)
        let milliseconds = Int32(clamping: Int((max(0, timeout) * 1000).rounded(.up)))
        var ready: Int32
        repeat {
            ready = poll(&descriptor, 1, milliseconds)
        } while ready == -1 && errno == EINTR
        guard ready > 0 else { return nil }
        var buffer = [UInt8](repeating: 0, count: 65_536)
        var count: Int
        repeat {
            count = buffer.withUnsafeMutableBytes { Glibc.read(master, $0.baseAddress, $0.count) }
        } while count == -1 && errno == EINTR
        if count == -1 && errno == EAGAIN { return nil }
        // Linux answers EIO on the master once every copy of the other end is closed.
        guard count > 0 else { return [] }
        return Array(buffer[0..<count])
    }

    /// Everything the program wrote before `marker` (see ``mark(_:)``), waiting for it at most
    /// `timeout`.
    ///
    /// - Throws: ``Failure`` when the marker does not arrive in time.
    public func read(through marker: String, within timeout: Duration = .seconds(20)) throws -> [UInt8] {
        let needle = Array(marker.utf8)
        let deadline = ContinuousClock.now + timeout
        var received: [UInt8] = []
        while true {
            if let end = received.firstRange(of: needle) { return Array(received[..<end.lowerBound]) }
            let remaining = deadline - ContinuousClock.now
            guard remaining > .zero else {
                errno = ETIMEDOUT
                throw Failure("no \(marker.debugDescription) within \(timeout); got \(received.count) bytes")
            }
            let (seconds, attoseconds) = remaining.components
            if let chunk = read(timeout: Double(seconds) + Double(attoseconds) / 1e18), !chunk.isEmpty {
                received += chunk
            }
        }
    }

    /// Everything the program printed that is waiting on the master side now (no waiting).
    public func drain() -> String {
        var received: [UInt8] = []
        while let chunk = read(timeout: 0), !chunk.isEmpty { received += chunk }
        return String(decoding: received, as: UTF8.self)
    }

    /// The slave side's terminal modes.
    ///
    /// - Throws: ``Failure`` when they cannot be read.
    public func modes() throws -> termios {
        var modes = termios()
        guard tcgetattr(slave, &modes) == 0 else { throw Failure("tcgetattr") }
        return modes
    }

    /// The slave side's local modes (`ECHO`, `ICANON`, `ISIG`…); 0 when they cannot be read.
    public var localModes: tcflag_t { (try? modes())?.c_lflag ?? 0 }

    /// Whether the slave side echoes what is typed (`ECHO`).
    public var echoes: Bool { localModes & tcflag_t(ECHO) != 0 }

    private static func writeAll(_ bytes: [UInt8], to descriptor: Int32) throws {
        var offset = 0
        while offset < bytes.count {
            let written = bytes[offset...].withUnsafeBytes { Glibc.write(descriptor, $0.baseAddress, $0.count) }
            if written == -1, errno == EINTR || errno == EAGAIN {
                var ready = pollfd(fd: descriptor, events: Int16(POLLOUT), revents: 0)
                _ = poll(&ready, 1, 100)
                continue
            }
            guard written > 0 else { throw Failure("cannot write to the pseudo-terminal") }
            offset += written
        }
    }
}
