import Foundation
import Glibc
import TestSupport

/// A loopback TCP server that answers every connection with bytes that are not HTTP, then
/// closes it. It runs on its own thread (blocking `accept`) until ``stop()``.
final class JunkServer: Sendable {
    let port: Int
    private let descriptor: Int32

    init(answer: String = "garbage, not HTTP\r\n\r\n") throws {
        let (fd, port) = try LoopbackSocket.bind(listening: true)
        descriptor = fd
        self.port = port
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
