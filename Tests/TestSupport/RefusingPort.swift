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
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { throw Failure(description: "socket() failed: errno \(errno)") }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = 0
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { socketAddress in
                bind(fd, socketAddress, length) == 0 && getsockname(fd, socketAddress, &length) == 0
            }
        }
        guard bound else {
            close(fd)
            throw Failure(description: "bind() failed: errno \(errno)")
        }
        return Int(UInt16(bigEndian: address.sin_port))
    }
}
