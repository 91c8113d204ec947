import CardAPI
import CardMockServer
import CardModels
import Foundation
import Networking
import Testing
import TokenStore

/// Storms of card calls against the real mock server after it expired (or revoked) the tokens
/// behind the client's back: the live transport's 8 connections bound the stale requests.
@Suite struct AdmissionLiveTests {
    static let email = "demo@cardwallet.dev"
    static let password = "demo1234"
    static let cardRoute = "GET /card/{cardId}"
    static let refreshRoute = "POST /auth/refresh"

    /// Runs `count` `card(id:)` calls at once, cycling through `ids`; returns each call's outcome.
    private func storm(_ client: CardAPIClient, ids: [String], _ count: Int) async -> [Result<Card, CardAPIError>] {
        await withTaskGroup(of: Result<Card, CardAPIError>.self) { group in
            for index in 0..<count {
                let id = ids[index % ids.count]
                group.addTask {
                    do throws(CardAPIError) {
                        let card = try await client.card(id: id)
                        return card.id == id ? .success(card) : .failure(.invalidCardID(card.id))
                    } catch {
                        return .failure(error)
                    }
                }
            }
            return await group.reduce(into: []) { $0.append($1) }
        }
    }

    @Test func aStormAfterTheServerExpiredTheTokenMakesOneRefreshAndAtMostEight401s() async throws {
        try await LiveHarness.with { live in
            let client = live.client()
            try await client.login(email: Self.email, password: Self.password)
            let ids = try await client.allCards().map(\.id)
            try #require(!ids.isEmpty)
            #expect(try await live.server.expireAccessTokens(email: Self.email) ?? 0 > 0)
            let before = live.server.statistics

            let results = await storm(client, ids: ids, 50)

            let after = live.server.statistics
            #expect(results.filter { (try? $0.get()) != nil }.count == 50)
            let rejected = after.count(Self.cardRoute, status: 401) - before.count(Self.cardRoute, status: 401)
            #expect((1...8).contains(rejected))
            #expect(after.count(Self.cardRoute, status: 200) - before.count(Self.cardRoute, status: 200) == 50)
            #expect(after.count(Self.refreshRoute) - before.count(Self.refreshRoute) == 1)
            #expect(after.count(Self.refreshRoute, status: 200) - before.count(Self.refreshRoute, status: 200) == 1)
        }
    }

    @Test func aStormAfterTheServerRevokedTheSessionSendsAtMostEightCardRequests() async throws {
        try await LiveHarness.with { live in
            let client = live.client()
            try await client.login(email: Self.email, password: Self.password)
            let ids = try await client.allCards().map(\.id)
            try #require(!ids.isEmpty)
            _ = try await live.server.expireAccessTokens(email: Self.email)
            _ = try await live.server.revokeRefreshTokens(email: Self.email)
            let before = live.server.statistics

            let results = await storm(client, ids: ids, 50)

            let after = live.server.statistics
            let expired = results.filter { if case .failure(let error) = $0 { error.isSessionExpired } else { false } }
            #expect(expired.count == 50)
            let cardRequests = after.count(Self.cardRoute) - before.count(Self.cardRoute)
            #expect((1...8).contains(cardRequests))
            #expect(
                after.count(Self.cardRoute, status: 401) - before.count(Self.cardRoute, status: 401) == cardRequests)
            #expect(after.count(Self.refreshRoute) - before.count(Self.refreshRoute) == 1)
            #expect(try live.store.items().isEmpty)
        }
    }
}
