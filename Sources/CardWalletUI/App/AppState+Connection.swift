import CardModels
import Foundation

extension AppState {
    /// What the answer to a list load says about the server: reachable (back online, when it
    /// was not), or not (offline from the cache, with the next try scheduled).
    mutating func connectionAnswered(_ outcome: APIOutcome) -> [Effect] {
        switch outcome {
        case .success(.cachedCards(_, let asOf)):
            let delay: Duration? = if case .offline(_, _, let delay) = connection { delay } else { nil }
            let next = Connection.backoff(after: delay)
            if !connection.isOffline {
                showMessage(.warning, "Server unreachable: working from the cache; retrying")
            }
            connection = .offline(asOf: asOf, retryAt: now + next, delay: next)
        case .success(.cards(let page)) where page.offset == 0:
            if connection.isOffline { showMessage(.success, "Back online: the cards are the server's again") }
            connection = .online
        default:
            break
        }
        return []
    }

    /// The cache's wallet for the first frame (a restored session): on the list while the
    /// server's first page is on its way.
    mutating func showCachedWallet(_ page: CardPage, asOf: Date) -> [Effect] {
        guard screen == .list, list.showCached(page) else { return [] }
        connection = .cached(asOf: asOf)
        return []
    }

    /// Offline, once the wait is over and no list load is in flight: asks the server again
    /// (the list's reload, which keeps the cached cards on screen until it answers).
    mutating func retryIfDue() -> [Effect] {
        guard case .offline(let asOf, let retryAt, let delay) = connection, now >= retryAt, screen != .login,
            !list.isLoadingPage
        else { return [] }
        // Not again until this try has answered (its answer schedules the next one).
        connection = .offline(asOf: asOf, retryAt: .seconds(Int64.max / 2), delay: delay)
        return reduceList(.reload)
    }
}
