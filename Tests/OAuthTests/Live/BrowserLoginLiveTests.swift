import CardBackend
import CardWalletLive
import CardWalletUI
import Foundation
import OAuthTestSupport
import Synchronization
import TestSupport
import Testing
import TokenStore

/// The interface's browser login (Ctrl-O) as the live glue performs it: the settings name the
/// issuer and the client, the address comes back as the call's progress, the test's browser
/// opens it, and the login ends logged in; without an issuer it says what to set and sends nothing.
@Suite(.serialized) struct BrowserLoginLiveTests {
    @Test func theInterfacesBrowserLoginReportsTheAddressAndLogsIn() async throws {
        try await OAuthWallet.with { wallet in
            let settings = BrowserLogin(
                issuer: wallet.peers.issuer.absoluteString, clientID: wallet.peers.clientID,
                clientSecret: wallet.peers.clientSecret, deadline: .seconds(60),
                environment: ["CARDWALLET_NO_BROWSER": "1"])
            let performer = CallPerformer(accounts: wallet.accounts, browserLogin: settings)
            let links = Mutex<[String]>([])
            let progress = ProgressReporter { report in
                guard let link = report.link, let url = URL(string: link) else { return }
                links.withLock { $0.append(link) }
                Task { try? await TestBrowser.visit(url) }
            }
            let outcome = await performer.perform(
                .logInWithBrowser(server: wallet.peers.bookURL.absoluteString), progress: progress)
            guard case .success(.loggedIn(let email, _)) = outcome else {
                Issue.record("\(outcome)")
                return
            }
            #expect(email == wallet.peers.email)
            #expect(links.withLock { $0.count } == 1)
            #expect(links.withLock { $0 }.first?.contains("code_challenge_method=S256") == true)
            #expect(wallet.accounts.account?.oauth?.issuer == wallet.peers.issuer.absoluteString)
        }
    }

    @Test func withoutAnIssuerTheLoginSaysWhatToSetAndSendsNothing() async throws {
        try await OAuthWallet.with { wallet in
            let performer = CallPerformer(
                accounts: wallet.accounts, browserLogin: BrowserLogin(clientID: wallet.peers.clientID))
            let before = wallet.network.requestCount
            let outcome = await performer.perform(
                .logInWithBrowser(server: wallet.peers.bookURL.absoluteString), progress: .ignoring)
            guard case .failure(let failure) = outcome else {
                Issue.record("\(outcome)")
                return
            }
            #expect(failure.message.contains("oauth.issuer"), "\(failure.message)")
            #expect(wallet.network.requestCount == before)
            let stored = try wallet.storedItems()
            #expect(stored.isEmpty)
        }
    }
}
