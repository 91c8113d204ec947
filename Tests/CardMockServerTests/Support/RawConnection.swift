import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// One TCP exchange written byte by byte, for requests no HTTP client would send: bodies cut
/// short, headers past every limit. Blocking socket calls run on their own thread.
enum RawConnection {
    struct Failure: Error, CustomStringConvertible {
        var description: String
    }

    /// Connects to 127.0.0.1:`port`, sends `bytes`, closes the sending side when `halfClose`,
    /// and returns everything the server sends until it closes the connection (or `timeout`).
    static func exchange(port: Int, bytes: Data, halfClose: Bool = true, timeout: TimeInterval = 30) async throws
        -> Data
    {
        try await withCheckedThrowingContinuation { continuation in
            Thread {
                continuation.resume(
                    with: Result {
                        try blockingExchange(port: port, bytes: bytes, halfClose: halfClose, timeout: timeout)
                    })
            }.start()
        }
    }

    /// The HTTP status of the first response in `reply`, or `nil`.
    static func status(of reply: Data) -> Int? {
        guard let text = String(data: reply.prefix(64), encoding: .isoLatin1), text.hasPrefix("HTTP/1.1 ") else {
            return nil
        }
        return Int(text.dropFirst(9).prefix(3))
    }

    private static func blockingExchange(port: Int, bytes: Data, halfClose: Bool, timeout: TimeInterval) throws -> Data
    {
        #if canImport(Glibc)
            let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        #else
            let descriptor = socket(AF_INET, SOCK_STREAM, 0)
        #endif
        guard descriptor >= 0 else { throw Failure(description: "socket() failed") }
        defer { close(descriptor) }
        var wait = timeval(tv_sec: Int(timeout), tv_usec: 0)
        setsockopt(descriptor, SOL_SOCKET, SO_RCVTIMEO, &wait, socklen_t(MemoryLayout<timeval>.size))
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                connect(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        guard connected == 0 else { throw Failure(description: "connect() failed") }
        bytes.withUnsafeBytes { buffer in
            var offset = 0
            while offset < buffer.count, let base = buffer.baseAddress {
                let sent = send(descriptor, base + offset, buffer.count - offset, Int32(MSG_NOSIGNAL))
                // The server may answer and close before it has read everything: stop sending.
                if sent <= 0 { return }
                offset += sent
            }
        }
        if halfClose { shutdown(descriptor, Int32(SHUT_WR)) }
        var reply = Data()
        var chunk = [UInt8](repeating: 0, count: 65536)
        while true {
            let count = recv(descriptor, &chunk, chunk.count, 0)
            if count <= 0 { break }
            reply.append(contentsOf: chunk[0..<count])
        }
        return reply
    }
}
