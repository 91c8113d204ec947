import CardCache
import CardModels
import CardWalletUI
import Logging
import Synchronization

/// The interface's side of the outbox: sends the changes made offline before the list is read
/// (one replay at a time in this process), and hands the edits the server refused as conflicts
/// to the interface once each.
final class OutboxSender: Sendable {
    private let replaying = Mutex(false)
    /// Outbox entries already handed to the interface as conflicts, or found to need no
    /// choice, in this process: not looked up on the server again.
    private let reported = Mutex<Set<Int64>>([])

    /// Sends the changes waiting in `wallet`'s outbox (made while offline), before the list is
    /// read so that it shows them. Unreachable, they stay for the next try.
    ///
    /// - Returns: the edits made offline that the server refused because their card changed
    ///   meanwhile (this time or at an earlier start), not yet handed to the interface: hand
    ///   them over with ``delivered(_:)``.
    func send(_ wallet: CachedWallet) async -> [OfflineConflict] {
        guard let cache = wallet.cache else { return [] }
        guard
            replaying.withLock({ busy in
                defer { busy = true }
                return !busy
            })
        else { return [] }
        defer { replaying.withLock { $0 = false } }
        if let waiting = try? cache.pendingChanges(), !waiting.isEmpty {
            let report = await wallet.replayOutbox()
            let logger = wallet.logger
            logger.info("Outbox: \(report.sent) sent, \(report.refused.count) refused, \(report.pending) waiting")
            for reason in report.refused { logger.warning("Outbox: a change made offline was refused: \(reason)") }
            if report.stoppedOffline || report.stoppedForLogin { return [] }
        }
        let found = await wallet.refusedEdits(excluding: reported.withLock { $0 })
        reported.withLock { $0.formUnion(found.settled) }
        return found.conflicts
    }

    /// The conflicts of ``send(_:)`` reached the interface: not handed over again in this
    /// process (the entries stay in the outbox until the person chooses, and come back at the
    /// next start when they did not).
    func delivered(_ conflicts: [OfflineConflict]) {
        reported.withLock { $0.formUnion(conflicts.map(\.entry)) }
    }

    /// The person chose in the conflict view of an offline edit: the entry leaves the outbox
    /// (their fields were just saved over the server's version, or the server's stays).
    func resolve(entry: Int64, keptMine: Bool, in wallet: CachedWallet) -> CallOutcome {
        guard let cache = wallet.cache else { return .failure(UIFailure(.other, message: "no card cache")) }
        do {
            try cache.discard(entry)
        } catch {
            return .failure(UIFailure(.other, message: "the card cache: \(CachedWallet.text(error))"))
        }
        wallet.logger.info(
            "Outbox: the offline edit \(entry) resolved, \(keptMine ? "sent over the server's version" : "dropped for the server's version")"
        )
        return .success(.resolvedOfflineEdit)
    }
}
