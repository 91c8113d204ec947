import Glibc
import Testing

@testable import CursesTerminal

@Suite("Wake-up pipe")
struct WakeSignalTests {
    /// Whether the read end has a byte, without waiting.
    func isReadable(_ wake: WakeSignal) -> Bool {
        var descriptor = pollfd(fd: wake.readDescriptor, events: Int16(POLLIN), revents: 0)
        return poll(&descriptor, 1, 0) == 1
    }

    @Test("Wake-ups coalesce into one byte; clear takes it and the next wake-up counts again")
    func coalesces() throws {
        let wake = try #require(WakeSignal())
        #expect(!isReadable(wake))
        for _ in 0..<10_000 { wake.wake() }
        #expect(isReadable(wake))
        var buffer = [UInt8](repeating: 0, count: 16)
        let count = buffer.withUnsafeMutableBytes { read(wake.readDescriptor, $0.baseAddress, $0.count) }
        #expect(count == 1, "one byte however many wake-ups")
        wake.clear()
        #expect(!isReadable(wake))
        #expect(!wake.isPending)
        wake.wake()
        #expect(isReadable(wake))
        wake.clear()
        #expect(!isReadable(wake))
    }

    @Test("Wake-ups from many threads at once leave the pipe readable")
    func concurrentWakeUps() async throws {
        let wake = try #require(WakeSignal())
        await withTaskGroup(of: Void.self) { group in
            for _ in 0..<8 {
                group.addTask { for _ in 0..<1_000 { wake.wake() } }
            }
        }
        #expect(isReadable(wake))
        wake.clear()
        #expect(!isReadable(wake))
    }
}
