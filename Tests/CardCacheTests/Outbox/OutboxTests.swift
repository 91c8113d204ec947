import CardCache
import CardModels
import Foundation
import GRDB
import Synchronization
import Testing

@Suite("The outbox of offline changes")
struct OutboxTests {
    /// A clock that moves one second per reading.
    private let clock = SteppingClock().read

    @Test func changesComeBackInOrderWithTheirState() throws {
        let world = try CacheWorld()
        let cache = try world.open(clock: clock)
        let picture = OutboxImage(data: Data([0xFF, 0xD8, 0xFF, 0]), contentType: "image/jpeg")
        let changes: [OutboxChange] = [
            .add(localID: CardCache.localIDPrefix + "1", fields: CardFields(name: "New", tags: ["a"]), image: picture),
            .edit(cardID: "c-ada", fields: CardFields(name: "Ada", company: "Engines"), baseRevision: CardRevision(3)),
            .delete(cardID: "c-zoe", baseRevision: CardRevision(1)),
            .reorder(["c-ada", CardCache.localIDPrefix + "1"]),
        ]
        let entries = try changes.map { try cache.enqueue($0) }
        #expect(entries.map(\.id) == entries.map(\.id).sorted())
        #expect(try cache.pendingChanges() == entries)
        #expect(try cache.pendingChanges().map(\.change) == changes)
        #expect(try cache.state().unsentChanges == 4)
        // Only the addition has a key, made when it was queued.
        #expect(entries.map { $0.idempotencyKey != nil } == [true, false, false, false])
        // They survive closing and opening again (another process, the next start).
        cache.close()
        let reopened = try world.open().pendingChanges()
        #expect(reopened.map(\.change) == changes)
        #expect(reopened.map(\.idempotencyKey) == entries.map(\.idempotencyKey))
    }

    @Test func anAdditionKeepsTheKeyItWasQueuedWith() throws {
        let world = try CacheWorld()
        let cache = try world.open(clock: clock)
        let key = try #require(IdempotencyKey("from-a-lost-answer"))
        let add = try cache.enqueue(
            .add(localID: "local:1", fields: CardFields(name: "One"), image: nil), idempotencyKey: key)
        let other = try cache.enqueue(.add(localID: "local:2", fields: CardFields(name: "Two"), image: nil))
        let edit = try cache.enqueue(.delete(cardID: "c-1", baseRevision: CardRevision(1)), idempotencyKey: key)
        #expect(try cache.outbox().map(\.idempotencyKey) == [key, other.idempotencyKey, nil])
        #expect(other.idempotencyKey != key && add.idempotencyKey == key && edit.idempotencyKey == nil)
    }

    @Test func claimedSentFailedAndRetried() throws {
        let world = try CacheWorld()
        let cache = try world.open(clock: clock)
        let me = OutboxClaimant()
        let first = try cache.enqueue(.delete(cardID: "c-1", baseRevision: CardRevision(1)))
        let second = try cache.enqueue(
            .edit(cardID: "c-2", fields: CardFields(name: "Two"), baseRevision: CardRevision(4)))
        let third = try cache.enqueue(.reorder(["c-2"]))

        #expect(try cache.claimNext(by: me, lease: .seconds(30)).claimed?.id == first.id)
        #expect(try cache.markSent(first.id, by: me))
        #expect(try cache.claimNext(by: me, lease: .seconds(30)).claimed?.id == second.id)
        #expect(try cache.markFailed(second.id, by: me, reason: "The server could not be reached.", retry: true))
        // Back in line, first: claimed again.
        #expect(try cache.claimNext(by: me, lease: .seconds(30)).claimed?.id == second.id)
        #expect(try cache.markSent(second.id, by: me))
        #expect(try cache.claimNext(by: me, lease: .seconds(30)).claimed?.id == third.id)
        #expect(try cache.markFailed(third.id, by: me, reason: "The card changed on the server (E07).", retry: false))
        #expect(try cache.claimNext(by: me, lease: .seconds(30)) == .empty)

        let all = try cache.outbox()
        #expect(all.map(\.state) == [.sent, .sent, .failed])
        #expect(all.map(\.attempts) == [1, 2, 1])
        #expect(all.allSatisfy { $0.claimant == nil && $0.leaseExpiresAt == nil })
        #expect(all[2].lastError == "The card changed on the server (E07).")
        #expect(all[2].updatedAt > all[2].createdAt)
        #expect(try cache.pendingChanges().isEmpty)
        #expect(try cache.state().unsentChanges == 1)

        try cache.retry(third.id)
        #expect(try cache.pendingChanges().map(\.id) == [third.id])
        #expect(try cache.outbox(states: [.pending]).last?.lastError == "The card changed on the server (E07).")
        try cache.removeSentChanges()
        #expect(try cache.outbox().map(\.id) == [third.id])
        try cache.discard(third.id)
        #expect(throws: CacheError.self) { try cache.markSent(first.id, by: me) }
        #expect(throws: CacheError.self) { try cache.retry(first.id) }
    }

    /// A file of the version before claims: its additions get keys, and one already handed to
    /// the network (without a key) is looked up on the server before it goes again.
    @Test func aVersion1OutboxIsMigrated() throws {
        let world = try CacheWorld()
        let cache = try world.open()
        let tried = try cache.enqueue(.add(localID: "local:1", fields: CardFields(name: "Tried"), image: nil))
        let fresh = try cache.enqueue(.add(localID: "local:2", fields: CardFields(name: "Fresh"), image: nil))
        let edit = try cache.enqueue(
            .edit(cardID: "c-1", fields: CardFields(name: "Edit"), baseRevision: CardRevision(1)))
        cache.close()
        // Back to version 1, as its code left it: the add tried once and put back in line.
        let queue = try DatabaseQueue(path: world.path)
        try queue.write { db in
            try db.execute(sql: "UPDATE outbox SET attempts = 1, state = 'pending' WHERE id = ?", arguments: [tried.id])
            for column in ["claimant", "leaseExpiresAt", "idempotencyKey"] {
                try db.execute(sql: "ALTER TABLE outbox DROP COLUMN \(column)")
            }
            try db.execute(sql: "DELETE FROM grdb_migrations WHERE identifier LIKE 'v3:%'")
        }
        try queue.close()

        let migrated = try world.open()
        let entries = try migrated.outbox()
        #expect(entries.map(\.id) == [tried.id, fresh.id, edit.id])
        #expect(entries.map(\.state) == [.sending, .pending, .pending])
        #expect(entries[0].idempotencyKey != nil && entries[1].idempotencyKey != nil)
        #expect(entries[0].idempotencyKey != entries[1].idempotencyKey && entries[2].idempotencyKey == nil)
        let claim = try migrated.claimNext(by: OutboxClaimant(), lease: .seconds(30))
        #expect(claim == .claimed(try #require(claim.claimed), interrupted: true))
        #expect(world.warnings.isEmpty)
    }

    @Test func anEntryLeftSendingIsReportedAsInterrupted() throws {
        let world = try CacheWorld()
        let time = ManualTime()
        let cache = try world.open(clock: time.read)
        let entry = try cache.enqueue(.add(localID: "local:9", fields: CardFields(name: "Nine"), image: nil))
        #expect(try cache.claimNext(by: OutboxClaimant(), lease: .seconds(30)).claimed?.id == entry.id)
        cache.close()
        let next = try world.open(clock: time.read)
        // Its process is gone but its lease is not over yet: not taken for interrupted.
        #expect(try next.interruptedChanges().isEmpty)
        time.advance(by: 31)
        #expect(try next.interruptedChanges().map(\.id) == [entry.id])
        #expect(try next.pendingChanges().map(\.state) == [.sending])
    }
}

extension OutboxClaim {
    /// The entry claimed, or `nil`.
    var claimed: OutboxEntry? {
        if case .claimed(let entry, _) = self { entry } else { nil }
    }
}

/// Time that moves only when told (a class: a `Mutex` cannot be copied).
final class ManualTime: Sendable {
    private let seconds = Mutex(1_800_000_000.0)

    var read: @Sendable () -> Date {
        { [self] in Date(timeIntervalSince1970: seconds.withLock { $0 }) }
    }

    func advance(by interval: TimeInterval) {
        seconds.withLock { $0 += interval }
    }
}

/// Time that moves one second each time it is read (a class: a `Mutex` cannot be copied).
final class SteppingClock: Sendable {
    private let seconds = Mutex(0.0)

    var read: @Sendable () -> Date {
        { [self] in
            seconds.withLock { value in
                value += 1
                return Date(timeIntervalSince1970: 1_800_000_000 + value)
            }
        }
    }
}
