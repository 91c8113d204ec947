import CardBackend
import CardWalletUI
import Foundation

extension CallPerformer {
    /// The interface's browser login: the authorization address goes back to the login screen as
    /// the call's progress (``CardWalletUI/CallProgress/link``) once the loopback listener
    /// listens; the outcome comes back as a password login's does. Cancelling the call (Esc)
    /// closes the listener; nothing is stored unless the whole login worked.
    func logInWithBrowser(_ server: String, progress: ProgressReporter) async -> CallOutcome {
        do {
            return .success(
                try await Self.browserLoginResult(
                    accounts: accounts, browserLogin: browserLogin, server: server, progress: progress))
        } catch {
            return .failure(UIFailure(any: error))
        }
    }

    static func browserLoginResult(
        accounts: WalletAccounts, browserLogin: BrowserLogin, server: String, progress: ProgressReporter
    ) async throws -> CallResult {
        let request = try browserLogin.request(server: server, stored: accounts.account) { url in
            progress.report(CallProgress(done: 0, total: nil, link: url.absoluteString))
        }
        let report = try await accounts.logIn(request)
        return .loggedIn(email: report.account.email, server: report.account.shownServer)
    }
}
