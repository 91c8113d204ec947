import CardAPIContract
import CardBackend
import CardModels
import Foundation
import Logging
import Networking
import SessionCore
import TokenStore

extension TokenSession where Exchange == CardTokenExchange {
    /// Logs in and stores the new token pair, replacing a corrupt token file if need be (only
    /// a login may). Ends an expired state; any refresh that started before is disregarded.
    ///
    /// The token store is checked first: when its folder or file is unsafe (group- or
    /// world-accessible, another user's, a symbolic link…), nothing is sent. When the new pair
    /// cannot be saved after all, the server is asked to end that session again (best effort),
    /// so no live session is left behind that nobody holds.
    ///
    /// Accounts are kept side by side: other accounts stored for this server stay logged in.
    /// One session per user: a pair this user held before is replaced, and the server is asked to
    /// end that older session after the new pair is saved (best effort; a failure there does not
    /// undo the login, it is logged).
    ///
    /// - Parameters:
    ///   - email: the account's email.
    ///   - password: the password; it is sent once and never kept, logged or shown.
    /// - Returns: the user the server logged in.
    /// - Throws: ``CardAPIError/server(_:)`` (E02 wrong email or password, E10 too many
    ///   attempts…), a network error, or ``CardAPIError/tokenStore(_:)`` when the tokens cannot
    ///   be kept (before sending anything when the store is unsafe; the login then does not count).
    @discardableResult
    public func login(email: String, password: String) async throws(CardAPIError) -> User {
        do throws(TokenStoreError) {
            try tokenStore.checkSafety()
        } catch {
            throw .tokenStore(error)
        }
        let target = AuthService(
            server: exchange.server, endpoint: .login(LoginRequest(email: email, password: password)),
            timeout: policy.authTimeout)
        let response: Response
        do {
            response = try await exchange.auth.request(target)
        } catch {
            throw exchange.judge.error(from: error, secrets: [password])
        }
        let grant = try exchange.judge.grant(from: response)
        let item = TokenItem(
            server: serverKey, account: grant.user.email, accessToken: grant.accessToken,
            accessTokenExpiresAt: grant.accessTokenExpiresAt, refreshToken: grant.refreshToken,
            refreshTokenExpiresAt: grant.refreshTokenExpiresAt, userID: grant.user.id, displayName: grant.user.name,
            accessTokenIssuedAt: wallClock.now)
        let replaced = try? tokenStore.read(server: serverKey, account: item.account)
        do {
            try await tokenStore.save(item, replacingCorrupt: true)
        } catch {
            await endUnsavedSession(grant)
            throw ResponseJudge.error(from: error)
        }
        begin(item)
        if let replaced, replaced.refreshToken != item.refreshToken { await endReplacedSession(replaced) }
        return grant.user
    }

    /// Asks the server to end the session a new login of the same user replaced (best effort).
    private func endReplacedSession(_ replaced: TokenItem) async {
        let target = AuthService(
            server: exchange.server,
            endpoint: .logout(accessToken: replaced.accessToken, refreshToken: replaced.refreshToken),
            timeout: policy.authTimeout)
        do {
            _ = try await exchange.auth.request(target)
        } catch {
            logger.notice(
                "The server could not be told to end the session this login replaced",
                metadata: ["problem": "\(exchange.judge.error(from: error))"])
        }
    }

    /// Asks the server to end a session whose tokens could not be saved (best effort: the
    /// caller gets the store's error either way).
    private func endUnsavedSession(_ grant: TokenGrant) async {
        let target = AuthService(
            server: exchange.server,
            endpoint: .logout(accessToken: grant.accessToken, refreshToken: grant.refreshToken),
            timeout: policy.authTimeout)
        do {
            _ = try await exchange.auth.request(target)
            logger.notice("The new tokens could not be saved; the server ended that session again")
        } catch {
            logger.warning(
                "The new tokens could not be saved, and the server could not be told to end that session",
                metadata: ["problem": "\(exchange.judge.error(from: error))"])
        }
    }

    /// Who is logged in where, until when, and how the tokens are stored; read from the store
    /// now (another process may have changed it). Never shows a token.
    public func status() -> SessionStatusReport {
        var report = SessionStatusReport(server: serverKey, state: state, storage: tokenStore.storageSummary())
        if case .expired = phase { return report }
        switch Self.storedItem(in: tokenStore, server: serverKey, account: preferredAccount) {
        case .success(let item?):
            report.account = Self.account(of: item)
            report.accessTokenExpiresAt = item.accessTokenExpiresAt
            report.refreshTokenExpiresAt = item.refreshTokenExpiresAt
            report.state = .loggedIn(Self.account(of: item))
        case .success(nil):
            report.state = .loggedOut(server: serverKey)
        case .failure(let error):
            report.problem = error.description
            report.state = .loggedOut(server: serverKey)
        }
        return report
    }
}
