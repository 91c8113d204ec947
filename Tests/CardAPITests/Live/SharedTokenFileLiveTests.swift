import CardAPI
import CardMockServer
import CardModels
import Foundation
import Networking
import Testing
import TokenStore

/// Independent clients (separate sessions, as separate processes would have) sharing one
/// token file against the real server: the server sees exactly one refresh.
@Suite struct SharedTokenFileLiveTests {
    @Test func eightClientsWithAnExpiredTokenMakeOneRefreshBetweenThem() async throws {
        try await LiveHarness.with { live in
            try await live.client().login(email: EndToEndTests.email, password: EndToEndTests.password)
            live.clock.advance(by: .seconds(6 * 60))
            let clients = (0..<8).map { _ in live.client() }
            let successes = try await withThrowingTaskGroup(of: Int.self) { group in
                for client in clients {
                    group.addTask {
                        try await withThrowingTaskGroup(of: CardPage.self) { inner in
                            for _ in 0..<5 { inner.addTask { try await client.listCards() } }
                            return try await inner.reduce(0) { count, _ in count + 1 }
                        }
                    }
                }
                return try await group.reduce(0, +)
            }
            #expect(successes == 40)
            #expect(live.refreshes == 1)
            #expect(live.refreshAttempts == 1)
            #expect(live.server.statistics.count("GET /cards", status: 200) == 40)
            #expect(live.server.statistics.count("GET /cards", status: 401) == 0)
            #expect(try live.store.items().count == 1)
        }
    }
}
