/// The accounts the wallet remembers, in the interface: switching between them (`A`) and the
/// list the login screen and the account picker show.
extension AppState {
    /// Takes the outcome of a switch or a listing of the stored accounts.
    mutating func accountFinished(_ outcome: CallOutcome) -> [Effect] {
        switch outcome {
        case .success(.accounts(let accounts)):
            storedAccounts = accounts
        case .success(.switchedAccount(let account, let session, let accounts)):
            storedAccounts = accounts
            self.session = session
            guard account.loggedIn, case .loggedIn = session else {
                // Its session is over (or was never kept here): log in again, the form filled in.
                returnToLogin()
                login = LoginState(server: account.server, email: account.user)
                showMessage(.info, "\(account.name): log in again")
                return []
            }
            showMessage(.info, "Account “\(account.name)”")
            return enterList()
        case .failure(let failure):
            showMessage(.warning, failure.message)
        default:
            break
        }
        return []
    }
}
