import CardBackend
import Foundation
import Logging
import TokenStore

extension TokenSession {
    /// Why a refresh was started.
    enum RefreshTrigger: Sendable {
        /// The held access token expires within the margin.
        case expiring
        /// The server rejected this access token (the card API's E03/E04, `invalid_token`).
        case accessRejected(String)
        /// The server ended the session on a call made with this access token (E06).
        case sessionRejected(String)
    }

    /// The refreshed tokens: joins the refresh in flight, or starts the one and only.
    ///
    /// The refresh runs in an unstructured task, so cancelling a waiter cancels neither the
    /// refresh nor the other waiters. It is detached so it never inherits a caller's task-local
    /// lock on the token store. Waiters get the new pair as soon as the server's answer is
    /// parsed, with the ``PendingSave`` that writes it to the file meanwhile.
    func refreshed(because trigger: RefreshTrigger) async throws(Failure) -> Refreshed<Failure> {
        if let flight { return try await flight.wait() }
        guard case .active(let held) = phase else {
            if case .expired(let account) = phase { throw .sessionExpired(server: serverKey, account: account?.email) }
            throw .notLoggedIn(server: serverKey, account: preferredAccount)
        }
        let flight = RefreshFlight<Failure>()
        self.flight = flight
        flightsStarted += 1
        let generation = self.generation
        Task.detached { [self] in
            let result = await self.runRefresh(held: held, trigger: trigger, generation: generation, flight: flight)
            await self.land(flight, with: result)
        }
        return try await flight.wait()
    }

    /// Ends `flight` (if it has not ended yet): its waiters go on with `result`.
    private func land(_ flight: RefreshFlight<Failure>, with result: Result<Refreshed<Failure>, Failure>) {
        if self.flight === flight { self.flight = nil }
        flight.finish(result)
    }

    /// Refreshes under the token store's exclusive lock, shared with every other process.
    private func runRefresh(
        held: TokenItem, trigger: RefreshTrigger, generation: Int, flight: RefreshFlight<Failure>
    ) async -> Result<Refreshed<Failure>, Failure> {
        do {
            let refreshed = try await tokenStore.withExclusiveAccess { file in
                try await self.refreshLocked(file, held: held, trigger: trigger, generation: generation, flight: flight)
            }
            return .success(refreshed)
        } catch {
            return .failure(Failure.converting(error))
        }
    }

    /// The refresh decision, with the lock held: re-read the stored pair, adopt it if another
    /// process already refreshed, else call the server and save the new pair (see
    /// ``refreshOnTheWire(_:file:generation:flight:)``).
    private func refreshLocked(
        _ file: LockedTokenFile, held: TokenItem, trigger: RefreshTrigger, generation: Int,
        flight: RefreshFlight<Failure>
    ) async throws(Failure) -> Refreshed<Failure> {
        guard generation == self.generation else {  // login/logout/expiry meanwhile
            return Refreshed(item: try currentTokens(), save: nil)
        }
        let stored: TokenItem?
        do throws(TokenStoreError) {
            stored = try file.read(server: serverKey, account: held.account)
        } catch {
            throw .tokenStore(error)
        }
        guard let stored else {
            // Another process logged out, or wiped the tokens after its own session ended.
            expire(held)
            throw .sessionExpired(server: serverKey, account: held.account)
        }
        var current = held
        var adopted = false
        if !Self.samePair(stored, held) {
            current = stored
            adopted = true
            adopt(stored)
        }
        let unchanged = Refreshed<Failure>(item: current, save: nil)
        switch trigger {
        case .expiring:
            // No longer due (another process refreshed it a moment ago): use it. A pair another
            // process stored is used even when due unless it has actually expired, as one stored
            // by an older cardwallet has no lifetime and so gets the long margin.
            if !isExpiring(current) || (adopted && !isExpired(current)) { return unchanged }
        case .accessRejected(let rejected):
            if current.accessToken != rejected { return unchanged }
        case .sessionRejected(let rejected):
            if current.accessToken != rejected { return unchanged }
            wipe(file, ifStillHolding: current)
            expire(current)
            throw .sessionExpired(server: serverKey, account: current.account)
        }
        return try await refreshOnTheWire(current, file: file, generation: generation, flight: flight)
    }

    /// The exchange's refresh, then: the flight ends with the new pair at once (its waiters and
    /// the requests admitted next use the new access token), while the pair is saved to the file
    /// under the same lock on a thread of its own. The ``PendingSave`` handed out with the pair
    /// reports the save's outcome to every request that used the token meanwhile.
    private func refreshOnTheWire(
        _ current: TokenItem, file: LockedTokenFile, generation: Int, flight: RefreshFlight<Failure>
    ) async throws(Failure) -> Refreshed<Failure> {
        try admitRefresh(of: current)
        let account = Self.account(of: current)
        publish(.refreshing(account))
        let item: TokenItem
        do {
            item = try await exchange.refresh(current, in: file, clock: wallClock)
        } catch {
            if exchange.endsSession(error) {
                wipe(file, ifStillHolding: current)
                expire(current)
                throw .sessionExpired(server: serverKey, account: current.account)
            }
            // Transient (network, 5xx, 429) or unexpected: the session stays; the next call may retry.
            if generation == self.generation { publish(.loggedIn(account)) }
            logger.notice("Token refresh failed; the session is kept", metadata: ["server": "\(serverKey)"])
            throw error
        }
        watchRefreshed(item)
        let save = PendingSave<Failure>(accessToken: item.accessToken)
        if generation == self.generation {
            // The server has rotated the pair: the old refresh token is dead, so the new pair is
            // this process's from now on, saved or not. The state stays "refreshing" until it is
            // saved, so a Ctrl-C meanwhile waits for the save (RefreshInterruptGuard).
            pendingSave = save
            phase = .active(item)
        }
        let refreshed = Refreshed(item: item, save: save)
        land(flight, with: .success(refreshed))
        if let hook = beforeSavingRefreshedPair { await hook() }
        let saved = await Self.save(item, in: file)
        if pendingSave === save { pendingSave = nil }
        apply(item, generation: generation)
        switch saved {
        case .success:
            logger.info("Refreshed the tokens", metadata: ["server": "\(serverKey)", "account": "\(item.account)"])
            save.outcome.finish(.success(()))
        case .failure(let error):
            // Kept in memory for this process; every request that used the new token during the
            // save fails with the store's error, so the command reports that other processes
            // will not see the pair.
            logger.error(
                "Refreshed the tokens but could not save them",
                metadata: ["server": "\(serverKey)", "problem": "\(error.description)"])
            save.outcome.finish(.failure(.tokenStore(error)))
        }
        return refreshed
    }

    /// Saves `item` through the held lock on a dispatch thread: the write and its two `fsync`s
    /// block for about a millisecond (far longer while other processes write), and blocking one
    /// of the concurrency pool's threads — two on a two-core machine — would stall every other
    /// task, the requests already sent with the new token among them.
    private nonisolated static func save(
        _ item: TokenItem, in file: LockedTokenFile
    ) async -> Result<Void, TokenStoreError> {
        await withCheckedContinuation { continuation in
            DispatchQueue.global(qos: .userInitiated).async {
                do throws(TokenStoreError) {
                    try file.save(item)
                    continuation.resume(returning: .success(()))
                } catch {
                    continuation.resume(returning: .failure(error))
                }
            }
        }
    }

    private func adopt(_ stored: TokenItem) {
        logger.info(
            "Using tokens another process refreshed",
            metadata: ["server": "\(serverKey)", "account": "\(stored.account)"])
        phase = .active(stored)
        publish(.loggedIn(Self.account(of: stored)))
    }

    private func apply(_ item: TokenItem, generation: Int) {
        guard generation == self.generation else { return }
        phase = .active(item)
        publish(.loggedIn(Self.account(of: item)))
    }

    /// Deletes the stored item if it still holds `rejected`'s pair; a newer pair means someone
    /// logged in again meanwhile, and it is kept.
    private func wipe(_ file: LockedTokenFile, ifStillHolding rejected: TokenItem) {
        do throws(TokenStoreError) {
            if let stored = try file.read(server: serverKey, account: rejected.account),
                Self.samePair(stored, rejected)
            {
                _ = try file.delete(server: serverKey, account: rejected.account)
            }
        } catch {
            logger.error("Could not remove the rejected tokens", metadata: ["problem": "\(error)"])
        }
    }

    private func currentTokens() throws(Failure) -> TokenItem {
        switch phase {
        case .active(let tokens): return tokens
        case .expired(let account): throw .sessionExpired(server: serverKey, account: account?.email)
        case .unloaded, .loggedOut: throw .notLoggedIn(server: serverKey, account: preferredAccount)
        }
    }
}
