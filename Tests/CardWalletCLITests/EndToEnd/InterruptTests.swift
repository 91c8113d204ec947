import CardMockServer
import CardModels
import Foundation
import TestSupport
import Testing

#if canImport(Glibc)
    import Glibc
#endif

extension EndToEndTests {
    /// Ctrl-C while a token refresh is on the wire: the server has rotated (or is rotating) the
    /// pair, so dying before the new pair is saved would leave a spent refresh token, and the
    /// next command would find the session ended (E06). The command waits for the save, then
    /// ends by the signal; the next command works without logging in again.
    @Test func ctrlCDuringARefreshKeepsTheSession() async throws {
        var configuration = MockServerConfiguration.testing
        configuration.latency = .seconds(1)  // every answer takes a second: time to press Ctrl-C
        try await CLIWorld.with(configuration) { world in
            try await world.login()
            // Past the access TTL on the server's clock: the list gets E04, then refreshes.
            world.clock.advance(by: .seconds(6 * 60))

            let list = try world.start(["list", "-v"])
            try await waitUntil("the refresh to be sent") { list.stderrSoFar.contains("→ POST /v1/auth/refresh") }
            let answeredBeforeTheSignal = world.server.statistics.count("POST /auth/refresh")
            list.signal(SIGINT)
            let interrupted = try await list.finish()

            #expect([SIGINT, 128 + SIGINT].contains(interrupted.status), "\(interrupted)")
            if answeredBeforeTheSignal == 0 {
                // The refresh was still on the wire when the signal came: the command said it waits.
                #expect(interrupted.stderr.contains("finishing the token refresh"), "\(interrupted)")
            }
            let next = try await world.run("list")
            #expect(next.status == 0, "\(next)")
            let stats = world.server.statistics
            #expect(stats.count("POST /auth/refresh", status: 200) == 1)
            #expect(stats.count("POST /auth/refresh", status: 401) == 0)  // never E06
        }
    }

    /// Ctrl-C at any other moment stops a command at once, by the signal, with no message.
    @Test func ctrlCOutsideARefreshStopsAtOnce() async throws {
        var configuration = MockServerConfiguration.testing
        configuration.latency = .seconds(2)  // the list is still waiting when the signal comes
        try await CLIWorld.with(configuration) { world in
            try await world.login()
            let list = try world.start(["list", "-v"])
            try await waitUntil("the list to be sent") { list.stderrSoFar.contains("→ GET /v1/cards") }
            list.signal(SIGINT)
            let interrupted = try await list.finish()
            #expect([SIGINT, 128 + SIGINT].contains(interrupted.status), "\(interrupted)")
            #expect(!interrupted.stderr.contains("finishing"))
            #expect(interrupted.stdout.isEmpty)  // the answer never came: it stopped, it did not wait
        }
    }
}
