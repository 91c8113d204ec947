import CardModels
import Foundation
import LiveTestSupport
import Networking
import TestSupport
import Testing
import TokenStore

@testable import CardAPI

/// Login, logout, status, and the state stream.
@Suite struct LoginLogoutTests {
    @Test func loginStoresThePairAndPublishesTheAccount() async throws {
        try await Harness.with { harness in
            let client = harness.client()
            #expect(client.session.state == .loggedOut(server: Harness.server.absoluteString))
            let recorder = StateRecorder(client)

            let user = try await client.login(email: "demo@cardwallet.dev", password: FakeCardServer.password)

            #expect(user == FakeCardServer.demoUser)
            let item = try #require(try harness.store.items().first)
            #expect(item.account == "demo@cardwallet.dev")
            #expect(item.displayName == "Demo User")
            let login = try #require(harness.requests(to: "/auth/login").first)
            #expect(login.headers["Authorization"] == nil)
            let account = SessionAccount(
                server: Harness.server.absoluteString, email: "demo@cardwallet.dev", name: "Demo User",
                userID: "user-demo")
            try await waitUntil("the login to be published") { recorder.states.last == .loggedIn(account) }
            #expect(recorder.states == [.loggedOut(server: Harness.server.absoluteString), .loggedIn(account)])
        }
    }

    @Test func loginReplacesACorruptTokenFile() async throws {
        try await Harness.with { harness in
            try Data("{not json".utf8).write(to: URL(filePath: harness.store.path))
            try FileManager.default.setAttributes([.posixPermissions: 0o600], ofItemAtPath: harness.store.path)
            let client = harness.client()
            let error = await #expect(throws: CardAPIError.self) { _ = try await client.card(id: "a") }
            guard case .tokenStore(.unreadable)? = error else {
                Issue.record("expected an unreadable store, got \(String(describing: error))")
                return
            }
            #expect(error?.description.contains("log in again") == true)
            try await client.login(email: "demo@cardwallet.dev", password: FakeCardServer.password)
            #expect(try harness.store.items().count == 1)
        }
    }

    /// Accounts side by side: logging in as another account at the same server keeps the stored
    /// one's session; each is used by naming it.
    @Test func loggingInAsAnotherAccountKeepsTheStoredOne() async throws {
        try await Harness.with { harness in
            let now = harness.wallClock.now
            let other = TokenItem(
                server: Harness.server.absoluteString + "/", account: "Minji@cardwallet.dev", accessToken: "cwa_minji",
                accessTokenExpiresAt: now.addingTimeInterval(300), refreshToken: "cwr_minji",
                refreshTokenExpiresAt: now.addingTimeInterval(9000))
            try await harness.store.save(other)

            try await harness.client().login(email: "demo@cardwallet.dev", password: FakeCardServer.password)

            #expect(
                try harness.store.accounts(server: Harness.server.absoluteString) == [
                    "Minji@cardwallet.dev", "demo@cardwallet.dev",
                ])
            #expect(
                try harness.store.read(server: Harness.server.absoluteString, account: "minji@cardwallet.dev") == other)
            #expect(await harness.fake.logoutRequests.isEmpty)
            // The account just logged in is used by naming it.
            _ = try await harness.client(account: "demo@cardwallet.dev").card(id: "a")
        }
    }

    /// One session per user: logging in again as the same account (in another letter case) ends
    /// that account's previous session on the server; nobody else is logged out.
    @Test func loggingInAgainAsTheSameAccountEndsItsPreviousSession() async throws {
        try await Harness.with { harness in
            let old = try await harness.seedTokens()
            try await harness.client().login(email: "DEMO@cardwallet.dev", password: FakeCardServer.password)
            #expect(try harness.store.accounts(server: Harness.server.absoluteString) == ["demo@cardwallet.dev"])
            let stored = try #require(
                try harness.store.read(server: Harness.server.absoluteString, account: "demo@cardwallet.dev"))
            #expect(stored.refreshToken != old.refreshToken)
            let logouts = await harness.fake.logoutRequests
            #expect(logouts.count == 1)
            #expect(logouts.first?.headers[CardWalletHeader.refreshToken] == "Bearer \(old.refreshToken)")
        }
    }

    @Test func wrongPasswordIsE02AndStoresNothing() async throws {
        try await Harness.with { harness in
            let client = harness.client()
            let error = await #expect(throws: CardAPIError.self) {
                try await client.login(email: "demo@cardwallet.dev", password: "nope-nope")
            }
            #expect(error?.errorCode == .loginFailed)
            #expect(error?.description.starts(with: "Wrong email or password (E02).") == true)
            let stored = try harness.store.items()
            #expect(stored.isEmpty)
            #expect(client.session.state == .loggedOut(server: Harness.server.absoluteString))
        }
    }

    @Test func notLoggedInFailsWithoutSending() async throws {
        try await Harness.with { harness in
            let error = await #expect(throws: CardAPIError.self) { _ = try await harness.client().listCards() }
            #expect(error == .notLoggedIn(server: Harness.server.absoluteString, account: nil))
            #expect(error?.requiresLogin == true)
            #expect(harness.stub.requests.isEmpty)
        }
    }

    @Test func logoutRevokesOnTheServerAndDeletesTheTokens() async throws {
        try await Harness.with { harness in
            let item = try await harness.seedTokens()
            let client = harness.client()
            let result = try await client.logout()
            #expect(result == LogoutResult(account: item.account, serverRevoked: true, serverProblem: nil))
            let logout = try #require(await harness.fake.logoutRequests.first)
            #expect(logout.headers["Authorization"] == "Bearer \(item.accessToken)")
            #expect(logout.headers[CardWalletHeader.refreshToken] == "Bearer \(item.refreshToken)")
            #expect(try harness.store.items().isEmpty)
            #expect(client.session.state == .loggedOut(server: Harness.server.absoluteString))
            await #expect(throws: CardAPIError.notLoggedIn(server: Harness.server.absoluteString, account: nil)) {
                _ = try await client.listCards()
            }
        }
    }

    @Test func logoutDeletesTheTokensEvenWhenTheServerCannotBeReached() async throws {
        let folder = try TemporaryFolder("cardapi")
        defer { folder.remove() }
        let store = folder.tokenStore
        let now = Date()
        try await store.save(
            TokenItem(
                server: Harness.server.absoluteString, account: "a@b.c", accessToken: "cwa_1",
                accessTokenExpiresAt: now + 300, refreshToken: "cwr_1", refreshTokenExpiresAt: now + 900))
        let client = CardAPIClient(
            configuration: CardAPIConfiguration(server: Harness.server, allowsInsecureHTTP: true), tokenStore: store,
            transport: StubTransport(.networkFailure(.cannotConnect, reason: "connection refused")))
        let result = try await client.logout()
        #expect(result.account == "a@b.c")
        #expect(!result.serverRevoked)
        guard case .cannotConnect? = result.serverProblem else {
            Issue.record("expected cannotConnect, got \(String(describing: result.serverProblem))")
            return
        }
        #expect(try store.items().isEmpty)
    }

    @Test func logoutWhenNobodyIsLoggedInDoesNothing() async throws {
        try await Harness.with { harness in
            let result = try await harness.client().logout()
            #expect(result == LogoutResult(account: nil, serverRevoked: false, serverProblem: nil))
            #expect(harness.stub.requests.isEmpty)
        }
    }

    @Test func statusSaysWhoWhereAndHowWithoutTokens() async throws {
        try await Harness.with { harness in
            let item = try await harness.seedTokens()
            let report = await harness.client().status()
            #expect(report.state.isLoggedIn)
            #expect(report.account?.email == "demo@cardwallet.dev")
            #expect(report.accessTokenExpiresAt == item.accessTokenExpiresAt)
            #expect(report.storage.contains("plain file, mode 0600, not encrypted"))
            let text = report.description
            #expect(text.contains("logged in as demo@cardwallet.dev at \(Harness.server.absoluteString)"))
            #expect(!text.contains(item.accessToken) && !text.contains(item.refreshToken))
        }
    }

    @Test func restorePicksUpALoginFromAnotherProcess() async throws {
        try await Harness.with { harness in
            let client = harness.client()
            #expect(!client.session.state.isLoggedIn)
            try await harness.seedTokens()
            #expect(try await client.session.restore().isLoggedIn)
        }
    }
}
