import CardCache
import CardModels
import Dispatch
import Foundation
import Synchronization
import TestSupport
import Testing

@Suite("Claiming outbox entries: one claimant at a time, a lease, each entry sent once")
struct OutboxClaimTests {
    @Test func anEntryHeldByAnotherIsNotClaimedAndOnlyItsClaimantSettlesIt() throws {
        let world = try CacheWorld()
        let cache = try world.open()
        let first = try cache.enqueue(.delete(cardID: "c-1", baseRevision: CardRevision(1)))
        let second = try cache.enqueue(.delete(cardID: "c-2", baseRevision: CardRevision(1)))
        let (tui, script) = (OutboxClaimant(), OutboxClaimant())

        let claim = try cache.claimNext(by: tui, lease: .seconds(30))
        #expect(claim == .claimed(try #require(claim.claimed), interrupted: false))
        #expect(claim.claimed?.claimant == tui && claim.claimed?.attempts == 1)
        // Entries go in order: the script waits for the first, it does not skip to the second.
        guard case .held(let held) = try cache.claimNext(by: script, lease: .seconds(30)) else {
            Issue.record("the first entry was claimed twice")
            return
        }
        #expect(held.id == first.id && held.claimant == tui)
        #expect(try cache.markSent(first.id, by: script) == false)
        #expect(try cache.markFailed(first.id, by: script, reason: "no", retry: false) == false)
        #expect(try cache.renewClaim(first.id, by: script, lease: .seconds(30)) == false)
        #expect(try cache.releaseClaim(first.id, by: script) == false)
        #expect(try cache.outbox().first?.state == .sending)
        #expect(try cache.outbox().first?.attempts == 1, "a refused claim is no attempt")

        #expect(try cache.markSent(first.id, by: tui))
        #expect(try cache.claimNext(by: script, lease: .seconds(30)).claimed?.id == second.id)
        #expect(try cache.markSent(second.id, by: script))
        #expect(try cache.outbox().map(\.state) == [.sent, .sent])
    }

    @Test func aLeaseThatRanOutIsClaimedAgainAsInterrupted() throws {
        let world = try CacheWorld()
        let time = ManualTime()
        let cache = try world.open(clock: time.read)
        let entry = try cache.enqueue(.add(localID: "local:1", fields: CardFields(name: "One"), image: nil))
        let (gone, next) = (OutboxClaimant(processID: 999_999), OutboxClaimant())

        _ = try cache.claimNext(by: gone, lease: .seconds(30))
        time.advance(by: 20)
        #expect(try cache.renewClaim(entry.id, by: gone, lease: .seconds(30)), "a live claimant renews")
        time.advance(by: 20)
        #expect(try cache.claimNext(by: next, lease: .seconds(30)).claimed == nil, "renewed: still held")
        time.advance(by: 11)
        // The claimant stopped renewing (its process ended): the lease is over.
        let claim = try cache.claimNext(by: next, lease: .seconds(30))
        #expect(claim == .claimed(try #require(claim.claimed), interrupted: true))
        #expect(claim.claimed?.attempts == 2)
        #expect(claim.claimed?.idempotencyKey == entry.idempotencyKey, "sent again with the same key")
        // The one that stalled wakes up: its answers no longer count.
        #expect(try cache.markSent(entry.id, by: gone) == false)
        #expect(try cache.markSent(entry.id, by: next, newCardID: "card_1"))
    }

    @Test func aReleasedClaimIsTakenAtOnceAndCheckedFirst() throws {
        let world = try CacheWorld()
        let cache = try world.open()
        let entry = try cache.enqueue(
            .edit(cardID: "c-1", fields: CardFields(name: "One"), baseRevision: CardRevision(2)))
        let (stopped, next) = (OutboxClaimant(), OutboxClaimant())
        _ = try cache.claimNext(by: stopped, lease: .seconds(600))
        #expect(try cache.releaseClaim(entry.id, by: stopped))
        #expect(try cache.interruptedChanges().map(\.id) == [entry.id])
        let claim = try cache.claimNext(by: next, lease: .seconds(30))
        #expect(claim == .claimed(try #require(claim.claimed), interrupted: true))
    }

    @Test func anAdditionSentGivesItsServerIDToTheEntriesAfterIt() throws {
        let world = try CacheWorld()
        let cache = try world.open()
        let me = OutboxClaimant()
        let fields = CardFields(name: "New")
        let add = try cache.enqueue(.add(localID: "local:1", fields: fields, image: nil))
        try cache.enqueue(.edit(cardID: "local:1", fields: CardFields(name: "Newer"), baseRevision: CardRevision(1)))
        try cache.enqueue(.reorder(["c-ada", "local:1"]))
        try cache.enqueue(.delete(cardID: "local:1", baseRevision: CardRevision(1)))
        try cache.enqueue(.edit(cardID: "local:2", fields: fields, baseRevision: CardRevision(1)))

        #expect(try cache.claimNext(by: me, lease: .seconds(30)).claimed?.id == add.id)
        #expect(try cache.markSent(add.id, by: me, newCardID: "card_9"))
        #expect(
            try cache.pendingChanges().map(\.change) == [
                .edit(cardID: "card_9", fields: CardFields(name: "Newer"), baseRevision: CardRevision(1)),
                .reorder(["c-ada", "card_9"]),
                .delete(cardID: "card_9", baseRevision: CardRevision(1)),
                .edit(cardID: "local:2", fields: fields, baseRevision: CardRevision(1)),
            ])
    }

    /// Four connections — as four processes have — claim from one outbox as fast as they can:
    /// the compare-and-set gives each entry to one of them, once.
    @Test func connectionsRacingForTheOutboxClaimEachEntryOnce() throws {
        let world = try CacheWorld()
        let count = 60
        let setup = try world.open()
        for index in 0..<count { try setup.enqueue(.delete(cardID: "c-\(index)", baseRevision: CardRevision(1))) }
        let caches = try (0..<4).map { _ in try world.open() }
        let claimed = Mutex<[Int64]>([])
        let failures = Mutex<[String]>([])
        DispatchQueue.concurrentPerform(iterations: caches.count) { index in
            let cache = caches[index]
            let me = OutboxClaimant()
            do {
                while true {
                    switch try cache.claimNext(by: me, lease: .seconds(30)) {
                    case .claimed(let entry, _):
                        claimed.withLock { $0.append(entry.id) }
                        guard try cache.markSent(entry.id, by: me) else {
                            failures.withLock { $0.append("lost the claim on \(entry.id)") }
                            return
                        }
                    case .held:
                        continue
                    case .empty:
                        return
                    }
                }
            } catch {
                failures.withLock { $0.append("\(error)") }
            }
        }
        #expect(failures.withLock { $0 }.isEmpty)
        let ids = claimed.withLock { $0 }
        #expect(ids.count == count, "claimed \(ids.count) times for \(count) entries")
        #expect(Set(ids).count == count)
        #expect(try setup.outbox().allSatisfy { $0.state == .sent && $0.attempts == 1 })
    }

    /// Two replays' turns at once, each on its own connection: they take turns in order, and
    /// each entry is handed to one of them once.
    @Test func twoReplaysTakeTurnsAndEachEntryGoesOnce() async throws {
        let world = try CacheWorld()
        let setup = try world.open()
        for index in 0..<20 { try setup.enqueue(.delete(cardID: "c-\(index)", baseRevision: CardRevision(1))) }
        let sent = SentEntries()
        let replays = try (0..<2).map { _ in OutboxClaims(cache: try world.open(), poll: .milliseconds(1)) }
        try await withThrowingTaskGroup(of: Void.self) { group in
            for claims in replays {
                group.addTask {
                    while let (entry, _) = try await claims.next() {
                        await claims.renewing(entry.id) {
                            sent.ids.withLock { $0.append(entry.id) }
                            await Task.yield()
                        }
                        #expect(try claims.cache.markSent(entry.id, by: claims.claimant))
                    }
                }
            }
            try await group.waitForAll()
        }
        let ids = sent.ids.withLock { $0 }
        #expect(ids.count == 20 && Set(ids).count == 20)
        #expect(ids == ids.sorted(), "in the order they were made")
    }

    @Test func aClaimIsRenewedWhileItsRequestIsOnTheWire() async throws {
        let world = try CacheWorld()
        let cache = try world.open()
        let entry = try cache.enqueue(.delete(cardID: "c-1", baseRevision: CardRevision(1)))
        // A lease long enough that a busy machine's late renewal never lets it run out (renewed
        // every second), short enough that the test sees two renewals in a few seconds.
        let claims = OutboxClaims(cache: cache, lease: .seconds(3))
        let claimed = try #require(try await claims.next())
        let first = try #require(claimed.entry.leaseExpiresAt)
        try await claims.renewing(entry.id) {
            // A slow server: the request outlasts the first lease, and the claim holds.
            try await waitUntil("the lease renewed") {
                let now = try cache.outbox().first?.leaseExpiresAt ?? .distantPast
                return now > first.addingTimeInterval(1.5)
            }
            #expect(try cache.claimNext(by: OutboxClaimant(), lease: .seconds(30)).claimed == nil)
        }
        #expect(try cache.markSent(entry.id, by: claims.claimant))
    }
}

/// The entries replays handed to the network, in order (a class: a `Mutex` cannot be copied).
private final class SentEntries: Sendable {
    let ids = Mutex<[Int64]>([])
}
