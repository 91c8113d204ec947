import Foundation
import Glibc
import Synchronization
import TestSupport

/// A loopback TCP server that reads a request, writes `prefix`, then one more byte every
/// `interval` until the client closes the connection (or ``stop()``): a response body or head
/// that trickles forever. Runs on its own thread (blocking calls), one connection at a time.
final class TrickleServer: Sendable {
    let port: Int
    private let descriptor: Int32
    private let state = Mutex((stopped: false, clientsGone: 0))

    /// - Parameters:
    ///   - prefix: what is written at once (a head, or the start of one).
    ///   - byte: the byte trickled after it.
    ///   - interval: the pause before each trickled byte; `nil` sends nothing more (a stall).
    init(prefix: String, byte: UInt8 = 0x20, every interval: Duration?) throws {
        let (fd, port) = try LoopbackSocket.bind(listening: true)
        descriptor = fd
        self.port = port
        let start = Array(prefix.utf8)
        Thread { [self] in
            while true {
                let client = accept(fd, nil, nil)
                guard client >= 0 else { return }
                var request = [UInt8](repeating: 0, count: 8192)
                _ = read(client, &request, request.count)
                var alive = Self.write(start, to: client)
                while alive, !state.withLock({ $0.stopped }) {
                    guard let interval else {
                        Thread.sleep(forTimeInterval: 0.05)
                        // A stall: only notice when the client goes away.
                        var probe: UInt8 = 0
                        alive = recv(client, &probe, 1, Int32(MSG_DONTWAIT)) != 0
                        continue
                    }
                    Thread.sleep(
                        forTimeInterval: Double(interval.components.seconds) + Double(interval.components.attoseconds)
                            / 1e18)
                    alive = Self.write([byte], to: client)
                }
                if !alive { state.withLock { $0.clientsGone += 1 } }
                close(client)
            }
        }.start()
    }

    /// Connections the client closed while the server was still trickling.
    var clientsGone: Int { state.withLock { $0.clientsGone } }

    /// Stops the trickle and accepting; the thread ends.
    func stop() {
        state.withLock { $0.stopped = true }
        shutdown(descriptor, Int32(SHUT_RDWR))
        close(descriptor)
    }

    /// Writes all of `bytes` without raising SIGPIPE; `false` once the peer has gone.
    private static func write(_ bytes: [UInt8], to client: Int32) -> Bool {
        bytes.withUnsafeBytes { send(client, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) } == bytes.count
    }
}
