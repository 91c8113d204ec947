import CardBackend
import CardModels
import CardWalletLive
import Foundation
import OAuth
import OAuthTestSupport
import Secrets
import Synchronization
import TestSupport
import Testing
import TokenStore

/// The OAuth 2.0 login end to end against Authlib's authorization server and a Radicale that
/// takes its tokens by introspection, with the test playing the browser: the loopback flow, and
/// every way it can go wrong storing nothing.
@Suite(.serialized) struct OAuthLoginLiveTests {
    @Test func theLoopbackFlowLogsInKeepsEachTokenInItsPlaceAndTheWalletWorks() async throws {
        try await OAuthWallet.with { wallet in
            let report = try await wallet.logIn()
            #expect(report.account.email == wallet.peers.email)
            #expect(report.kind == .cardDAV)
            let record = try #require(report.record)
            #expect(record.oauth?.issuer == wallet.peers.issuer.absoluteString)
            #expect(record.oauth?.clientID == wallet.peers.clientID)
            #expect(record.oauth?.tokenEndpoint == wallet.peers.issuer.appending(path: "token").absoluteString)
            #expect(record.secret == .keyring)
            // The browser landed on cardwallet's page.
            try await waitUntil(timeout: .seconds(10), "the browser's page") { !wallet.pages.withLock { $0.isEmpty } }
            #expect(wallet.pages.withLock { $0 }.first?.hasPrefix("200 ") == true)
            #expect(wallet.pages.withLock { $0 }.first?.contains("cardwallet has the answer") == true)

            // The access token in the token file, the refresh token (and the client secret) in the keyring.
            let item = try #require(try wallet.storedItems().first)
            #expect(item.refreshToken == oauthRefreshTokenStandIn)
            #expect(item.account == wallet.peers.email)
            let kept = try #require(
                try await wallet.keyring.secret(
                    for: SecretKey(account: record.name, server: record.server, user: record.user)))
            let secret = try #require(OAuthSecret.decoded(kept))
            #expect(secret.clientSecret == wallet.peers.clientSecret)
            #expect(!secret.refreshToken.isEmpty)
            let file = try String(contentsOfFile: wallet.folder.path("state/tokens.json"), encoding: .utf8)
            #expect(!file.contains(secret.refreshToken))
            #expect(!file.contains(wallet.peers.clientSecret))

            // The wallet on the book, with the bearer token.
            let cards = await wallet.accounts.wallet()
            _ = try await cards.create(CardFields(name: "Ada Lovelace", email: "ada@example.com"))
            #expect(try await wallet.peers.cardsInBook().contains { $0.contains("Ada Lovelace") })
            let listed = try await cards.list(.online).value
            #expect(listed.map(\.name) == ["Ada Lovelace"])

            // No secret in the log pane's lines: tokens, the client secret, the code's form.
            let log = wallet.logText()
            #expect(log.contains("POST /token"))
            for leak in [item.accessToken, secret.refreshToken, wallet.peers.clientSecret] {
                #expect(!log.contains(leak))
            }
            #expect(!log.contains("code_verifier=") || log.contains("code_verifier=<private>"))
        }
    }

    @Test func aForgedStateIsRefusedAndNothingIsStored() async throws {
        try await OAuthWallet.with { wallet in
            await #expect(throws: OAuthError.stateMismatch) { try await wallet.logIn(choice: .allowWithForgedState) }
            try await Self.expectNothingStored(wallet)
            #expect(try await wallet.peers.stats()["authorization_code"] == 0)
            try await waitUntil(timeout: .seconds(10), "the browser's page") { !wallet.pages.withLock { $0.isEmpty } }
            #expect(wallet.pages.withLock { $0 }.first?.contains("Not this login") == true)
        }
    }

    @Test func accessDeniedIsRefusedAndNothingIsStored() async throws {
        try await OAuthWallet.with { wallet in
            do {
                try await wallet.logIn(choice: .deny)
                Issue.record("a denied login logged in")
            } catch let error as OAuthError {
                // Authlib's description, form-encoded on the redirect (`+` for spaces), read back as text.
                #expect(
                    error
                        == .authorizationRefused(
                            error: "access_denied",
                            description: "The resource owner or authorization server denied the request"))
                #expect(error.description.contains("The access was denied"))
                #expect(error.failureKind == .loginFailed)
            }
            try await Self.expectNothingStored(wallet)
        }
    }

    @Test func aTokenEndpointAnswering400Or500StoresNothing() async throws {
        try await OAuthWallet.with { wallet in
            try await wallet.peers.failTokenRequests(status: 400, error: "invalid_request")
            await #expect(
                throws: OAuthError.tokenRefused(
                    status: 400, error: "invalid_request", description: "the test asked for this")
            ) {
                try await wallet.logIn()
            }
            try await Self.expectNothingStored(wallet)
            try await wallet.peers.failTokenRequests(status: 500)
            do {
                try await wallet.logIn()
                Issue.record("a failing token endpoint logged in")
            } catch let error as OAuthError {
                guard case .tokenServerFailure(500, let detail) = error else {
                    Issue.record("\(error); the browser saw \(wallet.pages.withLock { $0 })")
                    return
                }
                #expect(detail.contains("failing on purpose"))
                #expect(error.description.contains("try again later"))
            }
            try await Self.expectNothingStored(wallet)
            // A wrong client secret: invalid_client, with the hint to check it.
            do {
                try await wallet.logIn(secret: "not-the-secret")
                Issue.record("a wrong client secret logged in")
            } catch let error as OAuthError {
                guard case .tokenRefused(401, "invalid_client", _) = error else {
                    Issue.record("\(error)")
                    return
                }
                #expect(error.description.contains("--client-secret"))
                #expect(!error.description.contains("not-the-secret"))
            }
            try await Self.expectNothingStored(wallet)
        }
    }

    @Test func aRedirectThatNeverComesEndsAtTheDeadlineAndClosesTheListener() async throws {
        try await OAuthWallet.with { wallet in
            let started = ContinuousClock.now
            await #expect(throws: OAuthError.redirectTimedOut(after: .seconds(1))) {
                try await wallet.logIn(deadline: .seconds(1), browse: false)
            }
            #expect(ContinuousClock.now - started < .seconds(20))
            try await Self.expectNothingStored(wallet)
        }
    }

    @Test func metadataIsFoundAsRFC8414OrAsOpenIDConnectDiscovery() async throws {
        for kind in ["rfc8414", "oidc"] {
            try await OAuthWallet.with(metadata: kind) { wallet in
                let report = try await wallet.logIn()
                #expect(report.account.email == wallet.peers.email, "\(kind)")
            }
        }
    }

    /// No token, no secret, no record: the token file holds nothing, the keyring nothing.
    static func expectNothingStored(
        _ wallet: OAuthWallet, sourceLocation: SourceLocation = #_sourceLocation
    ) async throws {
        #expect(try wallet.storedItems().isEmpty, sourceLocation: sourceLocation)
        #expect(try wallet.store.accountRecords().isEmpty, sourceLocation: sourceLocation)
        #expect(wallet.keyring.count == 0, sourceLocation: sourceLocation)
    }
}
