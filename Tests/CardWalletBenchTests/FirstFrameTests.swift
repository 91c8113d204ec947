import Foundation
import Glibc
import Testing

@testable import cardwallet_bench

/// The first-frame figure's own pieces (#17): khard's configuration, the refused port, the CPU
/// clocks of children.
struct FirstFrameTests {
    @Test func khardsConfigurationNamesOnlyTheVdir() {
        let text = FirstFrameFixture.khardFile(vdir: "/tmp/x/vdir")
        #expect(text.contains("[addressbooks]\n[[wallet]]\npath = /tmp/x/vdir\n"))
        #expect(text.components(separatedBy: "path =").count == 2)
    }

    @Test func aHeldPortRefusesConnectionsAtOnce() throws {
        // A port the kernel picks, kept bound (never listening) while the refused port takes it
        // too: both reuse the address, so it is never free for another test's server meanwhile.
        let probe = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        defer { close(probe) }
        var yes: Int32 = 1
        setsockopt(probe, SOL_SOCKET, SO_REUSEADDR, &yes, socklen_t(MemoryLayout<Int32>.size))
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                _ = bind(probe, $0, length)
                _ = getsockname(probe, $0, &length)
            }
        }
        let port = Int(UInt16(bigEndian: address.sin_port))
        let held = try RefusedPort(port: port)
        defer { held.close() }

        let client = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        defer { close(client) }
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(client, $0, length) }
        }
        #expect(connected == -1 && errno == ECONNREFUSED)
    }

    @Test func spawnsReportTheirCPUTime() throws {
        let outcome = try Spawn.timed("/bin/sh", ["-c", "i=0; while [ $i -lt 20000 ]; do i=$((i+1)); done"])
        #expect(outcome.status == 0)
        #expect(outcome.cpuSeconds > 0)
        #expect(outcome.cpuSeconds <= outcome.seconds + 0.01)
    }
}
