import CardCache
import CardModels
import Foundation
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
        // They survive closing and opening again (another process, the next start).
        cache.close()
        #expect(try world.open().pendingChanges().map(\.change) == changes)
    }

    @Test func sendingSentFailedAndRetried() throws {
        let world = try CacheWorld()
        let cache = try world.open(clock: clock)
        let first = try cache.enqueue(.delete(cardID: "c-1", baseRevision: CardRevision(1)))
        let second = try cache.enqueue(
            .edit(cardID: "c-2", fields: CardFields(name: "Two"), baseRevision: CardRevision(4)))
        let third = try cache.enqueue(.reorder(["c-2"]))

        try cache.markSending(first.id)
        try cache.markSent(first.id)
        try cache.markSending(second.id)
        try cache.markFailed(second.id, reason: "The server could not be reached.", retry: true)
        try cache.markSending(third.id)
        try cache.markFailed(third.id, reason: "The card changed on the server (E07).", retry: false)

        let all = try cache.outbox()
        #expect(all.map(\.state) == [.sent, .pending, .failed])
        #expect(all.map(\.attempts) == [1, 1, 1])
        #expect(all[1].lastError == "The server could not be reached.")
        #expect(all[2].updatedAt > all[2].createdAt)
        #expect(try cache.pendingChanges().map(\.id) == [second.id])
        #expect(try cache.state().unsentChanges == 2)

        try cache.retry(third.id)
        #expect(try cache.pendingChanges().map(\.id) == [second.id, third.id])
        #expect(try cache.outbox(states: [.pending]).last?.lastError == "The card changed on the server (E07).")
        try cache.removeSentChanges()
        try cache.discard(second.id)
        #expect(try cache.outbox().map(\.id) == [third.id])
        #expect(throws: CacheError.self) { try cache.markSent(first.id) }
    }

    @Test func anEntryLeftSendingIsReportedAsInterrupted() throws {
        let world = try CacheWorld()
        let cache = try world.open(clock: clock)
        let entry = try cache.enqueue(.add(localID: "local:9", fields: CardFields(name: "Nine"), image: nil))
        try cache.markSending(entry.id)
        cache.close()
        let next = try world.open(clock: clock)
        #expect(try next.interruptedChanges().map(\.id) == [entry.id])
        #expect(try next.pendingChanges().map(\.state) == [.sending])
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
