import CardBackend
import Foundation
import Synchronization
import TokenStore

/// The tokens requests carry: the hot path without the actor, the slow path through it, and the
/// recovery after the server rejected one.
extension TokenSession {
    /// The access token a request is to carry, and the save it depends on while that runs.
    struct CurrentToken: Sendable {
        let accessToken: String
        /// The save of the pair `accessToken` belongs to, if it is still running (or ran for the
        /// refresh the request waited for): see ``PendingSave``.
        let save: PendingSave<Failure>?
    }

    /// The access token to send now: cached, refreshed first if it expires within the margin,
    /// or the result of the refresh in flight — with the save of its pair if that still runs.
    ///
    /// - Throws: the failure's `sessionExpired` (fast, no network) after the session ended,
    ///   `notLoggedIn`, or the refresh's error.
    func accessToken() async throws(Failure) -> CurrentToken {
        if flight == nil, case .active(let tokens) = phase, !isExpiring(tokens) { return current(tokens) }
        return try await slowAccessToken()
    }

    /// The cached access token if it is outside the refresh margin and no refresh is in flight,
    /// read without entering the actor; `nil` sends the caller to ``accessToken()``.
    nonisolated func cachedAccessToken() -> CurrentToken? {
        guard let path = fastPath.withLock({ $0 }), wallClock.now < path.refreshAfter else { return nil }
        return CurrentToken(accessToken: path.accessToken, save: path.save)
    }

    /// The access token to send now, for callers outside the interceptor (a request made by hand,
    /// a benchmark): as a request gets it, without waiting for the save of a pair just refreshed.
    public func currentAccessToken() async throws(Failure) -> String {
        if let cached = cachedAccessToken() { return cached.accessToken }
        return try await accessToken().accessToken
    }

    private func slowAccessToken() async throws(Failure) -> CurrentToken {
        if case .expired(let account) = phase { throw .sessionExpired(server: serverKey, account: account?.email) }
        if let flight { return Self.current(try await flight.wait()) }
        let tokens: TokenItem
        if case .active(let held) = phase { tokens = held } else { tokens = try loadStoredTokens() }
        guard isExpiring(tokens) else { return current(tokens) }
        return Self.current(try await refreshed(because: .expiring))
    }

    /// `tokens`' access token, with the save of its pair if that is still running.
    private func current(_ tokens: TokenItem) -> CurrentToken {
        CurrentToken(accessToken: tokens.accessToken, save: pendingSave(of: tokens))
    }

    private static func current(_ refreshed: Refreshed<Failure>) -> CurrentToken {
        CurrentToken(accessToken: refreshed.item.accessToken, save: refreshed.save)
    }

    /// The running save of `tokens`' pair, if any.
    func pendingSave(of tokens: TokenItem) -> PendingSave<Failure>? {
        guard let pendingSave, pendingSave.accessToken == tokens.accessToken else { return nil }
        return pendingSave
    }

    /// What the server rejected, from a request's `Authorization` header.
    enum Rejection: Sendable {
        /// The access token was rejected (the card API's E03/E04, `invalid_token`).
        case accessToken(String?)
        /// The session was ended on a normal call made with this access token (E06).
        case session(String?)
    }

    /// Gets the session ready for a retry after the server rejected a request: waits for the
    /// refresh in flight, returns at once if the rejected token was already replaced, or
    /// refreshes (a rejected access token) or ends the session (a rejected session).
    ///
    /// - Returns: the save of the refreshed pair when the refresh waited for got one (the retry
    ///   depends on it, see ``PendingSave``); `nil` otherwise.
    /// - Throws: the failure's `sessionExpired` and the refresh's errors.
    @discardableResult
    func recover(from rejection: Rejection) async throws(Failure) -> PendingSave<Failure>? {
        if let flight { return try await flight.wait().save }
        switch phase {
        case .expired(let account):
            throw .sessionExpired(server: serverKey, account: account?.email)
        case .unloaded, .loggedOut:
            throw .notLoggedIn(server: serverKey, account: preferredAccount)
        case .active(let tokens):
            switch rejection {
            case .accessToken(let sent):
                guard tokens.accessToken == sent else { return nil }  // replaced meanwhile: retry with it
                return try await refreshed(because: .accessRejected(tokens.accessToken)).save
            case .session(let sent):
                guard tokens.accessToken == sent else { return nil }
                return try await refreshed(because: .sessionRejected(tokens.accessToken)).save
            }
        }
    }
}
