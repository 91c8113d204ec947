import CardModels
import Foundation
import Networking
import Synchronization
import Testing
import TokenStore

@testable import CardAPI

/// Short access-token lifetimes (issue 12): refreshed when due, once for every process, and
/// never refused by the loop guard. Stub transport; the wall clock moves only when told.
@Suite struct ShortLifetimeTests {
    static func logIn(_ client: CardAPIClient) async throws {
        try await client.login(email: FakeCardServer.demoUser.email, password: FakeCardServer.password)
    }

    @Test func fifteenMinutesWithTwoSecondTokensAndFailuresRefuseNothing() async throws {
        try await Harness.with { harness in
            await harness.fake.set(accessTTL: 2)
            await harness.fake.set(enforcesExpiry: true)
            // One request in five fails with 503, as `--fail-rate 0.2` makes it.
            await harness.fake.set(cardOverride: { request in
                let step = Int(request.path.split(separator: "_").last ?? "") ?? 1
                return step.isMultiple(of: 5) ? FakeCardServer.failure("E99", status: 503, message: "Try later.") : nil
            })
            let client = harness.client()
            try await Self.logIn(client)
            var refused = 0
            var otherFailures = 0
            var unavailable = 0
            for step in 0..<3_600 {  // a request every 0.25 s
                harness.wallClock.advance(by: .milliseconds(250))
                do throws(CardAPIError) {
                    _ = try await client.card(id: "card_\(step)")
                } catch {
                    if case .excessiveRefresh = error {
                        refused += 1
                    } else if error.statusCode == 503 {
                        unavailable += 1
                    } else {
                        otherFailures += 1
                    }
                }
            }
            #expect(refused == 0)
            #expect(otherFailures == 0)
            #expect(unavailable == 720)
            // Refreshed when due, never after the server's expiry: not one E04.
            #expect(await harness.fake.expiredTokenRejections == 0)
            // Tokens live 1.25–2 s by this computer's clock (the stored expiry is whole seconds):
            // about one refresh per lifetime in the 900 s, where the old margin (half the
            // lifetime) made one every second and the old guard refused the sixth in 30 s.
            let refreshes = await harness.fake.refreshCalls
            #expect((400...720).contains(refreshes), "\(refreshes) refreshes")
            #expect(client.session.state.isLoggedIn)
        }
    }

    @Test func twoHundredProcessesInARowRefreshOncePerTwentySevenSeconds() async throws {
        try await Harness.with { harness in
            await harness.fake.set(accessTTL: 30)
            try await Self.logIn(harness.client())
            var refreshedAt: [Int] = []
            for command in 1...200 {  // `cardwallet list` every 0.5 s: each a new process
                harness.wallClock.advance(by: .milliseconds(500))
                let before = await harness.fake.refreshCalls
                _ = try await harness.client().listCards()
                if await harness.fake.refreshCalls > before { refreshedAt.append(command) }
            }
            // 27 s after each token arrived (a tenth of 30 s before its expiry), not at every start.
            #expect(refreshedAt == [54, 108, 162])
        }
    }

    @Test func twentyProcessesMakeOneRefreshPerExpiry() async throws {
        try await Harness.with { harness in
            await harness.fake.set(accessTTL: 2)
            await harness.fake.set(storeToCheck: harness.store)
            try await Self.logIn(harness.client())
            for round in 1...10 {
                harness.wallClock.advance(by: .seconds(2))  // the stored token is due
                let clients = (0..<20).map { _ in harness.client() }
                try await withThrowingTaskGroup(of: Void.self) { group in
                    for client in clients { group.addTask { _ = try await client.listCards() } }
                    try await group.waitForAll()
                }
                #expect(await harness.fake.refreshCalls == round)
            }
            #expect(await harness.fake.savedBeforeUseViolations == 0)
        }
    }

    @Test func aTokenFileWithoutTheLifetimeKeepsWorkingAndLearnsIt() async throws {
        try await Harness.with { harness in
            await harness.fake.set(accessTTL: 30)
            let old = try await harness.seedTokens()  // as an older cardwallet stored it: no lifetime
            #expect(old.accessTokenLifetime == nil)
            for _ in 0..<10 { _ = try await harness.client().listCards() }
            // The first process cannot know the lifetime, so 30 s left is due: one refresh; the
            // pair it stores says how long tokens live, and the other nine use it.
            #expect(await harness.fake.refreshCalls == 1)
            let stored = try #require(
                try harness.store.read(server: Harness.server.absoluteString, account: old.account))
            #expect(stored.accessTokenLifetime == 30)
        }
    }

    @Test func aClockAheadOfTheServersRefreshesOnlyWhenTheServerSaysSo() async throws {
        try await Harness.with { harness in
            await harness.fake.set(accessTTL: -5)  // every token has expired by this computer's clock
            let logs = LogSink()
            let client = harness.client(logger: logs.logger())
            try await Self.logIn(client)
            for index in 0..<20 { _ = try await client.card(id: "card_\(index)") }
            #expect(await harness.fake.refreshCalls == 0)
            await harness.fake.expireAccessTokens()
            _ = try await client.card(id: "card_1")
            #expect(await harness.fake.refreshCalls == 1)
            #expect(
                logs.all.contains { $0.hasPrefix("warning") && $0.contains("clock is probably ahead of the server's") })
        }
    }

    @Test func aMarginOfZeroStillRefreshesOnlyOncePerToken() async throws {
        try await Harness.with { harness in
            await harness.fake.set(accessTTL: 2)
            let client = harness.client(policy: SessionPolicy(refreshMargin: .zero))
            try await Self.logIn(client)
            for step in 0..<40 {
                harness.wallClock.advance(by: .milliseconds(250))
                _ = try await client.card(id: "card_\(step)")
            }
            #expect(await harness.fake.refreshCalls == 5)  // at 2, 4, 6, 8 and 10 s
        }
    }
}
