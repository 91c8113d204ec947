import CardModels
import Foundation
import Networking
import TestSupport
import Testing
import TokenStore

@testable import CardAPI

/// Login, logout and status when the token file cannot be used: nothing is sent that the
/// store could not keep, nothing is reported as done that was not done, and the file is left alone.
@Suite struct UnsafeStoreTests {
    /// A token file of group/world-readable mode, holding a valid item.
    static func openFile(_ harness: Harness) async throws -> Data {
        try await harness.seedTokens()
        try FileManager.default.setAttributes([.posixPermissions: 0o644], ofItemAtPath: harness.store.path)
        return try Data(contentsOf: URL(filePath: harness.store.path))
    }

    @Test func aLoginWithAnUnsafeTokenFileSendsNothing() async throws {
        try await Harness.with { harness in
            let before = try await Self.openFile(harness)
            harness.stub.clearRequests()
            let error = await #expect(throws: CardAPIError.self) {
                try await harness.client().login(email: "demo@cardwallet.dev", password: FakeCardServer.password)
            }
            guard case .tokenStore(.fileTooOpen(let path, 0o644))? = error else {
                Issue.record("expected fileTooOpen, got \(String(describing: error))")
                return
            }
            #expect(path == harness.store.path)
            #expect(error?.description.contains("chmod 600") == true)
            #expect(harness.stub.requests.isEmpty)  // the password never left
            #expect(try Data(contentsOf: URL(filePath: harness.store.path)) == before)
        }
    }

    @Test func aCardCallWithAnUnsafeTokenFileSendsNothing() async throws {
        try await Harness.with { harness in
            _ = try await Self.openFile(harness)
            harness.stub.clearRequests()
            let error = await #expect(throws: CardAPIError.self) { _ = try await harness.client().listCards() }
            guard case .tokenStore(.fileTooOpen(_, 0o644))? = error else {
                Issue.record("expected fileTooOpen, got \(String(describing: error))")
                return
            }
            #expect(harness.stub.requests.isEmpty)
        }
    }

    @Test func aLoginWhoseTokensCannotBeSavedEndsThatSessionOnTheServer() async throws {
        try await Harness.with { harness in
            // Another holder keeps the store's lock, so saving times out after the login succeeded.
            let store = TokenStore(path: harness.store.path, lockTimeout: .milliseconds(100))
            let holding = Gate()
            let release = Gate()
            let holder = Task {
                try await harness.store.withExclusiveAccess { _ in
                    holding.open()
                    await release.wait()
                }
            }
            defer { release.open() }
            await holding.wait()
            let client = CardAPIClient(
                configuration: CardAPIConfiguration(server: Harness.server, allowsInsecureHTTP: true),
                tokenStore: store,
                transport: harness.stub, wallClock: harness.wallClock, clock: harness.clock)

            let error = await #expect(throws: CardAPIError.self) {
                try await client.login(email: "demo@cardwallet.dev", password: FakeCardServer.password)
            }
            guard case .tokenStore(.lockTimedOut)? = error else {
                Issue.record("expected lockTimedOut, got \(String(describing: error))")
                return
            }
            let login = try #require(harness.requests(to: "/auth/login").first)
            let logout = try #require(await harness.fake.logoutRequests.first)
            // The session the login opened (the fake's first pair) is the one ended.
            #expect(logout.headers["Authorization"] == "Bearer cwa_t_access_1")
            #expect(logout.headers[CardWalletHeader.refreshToken] == "Bearer cwr_t_refresh_1")
            #expect(harness.stub.requests.map(\.path) == ["/v1/auth/login", "/v1/auth/logout"])
            #expect(login.headers["Authorization"] == nil)
            #expect(!client.session.state.isLoggedIn)
            release.open()
            try await holder.value
            #expect(try harness.store.items().isEmpty)
        }
    }

    @Test func aLogoutWithACorruptTokenFileSaysSoAndLeavesItAlone() async throws {
        try await Harness.with { harness in
            let corrupt = Data("{not json".utf8)
            try corrupt.write(to: URL(filePath: harness.store.path))
            try FileManager.default.setAttributes([.posixPermissions: 0o600], ofItemAtPath: harness.store.path)
            let error = await #expect(throws: CardAPIError.self) { _ = try await harness.client().logout() }
            guard case .tokenStore(.unreadable)? = error else {
                Issue.record("expected an unreadable store, got \(String(describing: error))")
                return
            }
            #expect(harness.stub.requests.isEmpty)
            #expect(try Data(contentsOf: URL(filePath: harness.store.path)) == corrupt)
        }
    }

    @Test func aLogoutWithAnUnsafeTokenFileSaysSoAndLeavesItAlone() async throws {
        try await Harness.with { harness in
            let before = try await Self.openFile(harness)
            harness.stub.clearRequests()
            let error = await #expect(throws: CardAPIError.self) { _ = try await harness.client().logout() }
            guard case .tokenStore(.fileTooOpen)? = error else {
                Issue.record("expected fileTooOpen, got \(String(describing: error))")
                return
            }
            #expect(harness.stub.requests.isEmpty)
            #expect(try Data(contentsOf: URL(filePath: harness.store.path)) == before)
        }
    }

    @Test func statusExplainsAnUnsafeFileOnce() async throws {
        try await Harness.with { harness in
            _ = try await Self.openFile(harness)
            let report = await harness.client().status()
            let problem = try #require(report.problem)
            #expect(problem.contains("mode 0644"))
            let text = report.description
            #expect(text.components(separatedBy: "chmod 600").count == 2, "\(text)")
            #expect(!report.state.isLoggedIn)
        }
    }
}
