import Glibc

/// Loopback ports bound without `listen`, so connecting to them is refused, and no other server
/// started on port 0 during the tests can be handed the same port (closing a probe socket and
/// reusing its number raced with the other suites' servers).
public enum RefusingPort {
    /// The socket could not be made or bound.
    public struct Failure: Error, CustomStringConvertible {
        /// What failed, with errno.
        public let description: String
    }

    /// A loopback port that refuses connections for the rest of the test process (the socket is
    /// kept open on purpose).
    public static func reserve() throws -> Int {
        try LoopbackSocket.bind(listening: false).port
    }

    /// A loopback port for a server the test stops and starts again on the same port, held for
    /// the rest of the test process: bound with `SO_REUSEADDR` and never listening, so a server
    /// that binds with `SO_REUSEADDR` too (the mock server: Hummingbird's default) can take it
    /// while it is held, connections are refused while no server runs, and the kernel never
    /// hands it to another test's port-0 server in between (a bound port is never picked).
    public static func reserveForRestarts() throws -> Int {
        try LoopbackSocket.bind(listening: false, reuseAddress: true).port
    }
}

/// A TCP socket bound to 127.0.0.1 on a port the kernel picks.
public enum LoopbackSocket {
    /// Binds a new socket (with `SO_REUSEADDR` when `reuseAddress`, and listens with a backlog
    /// of 8 when `listening`); the caller owns the descriptor.
    public static func bind(listening: Bool, reuseAddress: Bool = false) throws(RefusingPort.Failure) -> (
        descriptor: Int32, port: Int
    ) {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { throw RefusingPort.Failure(description: "socket() failed: errno \(errno)") }
        if reuseAddress {
            var yes: Int32 = 1
            setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &yes, socklen_t(MemoryLayout<Int32>.size))
        }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = 0
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let ready = withUnsafeMutablePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { socketAddress in
                Glibc.bind(fd, socketAddress, length) == 0 && getsockname(fd, socketAddress, &length) == 0
                    && (!listening || listen(fd, 8) == 0)
            }
        }
        guard ready else {
            let code = errno
            close(fd)
            throw RefusingPort.Failure(description: "bind\(listening ? "/listen" : "")() failed: errno \(code)")
        }
        return (fd, Int(UInt16(bigEndian: address.sin_port)))
    }
}
