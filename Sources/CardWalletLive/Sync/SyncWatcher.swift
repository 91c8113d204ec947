import CardBackend
import CardCache
import CardModels
import CardWalletUI
import Foundation

/// `cardwallet sync --watch`: the background sync of the interface, for scripts — every book
/// shown synced every interval (the changes made offline sent first), a line for each book
/// that changed, waiting longer each time a server cannot be reached or asks to slow down.
public struct SyncWatcher: Sendable {
    let shelf: Bookshelf
    let allBooks: Bool
    let interval: Duration
    let clock: any Clock<Duration>

    /// A watcher of every book (`allBooks`) or the one in use.
    public init(shelf: Bookshelf, allBooks: Bool, interval: Duration, clock: any Clock<Duration> = ContinuousClock()) {
        self.shelf = shelf
        self.allBooks = allBooks
        self.interval = interval
        self.clock = clock
    }

    /// Syncs until the task is cancelled (or `rounds` are done): `changed` gets a line per book
    /// that changed (`14:02:07 work: 1 added, 2 changed, 0 removed`), `problem` a line per
    /// failure with the wait before the next try.
    public func run(
        rounds: Int? = nil, _ changed: @Sendable (String) -> Void, problem: @Sendable (String) -> Void
    ) async throws {
        var failures = 0
        var done = 0
        var next = Duration.zero
        // Each book's list as this watcher last saw it: the cache alone cannot say what changed,
        // since another process (the wallet open, a command) may have synced it meanwhile.
        var seen: [String: [CardSummary]] = [:]
        while !Task.isCancelled {
            if let rounds, done >= rounds { return }
            if next > .zero { try await clock.sleep(for: next) }
            done += 1
            let books = allBooks ? await shelf.books() : await currentBook()
            var failure: (any Error)?
            for book in books {
                guard let wallet = try? await shelf.wallet(for: book) else { continue }
                if let waiting = try? wallet.cache?.pendingChanges(), !waiting.isEmpty {
                    _ = await CachedWallet.$transferPeers.withValue(shelf) { await wallet.replayOutbox() }
                }
                let before = seen[book.key] ?? wallet.cachedList()?.cards ?? []
                do {
                    _ = try await wallet.serverList()
                } catch {
                    failure = failure ?? error
                    continue
                }
                let after = wallet.cachedList()?.cards ?? []
                seen[book.key] = after
                if let line = Self.changes(before, after, book: book.label) { changed(line) }
            }
            if let failure {
                failures += 1
                var wait = interval
                for _ in 0..<min(failures, 16) where wait < BackgroundSync.longestWait { wait *= 2 }
                wait = min(wait, max(interval, BackgroundSync.longestWait))
                if case .rateLimited(let after?) = BackendFailures.kind(of: failure) {
                    wait = max(wait, .seconds(after))
                }
                problem("\(CachedWallet.text(failure)); trying again in \(BackgroundSync.text(wait))")
                next = wait
            } else {
                if failures > 0 { problem("the servers answer again") }
                failures = 0
                next = interval
            }
        }
    }

    private func currentBook() async -> [WalletBook] {
        let books = await shelf.books()
        return await shelf.currentBook(among: books).map { [$0] } ?? []
    }

    /// `14:02:07 work: 1 added, 2 changed, 0 removed`, or `nil` when nothing changed.
    static func changes(_ before: [CardSummary], _ after: [CardSummary], book: String, at date: Date = Date())
        -> String?
    {
        let old = Dictionary(before.map { ($0.id, $0.revision) }, uniquingKeysWith: { first, _ in first })
        let new = Dictionary(after.map { ($0.id, $0.revision) }, uniquingKeysWith: { first, _ in first })
        let added = new.keys.filter { old[$0] == nil }.count
        let removed = old.keys.filter { new[$0] == nil }.count
        let changed = new.filter { id, revision in old[id].map { $0 != revision } ?? false }.count
        guard added + removed + changed > 0 else { return nil }
        let time = Connection.clock(date, TimeZone.current.secondsFromGMT(for: date))
        return "\(time) \(TerminalText.escaped(book)): \(added) added, \(changed) changed, \(removed) removed"
    }
}
