import CardBackend
import CardModels
import CardProviders
public import CardWalletUI
import TokenStore

extension WalletAccounts {
    /// The accounts remembered, as the interface lists them (the one in use marked); empty when
    /// none are. Reads the token file only; never a secret.
    public func storedAccounts() -> [StoredAccount] {
        guard let directory else { return [] }
        let inUse = account?.name
        return records().map { record in
            let tokens = (try? directory.tokenStore.read(server: record.server, account: record.user)) ?? nil
            return StoredAccount(
                name: record.name, kind: directory.providers.provider(forKind: record.kind)?.kind.name ?? record.kind,
                server: record.server, user: record.user,
                book: record.bookName ?? AccountDirectory.bookID(ofPath: record.book),
                loggedIn: record.secret != nil || tokens != nil, inUse: record.name == inUse)
        }
    }

    /// Uses the stored account called `name` from now on (``switchAccount(to:)``).
    ///
    /// - Returns: the account as the interface lists it now, and its session.
    /// - Throws: ``AccountProblem`` when there is no such account or its backend cannot be built.
    public func switchAccount(named name: String) async throws -> (StoredAccount, SessionStatus) {
        guard let record = records().first(where: { $0.isNamed(name) }) else {
            throw AccountProblem("There is no account “\(TerminalText.escaped(name))” any more.")
        }
        try switchAccount(to: record)
        let session = SessionStatus(backend.sessionState)
        let shown = storedAccounts().first { $0.name == record.name }
        return (
            shown
                ?? StoredAccount(
                    name: record.name, kind: record.kind, server: record.server, user: record.user,
                    loggedIn: false, inUse: true), session
        )
    }
}
