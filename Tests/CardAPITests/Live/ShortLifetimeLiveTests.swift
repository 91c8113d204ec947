import CardAPI
import CardMockServer
import CardModels
import Foundation
import Networking
import Testing
import TokenStore

/// Short access-token lifetimes (issue 12) against the real mock server, whose clock the test
/// moves: its expiry checks and its refresh limit (E10 past 120 a minute) are the judges.
@Suite struct ShortLifetimeLiveTests {
    static func server(accessTTL: TimeSpan) -> MockServerConfiguration {
        var configuration = MockServerConfiguration.testing
        configuration.accessTokenTTL = accessTTL
        return configuration
    }

    @Test(.timeLimit(.minutes(5)))
    func fifteenMinutesWithTwoSecondTokensRefuseNothing() async throws {
        try await LiveHarness.with(Self.server(accessTTL: .seconds(2))) { live in
            let client = live.client()
            try await client.login(email: EndToEndTests.email, password: EndToEndTests.password)
            var failures: [CardAPIError] = []
            for _ in 0..<1_800 {  // a request every 0.5 s
                live.clock.advance(by: .milliseconds(500))
                do throws(CardAPIError) {
                    _ = try await client.listCards(limit: 1)
                } catch {
                    failures.append(error)
                }
            }
            #expect(failures.isEmpty, "\(failures.prefix(3))")
            #expect(live.server.statistics.count("GET /cards", status: 200) == 1_800)
            #expect(live.server.statistics.count("GET /cards", status: 401) == 0)
            // One refresh per 2-s token, refreshed when due at 1.8 s: 450 in the 900 s.
            #expect(live.refreshAttempts == live.refreshes)
            #expect((440...460).contains(live.refreshes), "\(live.refreshes) refreshes")
        }
    }

    @Test(.timeLimit(.minutes(5)))
    func twoHundredProcessesInARowWithTwoSecondTokensStayUnderTheRefreshLimit() async throws {
        try await LiveHarness.with(Self.server(accessTTL: .seconds(2))) { live in
            try await live.client().login(email: EndToEndTests.email, password: EndToEndTests.password)
            for _ in 0..<200 {  // `cardwallet list` every 0.25 s, each a new process
                live.clock.advance(by: .milliseconds(250))
                _ = try await live.client().listCards(limit: 1)
            }
            // 50 s: a refresh every 2 s, where every process refreshing hit E10 at the 121st.
            #expect(live.server.statistics.count("POST /auth/refresh", status: 429) == 0)
            #expect((24...26).contains(live.refreshes), "\(live.refreshes) refreshes")
        }
    }

    @Test(.timeLimit(.minutes(5)))
    func twentyParallelProcessesMakeOneRefreshPerExpiry() async throws {
        try await LiveHarness.with(Self.server(accessTTL: .seconds(30))) { live in
            try await live.client().login(email: EndToEndTests.email, password: EndToEndTests.password)
            for round in 1...5 {
                live.clock.advance(by: .seconds(28))  // inside the 3-s margin of the stored token
                let clients = (0..<20).map { _ in live.client() }
                try await withThrowingTaskGroup(of: Void.self) { group in
                    for client in clients { group.addTask { _ = try await client.listCards(limit: 1) } }
                    try await group.waitForAll()
                }
                #expect(live.refreshAttempts == round)
            }
            #expect(live.server.statistics.count("GET /cards", status: 200) == 100)
        }
    }
}
