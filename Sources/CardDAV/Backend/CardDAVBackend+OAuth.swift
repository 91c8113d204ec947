import CardBackend
import Foundation
import Logging
import Networking
import OAuth
import SessionCore
import Synchronization
import TextSafety
import TokenStore

/// A CardDAV server behind OAuth 2.0 (Google Contacts, any server whose authorization server
/// publishes metadata): the login with the access token an OAuth login just got, the session's
/// news as the wallet shows it, logout, status. The tokens are kept fresh by the shared session
/// (``SessionCore/TokenSession`` with ``OAuth/OAuthTokenExchange``); docs/CardDAV.md, "Google
/// Contacts and OAuth 2.0".
extension CardDAVBackend {
    /// Logs in with the access token of an OAuth login: finds the address books with it (only
    /// where the ``CredentialScope`` admits, as a password), then keeps it in the token file —
    /// only once discovery worked, so a failed login stores nothing. The refresh token is the
    /// caller's to keep (the account's secret store).
    func logIn(_ grant: BearerGrant) async throws -> LoginOutcome {
        let credentials = CardDAVCredentials(user: grant.user, bearer: .token(grant.accessToken))
        let configuration = CardDAVConfiguration(
            server: setup.server, requestTimeout: setup.requestTimeout, allowsInsecureHTTP: setup.allowsInsecureHTTP,
            multigetBatchSize: setup.multigetBatchSize)
        let client = CardDAVClient(
            configuration: configuration, credentials: credentials, transport: transport, plugins: plugins,
            logger: logger, admission: admission)
        let found: CardDAVAccount
        do {
            found = try await client.discover()
        } catch {
            guard error.requiresLogin else { throw error }
            throw CardDAVBackendFailure(
                .loginFailed,
                "The CardDAV server at \(TerminalText.escaped(loginServer)) refused the new access token (401): the "
                    + "scope granted may not include the address books (docs/CardDAV.md).")
        }
        let (book, note) = try choose(from: found)
        let item = TokenItem(
            server: loginServer, account: grant.user, accessToken: grant.accessToken,
            accessTokenExpiresAt: grant.accessTokenExpiresAt, refreshToken: oauthRefreshTokenStandIn,
            refreshTokenExpiresAt: .distantFuture, displayName: grant.displayName, accessTokenIssuedAt: grant.receivedAt
        )
        do {
            try await tokenStore.save(item, replacingCorrupt: true)
        } catch {
            throw CardDAVBackendFailure(.other, "The access token could not be kept: \(error)")
        }
        state.withLock {
            $0.book = book
            $0.bearerLogin = (grant.user, grant.accessToken)
            $0.session = nil
            $0.refused = false
            $0.passwordHosts = client.passwordHosts
        }
        let session = sessionAccount(grant.user)
        let notes = [note, Self.tokenHostNote(client.passwordHosts, server: setup.server)].compactMap { $0 }
        publish(.loggedIn(session))
        return LoginOutcome(
            account: session, keepsPassword: false, book: info(book),
            note: notes.isEmpty ? nil : notes.joined(separator: "; "))
    }

    /// The sentence that tells the person which other host the token went to, like the password's.
    static func tokenHostNote(_ hosts: [String], server: URL) -> String? {
        passwordHostNote(hosts, server: server).map { $0.replacingOccurrences(of: "the password", with: "the token") }
    }

    /// The session ended: the grant is dead (`invalid_grant`), or the server refused the tokens
    /// even after a refresh. This backend is logged out; the failure is "session ended", E06's
    /// path (the cards wiped, the outbox kept, the secret forgotten: `WalletAccounts`).
    func oauthSessionEnded(_ account: String, because error: CardDAVError) -> CardDAVBackendFailure {
        state.withLock {
            $0.bearerLogin = nil
            $0.refused = true
        }
        publish(.expired(server: loginServer, account: sessionAccount(account)))
        let reason: String
        if case .authorization(let oauth) = error {
            reason = oauth.description
        } else {
            reason =
                "The CardDAV server at \(TerminalText.escaped(loginServer)) refused the access token of "
                + "\(TerminalText.escaped(account)) even after a refresh (401). Log in again."
        }
        return CardDAVBackendFailure(.sessionEnded(server: server, account: account), reason)
    }

    /// Logs out of an OAuth account: the stored access token goes, and the refresh token is
    /// revoked at the authorization server where it has a revocation endpoint (RFC 7009, best
    /// effort); the caller forgets the secret and the record.
    func logOutOfOAuth() async throws -> LogoutReport {
        let user = account?.user ?? state.withLock { $0.bearerLogin?.user }
        await tokenSession?.end()
        state.withLock {
            $0.bearerLogin = nil
            $0.refused = true
        }
        publish(.loggedOut(server: loginServer))
        guard let user else { return LogoutReport(account: nil, serverTold: false, serverProblem: nil) }
        do {
            _ = try await tokenStore.delete(server: loginServer, account: user)
        } catch {
            logger.warning("The stored access token could not be removed: \(error)")
        }
        var told = false
        var problem: (any BackendFailure)?
        if let oauth = account?.oauth, let endpoint = oauth.revocationEndpoint.flatMap(URL.init(string:)),
            let text = try? await storedPassword?(), let secret = OAuthSecret.decoded(text)
        {
            let client = OAuthTokenClient(
                client: OAuthClient(id: oauth.clientID, secret: secret.clientSecret), transport: transport,
                plugins: plugins, allowsInsecureHTTP: setup.allowsInsecureHTTP)
            do {
                try await client.revoke(
                    secret.refreshToken, at: endpoint,
                    basicClientAuthentication: oauth.basicClientAuthentication ?? true)
                told = true
            } catch {
                problem = error
            }
        }
        return LogoutReport(account: user, serverTold: told, serverProblem: problem)
    }

    /// Who is logged in, and until when the access token lasts, from the token file now.
    func oauthStatus() async -> SessionStatusReport {
        let storage = tokenStore.storageSummary()
        let shownBook = bookInUse?.shownName ?? setup.book
        guard let user = account?.user, !state.withLock({ $0.refused }),
            let item = try? tokenStore.read(server: loginServer, account: user)
        else {
            var shownState = SessionState.loggedOut(server: loginServer)
            if case .expired = sessionState { shownState = sessionState }
            return SessionStatusReport(
                server: loginServer, state: shownState, storage: storage, kind: .cardDAV, addressBook: shownBook)
        }
        let account = sessionAccount(user)
        var report = SessionStatusReport(
            server: loginServer, state: .loggedIn(account), account: account, storage: storage, kind: .cardDAV,
            addressBook: shownBook)
        report.accessTokenExpiresAt = item.accessTokenExpiresAt
        return report
    }

    /// A state of the OAuth session as the wallet shows it: the account with the book in use.
    func shown(_ session: SessionState) -> SessionState {
        switch session {
        case .loggedIn(let account): .loggedIn(sessionAccount(account.email))
        case .refreshing(let account): .refreshing(sessionAccount(account.email))
        case .expired(_, let account): .expired(server: loginServer, account: account.map { sessionAccount($0.email) })
        case .loggedOut: .loggedOut(server: loginServer)
        }
    }
}

/// The OAuth session's news, passed on as the wallet shows them (``CardDAVBackend/shown(_:)``).
struct ShownSessionSink: SessionStateSink {
    let backend: CardDAVBackend
    let sink: any SessionStateSink

    func sessionChanged(_ state: SessionState) {
        sink.sessionChanged(backend.shown(state))
    }
}
