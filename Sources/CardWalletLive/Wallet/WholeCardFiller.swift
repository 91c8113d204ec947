import CardBackend
import CardCache
import CardModels
import Foundation
import Logging
import Synchronization

/// Reads, in the background, the whole cards the cache lacks (or holds an older version of)
/// once the interface has the wallet's list, so that export, QR and the search over every field
/// work offline on every card (docs/Cache.md, "In the TUI").
///
/// Behind the person's own calls: one batched read of ``batch`` cards at a time, each started only
/// while none of the interface's calls is in flight (``userCallStarted()`` /
/// ``userCallEnded()``); a new list replaces the fill under way; a network failure ends it (the
/// next list starts again where the cache stands). It never delays the first frame: it starts
/// after the whole list has been stored.
public final class WholeCardFiller: Sendable {
    /// Cards read before they are stored (a fill cut short keeps what it read).
    static let batch = 16

    private struct Quiet {
        var busy = 0
        var waiters: [CheckedContinuation<Void, Never>] = []
    }

    private let logger: Logger
    private let quiet = Mutex(Quiet())
    private let current = Mutex<Task<Void, Never>?>(nil)

    init(logger: Logger) {
        self.logger = logger
    }

    /// One of the interface's calls starts: reads not yet started wait for it.
    public func userCallStarted() {
        quiet.withLock { $0.busy += 1 }
    }

    /// One of the interface's calls ended: when none is left, waiting reads go on.
    public func userCallEnded() {
        let waiters = quiet.withLock { quiet -> [CheckedContinuation<Void, Never>] in
            quiet.busy = max(0, quiet.busy - 1)
            guard quiet.busy == 0 else { return [] }
            defer { quiet.waiters = [] }
            return quiet.waiters
        }
        for waiter in waiters { waiter.resume() }
    }

    /// Waits until none of the interface's calls is in flight.
    private func waitForQuiet() async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let now = quiet.withLock { quiet -> Bool in
                if quiet.busy == 0 { return true }
                quiet.waiters.append(continuation)
                return false
            }
            if now { continuation.resume() }
        }
    }

    /// Starts filling the whole cards of `cards` that `wallet`'s cache lacks, replacing a fill under way.
    func fill(_ cards: [CardSummary], in wallet: CachedWallet) {
        let task = Task(priority: .background) { [self] in await run(cards, wallet) }
        current.withLock { running in
            running?.cancel()
            running = task
        }
    }

    /// Waits for the fill under way, if any (tests, `cardwallet sync`).
    public func settle() async {
        await current.withLock { $0 }?.value
    }

    private func run(_ cards: [CardSummary], _ wallet: CachedWallet) async {
        guard let cache = wallet.cache else { return }
        // The cards a first sync stored without indexing them, a few hundred at a time, so the
        // first search finds them indexed already.
        while wallet.attempt({ try cache.hasBacklog() }) == true {
            await waitForQuiet()
            if Task.isCancelled || (wallet.attempt { try cache.indexSomeOfBacklog() } ?? 0) == 0 { break }
        }
        let missing = wallet.lackingWholeCards(cards, cache)
        guard !missing.isEmpty else { return }
        var filled = 0
        for start in stride(from: 0, to: missing.count, by: Self.batch) {
            let ids = Array(missing[start..<min(start + Self.batch, missing.count)])
            let read: [Card]
            do {
                read = try await readQuietly(ids, wallet.backend)
            } catch {
                if !Task.isCancelled { logger.debug("Whole cards: stopped after \(filled): \(error)") }
                return
            }
            if Task.isCancelled { return }
            wallet.attempt { try cache.storeCards(read, confirmedAt: Date()) }
            filled += read.count
        }
        logger.debug("Whole cards: \(filled) read into the cache")
    }

    /// The cards with `ids` (those gone meanwhile left out) in one call of the backend's batched
    /// reader (one `GET /cards/whole`, one multiget), started when the interface has no call in
    /// flight.
    private func readQuietly(_ ids: [String], _ backend: any CardBackend) async throws -> [Card] {
        try Task.checkCancellation()
        await waitForQuiet()
        return try await backend.cards(ids: ids, progress: nil)
    }
}
