import Foundation
import GRDB

extension OutboxClaimant {
    /// Whether a process of this id runs on this computer (`kill(pid, 0)`): one that does not
    /// cannot renew its claims. A process of another user counts as running (the signal is
    /// refused, not sent: `EPERM`).
    public static func isRunning(_ processID: Int32) -> Bool {
        guard processID > 0 else { return false }
        return kill(processID, 0) == 0 || errno != ESRCH
    }
}

extension CardCache {
    /// Ends the lease of entry `id` now when `holder` still holds it and its process is gone (it
    /// was killed, or crashed, while sending): the next claim takes it over as interrupted and
    /// checks the server first, without waiting for the lease to run out (docs/Cache.md, *The
    /// claim and the lease*). A compare-and-set, as a claim is: nothing changes if another
    /// replay settled or took the entry meanwhile.
    ///
    /// - Returns: whether the lease was ended.
    @discardableResult
    public func releaseAbandoned(_ id: Int64, by holder: OutboxClaimant) throws(CacheError) -> Bool {
        guard !OutboxClaimant.isRunning(holder.processID) else { return false }
        let now = clock().timeIntervalSince1970
        return try write { db in
            try db.execute(
                sql: """
                    UPDATE outbox SET leaseExpiresAt = ?
                    WHERE id = ? AND state = 'sending' AND claimant = ? AND leaseExpiresAt > ?
                    """,
                arguments: [now, id, holder.description, now])
            return db.changesCount == 1
        }
    }
}
