import CardMockServer
import CardModels
import Foundation
import Testing

extension EndToEndTests {
    /// Twenty `cardwallet list` processes started together with an expired access token: the
    /// server sees exactly one refresh, all twenty succeed, and the token file still holds a
    /// session the server accepts.
    @Test func twentyProcessesWithAnExpiredTokenMakeOneRefresh() async throws {
        try await CLIWorld.with { world in
            try await world.login()
            let before = try world.storedTokens()
            // Past the 5-minute access TTL on the server's clock: every list gets E04 first.
            world.clock.advance(by: .seconds(6 * 60))

            let processes = try (0..<20).map { _ in try world.start(["list", "--json"]) }
            var results: [CLIResult] = []
            for process in processes { results.append(try await process.finish(timeout: .seconds(180))) }

            for result in results {
                #expect(result.status == 0, "\(result)")
                let cards = try? CardWalletJSON.decoder().decode([CardSummary].self, from: Data(result.stdout.utf8))
                #expect(cards?.count == 12, "\(result)")
            }
            let stats = world.server.statistics
            #expect(stats.count("POST /auth/refresh") == 1)
            #expect(stats.count("POST /auth/refresh", status: 200) == 1)
            #expect(stats.count("GET /cards", status: 200) == 20)

            let after = try world.storedTokens()
            #expect(after.count == 2)
            #expect(Set(after).isDisjoint(with: before))
            // The stored session is the live one: another process uses it without refreshing.
            let again = try await world.run("list")
            #expect(again.status == 0, "\(again)")
            #expect(world.server.statistics.count("POST /auth/refresh") == 1)
            #expect(try await world.run("status").status == 0)
        }
    }
}
