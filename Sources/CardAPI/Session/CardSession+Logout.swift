import CardAPIContract
import CardBackend
import CardModels
import Foundation
import Logging
import Networking
import SessionCore
import TokenStore

extension TokenSession where Exchange == CardTokenExchange {
    /// Logs out: tells the server to end the session (best effort) and deletes the stored
    /// tokens of this account, under the store's lock so the pair sent is the latest.
    ///
    /// - Returns: what was done; ``LogoutResult/serverProblem`` says why the server could not
    ///   be told, if it could not.
    /// - Throws: ``CardAPIError/tokenStore(_:)`` when the token store cannot be read (corrupt or
    ///   unsafe: it is left as it is) or the stored tokens cannot be deleted, and
    ///   ``CardAPIError/multipleAccounts(server:accounts:)`` when no account was chosen and
    ///   several are stored for the server.
    @discardableResult
    public func logout() async throws(CardAPIError) -> LogoutResult {
        var held: TokenItem?
        switch phase {
        case .active(let tokens): held = tokens
        case .expired(let account): preferredAccount = account?.email ?? preferredAccount
        case .unloaded, .loggedOut:
            // An unreadable or unsafe store is reported, not taken for "nobody logged in": the
            // tokens in it would otherwise stay behind while the caller believes them gone.
            held = try Self.storedItem(in: tokenStore, server: serverKey, account: preferredAccount).get()
        }
        let account = held?.account ?? preferredAccount
        end()
        guard let account else { return LogoutResult(account: nil, serverRevoked: false, serverProblem: nil) }
        return try await endStoredSession(of: account, held: held)
    }

    /// Under the store's lock: asks the server to end `account`'s session with the stored pair
    /// (or `held` when none is stored; best effort), then deletes the stored tokens.
    ///
    /// - Throws: ``CardAPIError/tokenStore(_:)`` when the lock cannot be taken or the tokens
    ///   cannot be deleted.
    private func endStoredSession(of account: String, held: TokenItem?) async throws(CardAPIError) -> LogoutResult {
        do {
            return try await tokenStore.withExclusiveAccess { file in
                let stored = try? file.read(server: self.serverKey, account: account)
                var result = LogoutResult(account: account, serverRevoked: false, serverProblem: nil)
                if let tokens = stored ?? held {
                    let target = AuthService(
                        server: self.exchange.server,
                        endpoint: .logout(accessToken: tokens.accessToken, refreshToken: tokens.refreshToken),
                        timeout: self.policy.authTimeout)
                    do throws(NetworkError) {
                        _ = try await self.exchange.auth.request(target)
                        result.serverRevoked = true
                    } catch {
                        result.serverProblem = self.exchange.judge.error(from: error)
                    }
                }
                _ = try file.delete(server: self.serverKey, account: account)
                self.logger.info("Logged out", metadata: ["server": "\(self.serverKey)", "account": "\(account)"])
                return result
            }
        } catch {
            throw ResponseJudge.error(from: error)
        }
    }
}
