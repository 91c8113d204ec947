import CardBackend
import CardCache
import CardModels
import CardProviders
public import Foundation
public import OAuth
import Secrets
import TokenStore

/// An OAuth 2.0 login, as `cardwallet login --oauth` and the interface's login screen ask for it.
public struct OAuthLoginRequest: Sendable {
    /// The authorization server (a preset such as Google, or an issuer's address) and the scope.
    public var issuer: OAuthIssuer
    /// The client cardwallet is registered as.
    public var client: OAuthClient
    /// How long to wait for the browser to come back.
    public var deadline: Duration
    /// Shows the authorization address: opens the browser where there is one, prints the address
    /// for another device otherwise. Called once the loopback listener listens.
    public var present: @Sendable (URL) async -> Void

    /// The wait for the browser when nobody says: five minutes, time to log in on a phone.
    public static let defaultDeadline: Duration = .seconds(300)

    /// A request.
    public init(
        issuer: OAuthIssuer, client: OAuthClient, deadline: Duration = defaultDeadline,
        present: @escaping @Sendable (URL) async -> Void
    ) {
        self.issuer = issuer
        self.client = client
        self.deadline = deadline
        self.present = present
    }
}

extension WalletAccounts {
    /// Logs in with OAuth 2.0 to a CardDAV server behind it: the loopback flow (the browser, the
    /// redirect, the code for tokens), then the address books found with the new access token,
    /// then — and only then — the access token kept in the token file, the refresh token (with
    /// the client secret) in the account's secret store, and the record (issuer, client id,
    /// token endpoint; never a secret) as the default account. A failure or a cancellation at
    /// any step leaves nothing stored.
    func logIn(_ request: LoginRequest, oauth: OAuthLoginRequest, directory: AccountDirectory) async throws
        -> LoginReport
    {
        let url: URL
        if let server = request.server {
            url = try ServerAddress.url(server, allowingInsecureHTTP: allowsInsecureHTTP)
        } else if let server = oauth.issuer.cardDAVServer {
            url = server
        } else if let record = account, record.oauth != nil, let stored = URL(string: record.server) {
            url = stored
        } else {
            throw AccountProblem(
                "An OAuth login at \(TerminalText.escaped(oauth.issuer.url.absoluteString)) needs the CardDAV server's "
                    + "address too: give it with --server (only `--oauth google` knows its own).")
        }
        let provider = try directory.provider(forKind: request.kind ?? BackendKind.cardDAV.id)
        guard provider.logins.contains(.oauth) else {
            throw AccountProblem("A \(provider.kind.name) server does not take an OAuth login.")
        }
        let context = directory.context
        let tokens = OAuthTokenClient(
            client: oauth.client, transport: context.transport, plugins: context.plugins,
            timeout: context.settings.authTimeout, allowsInsecureHTTP: allowsInsecureHTTP)
        let login = OAuthLogin(issuer: oauth.issuer, tokens: tokens, user: request.user)
        let pending = try await login.begin()
        let grant: OAuthGrant
        do {
            await oauth.present(pending.url)
            grant = try await withTaskCancellationHandler {
                try await pending.complete(within: oauth.deadline)
            } onCancel: {
                pending.cancel()
            }
        } catch {
            pending.cancel()
            throw error
        }
        let records = try Self.recordsForLogin(directory)
        let existing = records.first { $0.matches(server: url.absoluteString, user: grant.user) }
        if let name = request.name, let taken = records.first(where: { $0.isNamed(name) }), taken != existing {
            throw AccountProblem(
                "There is already an account called “\(TerminalText.escaped(taken.name))” "
                    + "(\(TerminalText.escaped(taken.user)) at \(TerminalText.escaped(taken.server))): choose another --name."
            )
        }
        let loginBackend = try provider.makeBackend(
            BackendTarget(server: url, book: directory.book ?? AccountDirectory.bookID(ofPath: existing?.book)),
            context: context)
        use(loginBackend, record: nil)
        let outcome = try await loginBackend.logIn(
            .bearer(
                BearerGrant(
                    user: grant.user, displayName: grant.displayName, accessToken: grant.accessToken,
                    accessTokenExpiresAt: grant.expiresAt, receivedAt: grant.receivedAt)))
        var record = AccountRecord(
            name: request.name ?? existing?.name
                ?? AccountRecord.derivedName(user: outcome.account.email, server: url.absoluteString, taken: records),
            kind: provider.kind.id, server: url.absoluteString, user: outcome.account.email,
            book: outcome.book?.path, bookName: outcome.book?.displayName,
            oauth: AccountOAuth(
                issuer: oauth.issuer.recordName, clientID: oauth.client.id,
                tokenEndpoint: grant.metadata.tokenEndpoint.absoluteString,
                revocationEndpoint: grant.metadata.revocationEndpoint?.absoluteString,
                basicClientAuthentication: grant.metadata.usesBasicClientAuthentication, scope: oauth.issuer.scope))
        let secretNote: String?
        do {
            let kept = try await directory.secrets.keep(
                OAuthSecret(refreshToken: grant.refreshToken, clientSecret: oauth.client.secret).encoded, for: record,
                command: nil)
            record.secret = kept.location
            secretNote = kept.note?.replacingOccurrences(of: "the password is kept", with: "the refresh token is kept")
                .replacingOccurrences(of: ", or give --password-command 'pass show …' so that none is kept", with: "")
            try await directory.tokenStore.saveAccount(record, makeDefault: true, replacingCorrupt: true)
        } catch {
            // Nothing half stored: the access token the backend kept goes, and any secret kept.
            _ = try? await directory.tokenStore.delete(
                server: ServerAddress.key(url.absoluteString), account: grant.user)
            await directory.secrets.forget(record)
            throw error
        }
        let stored = (try? directory.backend(for: record)) ?? loginBackend
        use(stored, record: record)
        let others = cacheFolder().map { CardCache.waitingOutboxes(server: stored.server, location: $0) } ?? []
        return LoginReport(
            account: outcome.account, kind: provider.kind,
            othersWaiting: others.filter { $0.account.lowercased() != outcome.account.email.lowercased() }.map {
                ($0.account, $0.changes)
            }, server: record.server, addressBook: outcome.book?.shownName, note: outcome.note, record: record,
            secretNote: secretNote)
    }
}
