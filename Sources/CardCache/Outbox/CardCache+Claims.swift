import CardModels
public import Foundation
import GRDB

/// Who sends outbox entries: one replay of one process. Every replay makes its own (two
/// replays in one process are two claimants), so a claim tells them apart.
public struct OutboxClaimant: Sendable, Hashable, CustomStringConvertible {
    /// The process that replays (for people: which process holds an entry).
    public let processID: Int32
    /// A random token of the replay.
    public let token: String

    /// A claimant: this process and a fresh random token by default.
    public init(processID: Int32 = getpid(), token: String = UUID().uuidString) {
        self.processID = processID
        self.token = token
    }

    /// As stored in the `claimant` column: `<process id>:<token>`.
    public var description: String { "\(processID):\(token)" }

    /// A claimant as stored; `nil` for text that is not one.
    init?(stored: String) {
        guard let colon = stored.firstIndex(of: ":"), let id = Int32(stored[..<colon]) else { return nil }
        self.init(processID: id, token: String(stored[stored.index(after: colon)...]))
    }
}

/// What ``CardCache/claimNext(by:lease:)`` found.
public enum OutboxClaim: Sendable, Equatable {
    /// The entry is the claimant's to send, `sending`, until its ``OutboxEntry/leaseExpiresAt``
    /// unless renewed. `interrupted`: an earlier claimant's lease ran out while it was sending
    /// it (a process ended or stalled), so the server may have it already: check before sending.
    case claimed(OutboxEntry, interrupted: Bool)
    /// The first entry still to send is another claimant's (its ``OutboxEntry/claimant``) until
    /// its ``OutboxEntry/leaseExpiresAt``: entries go in order, so wait for it to be settled or
    /// for the lease to run out, then claim again.
    case held(OutboxEntry)
    /// Nothing is left to send.
    case empty
}

/// Claims (docs/Cache.md, *The claim and the lease*): an entry moves `pending → sending` by a
/// compare-and-set in one write transaction, recording who claimed it and until when; only
/// that claimant may then renew, release or settle it. Two replays — two processes, or two
/// tasks of one — take turns on the outbox and send each entry once.
extension CardCache {
    /// Claims the first entry still to send (the oldest `pending` or `sending` one), unless
    /// another claimant holds it and its lease has not run out.
    ///
    /// Counted as an attempt. Entries are claimed strictly in order: an entry after one being
    /// sent waits (an edit of a card added offline needs the server's id of the addition).
    ///
    /// - Parameters:
    ///   - claimant: who sends it.
    ///   - lease: how long the claim holds unless renewed (``renewClaim(_:by:lease:)``).
    public func claimNext(by claimant: OutboxClaimant, lease: Duration) throws(CacheError) -> OutboxClaim {
        let now = clock()
        return try write { db -> OutboxClaim in
            guard
                let row = try Row.fetchOne(
                    db,
                    sql: """
                        SELECT \(Self.entryColumns) FROM outbox WHERE state IN ('pending', 'sending')
                        ORDER BY id LIMIT 1
                        """)
            else { return .empty }
            let entry = try Self.entry(row)
            if entry.state == .sending, let end = entry.leaseExpiresAt, end > now { return .held(entry) }
            let until = now.addingTimeInterval(lease.seconds)
            // The compare-and-set: only the row as just read changes hands.
            try db.execute(
                sql: """
                    UPDATE outbox SET state = 'sending', claimant = ?, leaseExpiresAt = ?, attempts = attempts + 1,
                        updatedAt = ?
                    WHERE id = ? AND state = ? AND claimant IS ? AND leaseExpiresAt IS ?
                    """,
                arguments: [
                    claimant.description, until.timeIntervalSince1970, now.timeIntervalSince1970, entry.id,
                    entry.state.rawValue, row[13] as String?, row[14] as Double?,
                ])
            guard db.changesCount == 1 else { return .held(entry) }
            var claimed = entry
            claimed.state = .sending
            claimed.attempts += 1
            claimed.updatedAt = now
            claimed.claimant = claimant
            claimed.leaseExpiresAt = until
            return .claimed(claimed, interrupted: entry.state == .sending)
        }
    }

    /// Extends `claimant`'s claim on entry `id` to `lease` from now (while its request is on
    /// the wire).
    ///
    /// - Returns: whether the claim was still `claimant`'s (`false`: another replay took it
    ///   over after the lease ran out, or it was settled).
    @discardableResult
    public func renewClaim(_ id: Int64, by claimant: OutboxClaimant, lease: Duration) throws(CacheError) -> Bool {
        let until = clock().addingTimeInterval(lease.seconds)
        return try update(
            id, by: claimant, set: "leaseExpiresAt = ?", arguments: [until.timeIntervalSince1970])
    }

    /// Ends `claimant`'s lease on entry `id` now, leaving it `sending`: the next claim treats it
    /// as interrupted and checks the server first (the request may have reached it). For a
    /// replay stopped midway (cancelled).
    ///
    /// - Returns: whether the claim was still `claimant`'s.
    @discardableResult
    public func releaseClaim(_ id: Int64, by claimant: OutboxClaimant) throws(CacheError) -> Bool {
        try update(id, by: claimant, set: "leaseExpiresAt = ?", arguments: [clock().timeIntervalSince1970])
    }

    /// Marks entry `id` as accepted by the server, if `claimant` still holds it.
    ///
    /// - Parameters:
    ///   - newCardID: for an addition, the id the server gave the card: the entries after it
    ///     that name its local id (edits, deletes, reorders) name the server's from now on, for
    ///     whichever replay sends them.
    /// - Returns: whether the claim was still `claimant`'s (`false`: the entry was taken over
    ///   after the lease ran out; its new claimant settles it).
    /// - Throws: ``CacheError`` when there is no such entry.
    @discardableResult
    public func markSent(_ id: Int64, by claimant: OutboxClaimant, newCardID: String? = nil) throws(CacheError)
        -> Bool
    {
        let now = clock().timeIntervalSince1970
        return try write { db in
            let changed = try Self.update(
                db, id, by: claimant,
                set: "state = 'sent', claimant = NULL, leaseExpiresAt = NULL, lastError = NULL, updatedAt = ?",
                arguments: [now])
            if changed, let newCardID { try Self.rename(after: id, to: newCardID, db) }
            return changed
        }
    }

    /// Records a failed attempt at entry `id`, if `claimant` still holds it: with `retry`, back
    /// to `pending` (the server could not be reached: send it again later); without, `failed`
    /// (the server refused it).
    ///
    /// - Parameters:
    ///   - reason: one sentence for people, shown beside the pending change.
    /// - Returns: whether the claim was still `claimant`'s.
    /// - Throws: ``CacheError`` when there is no such entry.
    @discardableResult
    public func markFailed(_ id: Int64, by claimant: OutboxClaimant, reason: String, retry: Bool) throws(CacheError)
        -> Bool
    {
        let now = clock().timeIntervalSince1970
        return try update(
            id, by: claimant,
            set: "state = ?, claimant = NULL, leaseExpiresAt = NULL, lastError = ?, updatedAt = ?",
            arguments: [retry ? OutboxState.pending.rawValue : OutboxState.failed.rawValue, reason, now])
    }

    private func update(_ id: Int64, by claimant: OutboxClaimant, set: String, arguments: StatementArguments)
        throws(CacheError) -> Bool
    {
        try write { db in try Self.update(db, id, by: claimant, set: set, arguments: arguments) }
    }

    /// Changes entry `id` only while it is `sending` under `claimant`'s claim.
    private static func update(
        _ db: Database, _ id: Int64, by claimant: OutboxClaimant, set: String, arguments: StatementArguments
    ) throws -> Bool {
        try db.execute(
            sql: "UPDATE outbox SET \(set) WHERE id = ? AND state = 'sending' AND claimant = ?",
            arguments: arguments + [id, claimant.description])
        if db.changesCount == 1 { return true }
        guard try Bool.fetchOne(db, sql: "SELECT 1 FROM outbox WHERE id = ?", arguments: [id]) != nil else {
            throw CacheError("there is no outbox entry \(id)")
        }
        return false
    }

    /// After addition `id` was sent: its local id becomes `newID` in the entries after it.
    private static func rename(after id: Int64, to newID: String, _ db: Database) throws {
        guard
            let localID = try String.fetchOne(
                db, sql: "SELECT cardID FROM outbox WHERE id = ? AND kind = 'add'", arguments: [id]),
            localID != newID
        else { return }
        try db.execute(
            sql: "UPDATE outbox SET cardID = ? WHERE id > ? AND cardID = ? AND kind IN ('edit', 'delete')",
            arguments: [newID, id, localID])
        let reorders = try Row.fetchAll(
            db, sql: "SELECT id, payload FROM outbox WHERE id > ? AND kind = 'reorder'", arguments: [id])
        let decoder = CardWalletJSON.decoder()
        for row in reorders {
            let order = try decoder.decode([String].self, from: Data(((row[1] as String?) ?? "[]").utf8))
            guard order.contains(localID) else { continue }
            try db.execute(
                sql: "UPDATE outbox SET payload = ? WHERE id = ?",
                arguments: [try json(order.map { $0 == localID ? newID : $0 }), row[0] as Int64])
        }
    }
}

extension Duration {
    /// The duration in seconds, as Foundation counts time.
    var seconds: TimeInterval {
        let (seconds, attoseconds) = components
        return TimeInterval(seconds) + TimeInterval(attoseconds) / 1e18
    }
}
