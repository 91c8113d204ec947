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
                    // Waits out the pause as a poll on the connection, which also ends when the
                    // client goes away; a stall re-checks `stopped` every 50 ms.
                    let pause = interval.map(Self.milliseconds) ?? 50
                    if Self.peerLeft(client, within: pause) {
                        alive = false
                    } else if interval != nil {
                        alive = Self.write([byte], to: client)
                    }
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

    /// Whether the client closed its end within `milliseconds` (a poll on the connection: a
    /// read of nothing is a close; anything else it sends is drained and the wait goes on).
    private static func peerLeft(_ client: Int32, within milliseconds: Int32) -> Bool {
        let deadline = ContinuousClock.now + .milliseconds(milliseconds)
        var buffer = [UInt8](repeating: 0, count: 512)
        while true {
            let left = deadline - ContinuousClock.now
            guard left > .zero else { return false }
            var descriptor = pollfd(fd: client, events: Int16(POLLIN), revents: 0)
            guard poll(&descriptor, 1, max(1, Self.milliseconds(left))) > 0 else { continue }
            if descriptor.revents & (Int16(POLLHUP) | Int16(POLLERR)) != 0 { return true }
            if recv(client, &buffer, buffer.count, Int32(MSG_DONTWAIT)) == 0 { return true }
        }
    }

    private static func milliseconds(_ duration: Duration) -> Int32 {
        let (seconds, attoseconds) = duration.components
        return Int32(clamping: seconds * 1000 + attoseconds / 1_000_000_000_000_000)
    }

    /// Writes all of `bytes` without raising SIGPIPE; `false` once the peer has gone.
    private static func write(_ bytes: [UInt8], to client: Int32) -> Bool {
        bytes.withUnsafeBytes { send(client, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) } == bytes.count
    }
}
