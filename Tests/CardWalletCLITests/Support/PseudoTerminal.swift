import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// A pseudo-terminal pair: the prompt reads the slave side, the test types on the master side
/// and reads what the prompt printed (including any echo).
final class PseudoTerminal: @unchecked Sendable {
    let master: Int32
    let slave: Int32

    init() throws {
        // posix_openpt and friends are declared for _XOPEN_SOURCE only, which the prebuilt
        // Glibc module lacks; look them up in the C library instead.
        typealias Open = @convention(c) (Int32) -> Int32
        typealias Name = @convention(c) (Int32, UnsafeMutablePointer<CChar>?, Int) -> Int32
        guard let openMaster = Self.libc("posix_openpt", as: Open.self),
            let grant = Self.libc("grantpt", as: Open.self),
            let unlock = Self.libc("unlockpt", as: Open.self),
            let name = Self.libc("ptsname_r", as: Name.self)
        else { throw TestFailure("the C library has no posix_openpt") }
        let master = openMaster(O_RDWR | O_NOCTTY)
        guard master >= 0 else { throw TestFailure("posix_openpt: \(errno)") }
        var path = [CChar](repeating: 0, count: 256)
        guard grant(master) == 0, unlock(master) == 0, name(master, &path, path.count) == 0 else {
            close(master)
            throw TestFailure("cannot unlock the pseudo-terminal: \(errno)")
        }
        let slave = open(path, O_RDWR | O_NOCTTY)
        guard slave >= 0 else {
            close(master)
            throw TestFailure("cannot open the pseudo-terminal's slave side: \(errno)")
        }
        _ = fcntl(master, F_SETFL, fcntl(master, F_GETFL) | O_NONBLOCK)
        self.master = master
        self.slave = slave
    }

    deinit {
        close(slave)
        close(master)
    }

    /// Types `text` as if on the keyboard.
    func type(_ text: String) {
        let bytes = Array(text.utf8)
        _ = bytes.withUnsafeBytes { write(master, $0.baseAddress, $0.count) }
    }

    /// Everything the slave side printed that is waiting on the master side.
    func drain() -> String {
        var received: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 4096)
        while true {
            let count = buffer.withUnsafeMutableBytes { read(master, $0.baseAddress, $0.count) }
            guard count > 0 else { break }
            received += buffer[..<count]
        }
        return String(decoding: received, as: UTF8.self)
    }

    /// The slave side's local modes (`ECHO`, `ICANON`, `ISIG`…).
    var localModes: tcflag_t {
        var modes = termios()
        _ = tcgetattr(slave, &modes)
        return modes.c_lflag
    }

    /// Whether echo is on.
    var echoes: Bool { localModes & tcflag_t(ECHO) != 0 }

    private static func libc<Function>(_ name: String, as type: Function.Type) -> Function? {
        guard let handle = dlopen(nil, RTLD_NOW), let symbol = dlsym(handle, name) else { return nil }
        return unsafeBitCast(symbol, to: type)
    }
}
