#if canImport(Glibc)
    import Glibc
#endif

/// A pseudo-terminal pair: the backend gets the slave side, the test plays the terminal on the
/// master side (reads what the program paints, writes what the user types).
final class PseudoTerminal {
    struct Failure: Error, CustomStringConvertible {
        var description: String
    }

    let master: Int32
    let slave: Int32

    init(columns: Int, rows: Int) throws {
        // posix_openpt and friends are declared for _XOPEN_SOURCE only, which the prebuilt
        // Glibc module lacks; look them up in the C library instead.
        typealias Open = @convention(c) (Int32) -> Int32
        typealias Name = @convention(c) (Int32, UnsafeMutablePointer<CChar>?, Int) -> Int32
        guard let openMaster = Self.libc("posix_openpt", as: Open.self),
            let grant = Self.libc("grantpt", as: Open.self),
            let unlock = Self.libc("unlockpt", as: Open.self),
            let name = Self.libc("ptsname_r", as: Name.self)
        else { throw Failure(description: "the C library has no posix_openpt") }
        let master = openMaster(O_RDWR | O_NOCTTY)
        guard master >= 0 else { throw Failure(description: "posix_openpt: \(errno)") }
        var path = [CChar](repeating: 0, count: 256)
        guard grant(master) == 0, unlock(master) == 0, name(master, &path, path.count) == 0 else {
            close(master)
            throw Failure(description: "cannot unlock the pseudo-terminal: \(errno)")
        }
        let slave = open(path, O_RDWR | O_NOCTTY)
        guard slave >= 0 else {
            close(master)
            throw Failure(description: "cannot open the pseudo-terminal's slave side: \(errno)")
        }
        _ = fcntl(master, F_SETFL, fcntl(master, F_GETFL) | O_NONBLOCK)
        self.master = master
        self.slave = slave
        try resize(columns: columns, rows: rows)
    }

    deinit {
        close(slave)
        close(master)
    }

    /// Sets the window size, as a terminal emulator does when its window changes.
    func resize(columns: Int, rows: Int) throws {
        var size = winsize(ws_row: UInt16(rows), ws_col: UInt16(columns), ws_xpixel: 0, ws_ypixel: 0)
        guard ioctl(master, UInt(TIOCSWINSZ), &size) == 0 else {
            throw Failure(description: "TIOCSWINSZ: \(errno)")
        }
    }

    /// Types `text` as if on the keyboard.
    func type(_ text: String) {
        let bytes = Array(text.utf8)
        bytes.withUnsafeBytes { _ = write(master, $0.baseAddress, $0.count) }
    }

    /// Writes `marker` to the slave side, behind everything the program has written so far;
    /// reading up to it (``read(through:within:)``) collects exactly that output.
    func mark(_ marker: String) {
        let bytes = Array(marker.utf8)
        bytes.withUnsafeBytes { _ = write(slave, $0.baseAddress, $0.count) }
    }

    /// Everything the program wrote before `marker`, waiting for it at most `timeout`.
    func read(through marker: String, within timeout: Duration = .seconds(20)) throws -> [UInt8] {
        let needle = Array(marker.utf8)
        let deadline = ContinuousClock.now + timeout
        var received: [UInt8] = []
        while true {
            if let end = received.firstRange(of: needle) {
                return Array(received[..<end.lowerBound])
            }
            let remaining = deadline - ContinuousClock.now
            guard remaining > .zero else {
                throw Failure(
                    description:
                        "no \(marker.debugDescription) within \(timeout); got \(received.count) bytes")
            }
            var descriptor = pollfd(fd: master, events: Int16(POLLIN), revents: 0)
            let (seconds, attoseconds) = remaining.components
            let milliseconds = Int32(clamping: seconds * 1000 + attoseconds / 1_000_000_000_000_000 + 1)
            guard poll(&descriptor, 1, milliseconds) > 0 else { continue }
            var buffer = [UInt8](repeating: 0, count: 4096)
            let count = buffer.withUnsafeMutableBytes { Glibc.read(master, $0.baseAddress, $0.count) }
            if count > 0 { received += buffer[..<count] }
        }
    }

    /// The slave side's terminal modes.
    func modes() throws -> termios {
        var modes = termios()
        guard tcgetattr(slave, &modes) == 0 else { throw Failure(description: "tcgetattr: \(errno)") }
        return modes
    }

    private static func libc<Function>(_ name: String, as type: Function.Type) -> Function? {
        guard let handle = dlopen(nil, RTLD_NOW), let symbol = dlsym(handle, name) else { return nil }
        return unsafeBitCast(symbol, to: type)
    }
}

extension termios {
    /// The fields a program changes: flags and control characters.
    var comparable: [UInt64] {
        var values = [UInt64(c_iflag), UInt64(c_oflag), UInt64(c_cflag), UInt64(c_lflag)]
        withUnsafeBytes(of: c_cc) { values += $0.map(UInt64.init) }
        return values
    }
}

extension Array where Element == UInt8 {
    /// Whether `text`'s UTF-8 bytes occur in this byte string.
    func contains(text: String) -> Bool {
        firstRange(of: Array(text.utf8)) != nil
    }
}
