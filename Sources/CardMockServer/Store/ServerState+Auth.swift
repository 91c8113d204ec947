import CardModels
import Foundation
import Logging

extension ServerState {
    /// Checks an email and password and starts a session (E02 on failure, E10 past the limit).
    func login(email: String, password: String, client: String) async throws(APIError) -> TokenGrant {
        // Attempts in flight count as possible failures, so parallel guesses cannot slip past
        // the limit; attempts that would only reach it because of those wait for them rather
        // than fail, so parallel logins with the right password are never refused.
        if let wait = await beginLoginAttempt(client: client, email: email) {
            logger.notice("Login refused: too many failures", metadata: ["client": "\(client)"])
            throw .tooManyRequests("Too many failed logins for this account from your address.", retryAfter: wait)
        }
        let (userID, hash) = passwordHash(forEmail: email)
        let matches = await PasswordHasher.verify(password, hash: hash)
        guard matches, let userID, let user = user(id: userID) else {
            finishLoginAttempt(client: client, email: email, succeeded: false)
            throw .loginFailed
        }
        finishLoginAttempt(client: client, email: email, succeeded: true)
        let now = clock.now
        let lifetimes = lifetimes
        let pair = try mutate { (data) throws(APIError) in
            data.tokens.login(userID: userID, now: now, lifetimes: lifetimes)
        }
        return grant(pair, user: user)
    }

    /// Rotates a refresh token (E06 when it is expired, revoked, reused or unknown).
    func refresh(token: String, client: String) throws(APIError) -> TokenGrant {
        if let wait = refreshRetryAfter(client: client) {
            throw .tooManyRequests("Too many token refreshes from your address.", retryAfter: wait)
        }
        let now = clock.now
        let lifetimes = lifetimes
        let result = try mutate { (data) throws(APIError) in data.tokens.refresh(token, now: now, lifetimes: lifetimes)
        }
        switch result {
        case .success(let pair):
            guard let user = user(id: pair.userID) else { throw .refreshRejected("The account no longer exists.") }
            return grant(pair, user: user)
        case .failure(let failure):
            if failure == .reused {
                logger.warning("Refresh token reuse: the session is revoked", metadata: ["client": "\(client)"])
            }
            throw .refreshRejected(Self.message(for: failure))
        }
    }

    /// Ends the session of the presented tokens.
    func logout(accessToken: String?, refreshToken: String?) throws(APIError) {
        let ended = try mutate { (data) throws(APIError) in
            data.tokens.logout(accessToken: accessToken, refreshToken: refreshToken)
        }
        guard ended else { throw .accessTokenInvalid("No session matches the presented token.") }
    }

    /// The user id of a valid access token (E03 / E04).
    func authenticate(accessToken: String) throws(APIError) -> String {
        switch snapshot.tokens.authenticate(accessToken, now: clock.now) {
        case .success(let userID): return userID
        case .failure(.expired): throw .accessTokenExpired
        case .failure(.invalid): throw .accessTokenInvalid("The access token is not valid; refresh it or log in.")
        }
    }

    /// Admin: expires every access token of the user with `email`.
    /// - Returns: how many were expired, or `nil` when there is no such user.
    func expireAccessTokens(email: String) throws(APIError) -> Int? {
        guard let userID = userID(forEmail: email) else { return nil }
        let now = clock.now
        return try mutate { (data) throws(APIError) in data.tokens.expireAccessTokens(userID: userID, now: now) }
    }

    /// Admin: revokes every refresh token of the user with `email`.
    /// - Returns: how many were revoked, or `nil` when there is no such user.
    func revokeRefreshTokens(email: String) throws(APIError) -> Int? {
        guard let userID = userID(forEmail: email) else { return nil }
        return try mutate { (data) throws(APIError) in data.tokens.revokeRefreshTokens(userID: userID) }
    }

    private func grant(_ pair: TokenBook.IssuedPair, user: UserRecord) -> TokenGrant {
        TokenGrant(
            accessToken: pair.accessToken, refreshToken: pair.refreshToken,
            accessTokenExpiresAt: pair.accessTokenExpiresAt, refreshTokenExpiresAt: pair.refreshTokenExpiresAt,
            user: user.user)
    }

    private static func message(for failure: TokenBook.RefreshFailure) -> String {
        switch failure {
        case .unknown: "The refresh token is not valid. Log in again."
        case .expired: "The refresh token has expired. Log in again."
        case .revoked: "The session was ended. Log in again."
        case .reused:
            "This refresh token was already used, so the session was ended for safety. Log in again."
        }
    }
}
