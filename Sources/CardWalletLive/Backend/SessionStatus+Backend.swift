public import CardBackend
public import CardWalletUI

extension SessionStatus {
    /// The status bar's view of a session state of a backend.
    public init(_ state: SessionState) {
        switch state {
        case .loggedOut:
            self = .loggedOut
        case .loggedIn(let account):
            self = .loggedIn(email: account.email, server: account.shownServer)
        case .refreshing(let account):
            self = .refreshing(email: account.email, server: account.shownServer)
        case .expired(let server, let account):
            self = .expired(email: account?.email, server: server)
        }
    }
}
