import CardCache
import CardModels
import Foundation
import TestSupport
import Testing

/// A move, a copy or a merge as one outbox entry (issue 40): the order survives the cache file,
/// how far it got is recorded only by the replay that holds it, and an entry held by a process
/// that no longer runs is taken over at once instead of after its lease.
@Suite struct TransferOrderTests {
    static let target = TransferTarget(
        account: "home", walletKey: "https://home.example/book", user: "ann", label: "home")

    static func order() -> TransferOrder {
        TransferOrder(
            mode: .move, sourceID: "c-1", sourceRevision: CardRevision(rawValue: "r-1"), target: target,
            card: TransferCard(
                fields: CardFields(name: "Ada", vcardProperties: ["X-FOO:kept"]),
                vcard: "BEGIN:VCARD\r\nVERSION:3.0\r\nFN:Ada\r\nEND:VCARD\r\n"))
    }

    @Test func theOrderIsKeptWholeAndHowFarItGotIsRecordedOnlyByItsClaimant() throws {
        let world = try CacheWorld()
        let cache = try world.open()
        let order = Self.order()
        let entry = try cache.enqueue(.transfer(order))
        #expect(try cache.pendingTransfers(of: "c-1").map(\.id) == [entry.id])
        #expect(try cache.pendingTransfers(of: "c-2").isEmpty)

        let (replay, other) = (OutboxClaimant(), OutboxClaimant())
        let claimed = try #require(try cache.claimNext(by: replay, lease: .seconds(30)).claimed)
        guard case .transfer(let read) = claimed.change else {
            Issue.record("not a transfer: \(claimed.change)")
            return
        }
        #expect(read == order)
        #expect(read.key == order.key, "the target's create keeps its key")

        var written = order
        written.written = TransferWritten(id: "h-9", revision: CardRevision(rawValue: "t-1"))
        #expect(try cache.updateTransfer(entry.id, by: other, to: written) == false, "not its claim")
        #expect(try cache.updateTransfer(entry.id, by: replay, to: written))

        // Opened again (another process): the order says the card was written.
        let again = try world.open()
        guard case .transfer(let stored)? = try again.outbox().first?.change else {
            Issue.record("the transfer is gone")
            return
        }
        #expect(stored.written == TransferWritten(id: "h-9", revision: CardRevision(rawValue: "t-1")))
        #expect(stored.card.fields.vcardProperties == ["X-FOO:kept"])
    }

    @Test func anEntryHeldByAProcessThatIsGoneIsReleasedAtOnce() throws {
        let world = try CacheWorld()
        let cache = try world.open()
        let entry = try cache.enqueue(.transfer(Self.order()))
        let gone = OutboxClaimant(processID: 999_999)
        #expect(!OutboxClaimant.isRunning(999_999))
        #expect(OutboxClaimant.isRunning(getpid()))
        _ = try cache.claimNext(by: gone, lease: .seconds(300))
        #expect(try cache.claimNext(by: OutboxClaimant(), lease: .seconds(30)).claimed == nil, "held")

        #expect(try cache.releaseAbandoned(entry.id, by: gone))
        let next = OutboxClaimant()
        let claim = try cache.claimNext(by: next, lease: .seconds(30))
        #expect(claim == .claimed(try #require(claim.claimed), interrupted: true))

        // A holder that still runs is never released.
        let alive = OutboxClaimant()
        let second = try cache.enqueue(.transfer(Self.order()))
        #expect(try cache.markSent(entry.id, by: next))
        _ = try cache.claimNext(by: alive, lease: .seconds(300))
        #expect(try cache.releaseAbandoned(second.id, by: alive) == false)
    }
}
