import CardBackend
import CardCache
import CardModels
public import CardWalletUI
import Foundation
import Synchronization

/// What one background sync found.
public enum SyncOutcome: Sendable, Equatable {
    /// Nobody is logged in (or there is no cache): nothing was asked.
    case skipped
    /// Every book answered; nothing changed.
    case unchanged
    /// Every book answered; the list changed (the interface was handed the new one).
    case changed
    /// A server could not be reached (why).
    case offline(String)
    /// A server asked to slow down (after how many seconds, when it said).
    case rateLimited(Int?)
}

/// The interface's live sync (issue 40): while the wallet is open, every `syncInterval` seconds
/// each book it shows — the account's book, or every book in the All view — is synced in the
/// background (the changes made offline sent first), a book on a server that syncs by token
/// costing one request when nothing changed. When a list changed, the interface gets the new
/// one as ``CardWalletUI/AppAction/synced(_:)`` and replaces its list in place, the cursor
/// kept; nothing else on screen changes (a form being edited meets a changed card as a conflict
/// when it is saved, as always). Offline or rate-limited, it waits longer each time — twice the
/// interval, then four times… up to 15 minutes, or the server's `Retry-After` — and says so in
/// the log pane; back online, it says that too and goes back to the interval.
public final class BackgroundSync: Sendable {
    /// The longest wait between two tries after failures.
    public static let longestWait: Duration = .seconds(15 * 60)

    private let performer: CallPerformer
    private let interval: Duration
    private let clock: any Clock<Duration>
    private let deliver: @Sendable (AppAction) -> Void
    private let note: @Sendable (String, Bool) -> Void
    private let task = Mutex<Task<Void, Never>?>(nil)
    /// The list last handed to the interface, and for which view (``BookViews/generation``).
    private let shown = Mutex<(generation: Int, cards: [CardSummary])?>(nil)

    /// A sync of `performer`'s books every `interval`.
    ///
    /// - Parameters:
    ///   - performer: the interface's performer (its accounts, books and views).
    ///   - interval: the time between two syncs.
    ///   - clock: what the waits run on.
    ///   - deliver: hands an action to the interface's main loop (its inbox).
    ///   - note: writes a line in the log pane (`true`: a failure).
    public init(
        performer: CallPerformer, interval: Duration, clock: any Clock<Duration> = ContinuousClock(),
        deliver: @escaping @Sendable (AppAction) -> Void, note: @escaping @Sendable (String, Bool) -> Void
    ) {
        self.performer = performer
        self.interval = interval
        self.clock = clock
        self.deliver = deliver
        self.note = note
    }

    /// Starts syncing, one interval from now.
    public func start() {
        task.withLock { task in
            task?.cancel()
            task = Task { [self] in await run() }
        }
    }

    /// Stops syncing (a sync under way is cancelled).
    public func stop() {
        task.withLock { task in
            task?.cancel()
            task = nil
        }
    }

    /// The wait before the next try after `failures` failed ones in a row.
    func wait(after failures: Int, retryAfter: Int? = nil) -> Duration {
        var wait = interval
        for _ in 0..<min(failures, 16) where wait < Self.longestWait { wait *= 2 }
        wait = min(wait, max(interval, Self.longestWait))
        if let retryAfter { wait = max(wait, .seconds(retryAfter)) }
        return wait
    }

    private func run() async {
        var failures = 0
        var next = interval
        while !Task.isCancelled {
            do { try await clock.sleep(for: next) } catch { return }
            switch await syncOnce() {
            case .skipped:
                next = interval
            case .unchanged, .changed:
                if failures > 0 { note("sync: the servers answer again; syncing every \(Self.text(interval))", false) }
                failures = 0
                next = interval
            case .offline(let why):
                failures += 1
                next = wait(after: failures)
                note("sync: \(why); trying again in \(Self.text(next))", true)
            case .rateLimited(let after):
                failures += 1
                next = wait(after: failures, retryAfter: after)
                note("sync: the server asks to slow down (too many requests); trying again in \(Self.text(next))", true)
            }
        }
    }

    /// Syncs the books shown once, now; hands the interface the new list when it changed.
    public func syncOnce() async -> SyncOutcome {
        let views = performer.views
        let shelf = performer.shelf
        let generation = views.generation
        var targets: [(book: WalletBook?, wallet: CachedWallet)] = []
        if views.showsAll {
            var books = shelf.knownBooks
            if books.isEmpty { books = await shelf.books() }
            for book in books {
                if let wallet = try? await shelf.wallet(for: book) { targets.append((book, wallet)) }
            }
        } else if performer.accounts.backend.sessionState.account != nil,
            let wallet = await performer.accounts.cachedWallet()
        {
            targets.append((nil, wallet))
        }
        guard !targets.isEmpty else { return .skipped }
        let outbox = performer.outbox
        let results = await withTaskGroup(of: (Int, Result<Bool, any Error>).self) { group in
            for (index, target) in targets.enumerated() {
                group.addTask {
                    let wallet = target.wallet
                    if let waiting = try? wallet.cache?.pendingChanges(), !waiting.isEmpty {
                        _ = await CachedWallet.$transferPeers.withValue(shelf) { await outbox.send(wallet) }
                    }
                    let before = wallet.cachedList()?.cards
                    do {
                        _ = try await wallet.serverList()
                    } catch {
                        return (index, .failure(error))
                    }
                    return (index, .success(wallet.cachedList()?.cards != before))
                }
            }
            var results: [(Int, Result<Bool, any Error>)] = []
            for await result in group { results.append(result) }
            return results.sorted { $0.0 < $1.0 }.map(\.1)
        }
        var changed = false
        var failure: (any Error)?
        for result in results {
            switch result {
            case .success(let didChange): changed = changed || didChange
            case .failure(let error): failure = failure ?? error
            }
        }
        // Compared with what the interface was last handed, not only with the cache before this
        // sync: another process on this machine (a `cardwallet add`) writes to the same cache.
        if views.generation == generation {
            let current: [CardSummary]?
            if views.showsAll {
                current = shelf.merged(await shelf.cachedListings(books: targets.compactMap(\.book)))
            } else {
                current = targets[0].wallet.cachedListWithPendingChanges()?.cards
            }
            let known =
                shown.withLock { $0?.generation == generation ? $0?.cards : nil }
                ?? (views.showsAll ? views.kept : nil)
            if let current, changed || current != known {
                if views.showsAll { views.keep(current) }
                shown.withLock { $0 = (generation, current) }
                deliver(
                    .synced(CardPage(cards: current, total: current.count, offset: 0, limit: max(1, current.count))))
            }
        }
        if let failure {
            if case .rateLimited(let after) = BackendFailures.kind(of: failure) { return .rateLimited(after) }
            if BackendFailures.isNetworkFailure(failure) { return .offline(CachedWallet.text(failure)) }
            if changed { return .changed }
            return .offline(CachedWallet.text(failure))
        }
        return changed ? .changed : .unchanged
    }

    /// `1 min`, `30 s`, `2 min 30 s`.
    static func text(_ duration: Duration) -> String {
        let seconds = Int(duration.components.seconds)
        if seconds < 60 { return "\(seconds) s" }
        return seconds % 60 == 0 ? "\(seconds / 60) min" : "\(seconds / 60) min \(seconds % 60) s"
    }
}
