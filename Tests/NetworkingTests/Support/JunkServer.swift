import Foundation
import Glibc

/// A loopback TCP server that answers every connection with bytes that are not HTTP, then
/// closes it. It runs on its own thread (blocking `accept`) until ``stop()``.
final class JunkServer: Sendable {
    struct Failure: Error, CustomStringConvertible {
        let description: String
    }

    let port: Int
    private let descriptor: Int32

    init(answer: String = "garbage, not HTTP\r\n\r\n") throws {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { throw Failure(description: "socket() failed: errno \(errno)") }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = 0
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let ready = withUnsafeMutablePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { socketAddress in
                bind(fd, socketAddress, length) == 0 && getsockname(fd, socketAddress, &length) == 0
                    && listen(fd, 8) == 0
            }
        }
        guard ready else {
            close(fd)
            throw Failure(description: "bind/listen failed: errno \(errno)")
        }
        descriptor = fd
        port = Int(UInt16(bigEndian: address.sin_port))
        let bytes = Array(answer.utf8)
        Thread {
            while true {
                let client = accept(fd, nil, nil)
                guard client >= 0 else { return }  // the listening socket was shut down
                var request = [UInt8](repeating: 0, count: 4096)
                _ = read(client, &request, request.count)
                _ = bytes.withUnsafeBytes { write(client, $0.baseAddress, $0.count) }
                close(client)
            }
        }.start()
    }

    /// Stops accepting; the thread ends.
    func stop() {
        shutdown(descriptor, Int32(SHUT_RDWR))
        close(descriptor)
    }
}
