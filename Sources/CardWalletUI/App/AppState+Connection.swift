import CardModels
import Foundation

extension AppState {
    /// What the answer to a list load says about the server: reachable (back online, when it
    /// was not), or not (offline from the cache, with the next try scheduled).
    mutating func connectionAnswered(_ outcome: CallOutcome) -> [Effect] {
        switch outcome {
        case .success(.cachedCards(_, let asOf)):
            wentOffline(asOf: asOf, "Server unreachable: working from the cache; retrying")
        case .success(.offlineNothingCached):
            wentOffline(
                asOf: nil, "Server unreachable, and no cards are cached for this account yet; retrying")
        case .success(.cards(let page)) where page.offset == 0:
            if connection.isOffline {
                let sent = offlineChanges.count
                showMessage(
                    .success,
                    "Back online"
                        + (sent > 0 ? ": the changes made offline were sent" : ": the cards are the server's again"))
            }
            // The glue sends the outbox before it reads the list: what the server answered has them.
            offlineChanges = OfflineChanges()
            connection = .online
        default:
            break
        }
        return []
    }

    /// The server could not be reached: the next try is scheduled with backoff; `text` is said
    /// the first time.
    private mutating func wentOffline(asOf: Date?, _ text: String) {
        let delay: Duration? = if case .offline(_, _, let delay) = connection { delay } else { nil }
        let next = Connection.backoff(after: delay)
        if !connection.isOffline { showMessage(.warning, text) }
        connection = .offline(asOf: asOf, retryAt: now + next, delay: next)
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

/// The changes made while the server could not be reached, waiting in the cache's outbox.
public struct OfflineChanges: Equatable, Sendable {
    /// How many.
    public private(set) var count = 0
    /// The cards they touch (added, edited), marked as pending in the list.
    public private(set) var cardIDs: Set<String> = []

    /// None.
    public init() {}

    /// One more: `call`, shown meanwhile as `shown`.
    mutating func note(_ call: AppCall, _ shown: CallResult) {
        count += 1
        if case .card(let card) = shown { cardIDs.insert(card.id) }
        if let id = call.cardID { cardIDs.insert(id) }
    }
}
