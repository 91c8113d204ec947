import CardModels
import Synchronization
import Testing

@testable import CardWalletUI

/// When the inbox wakes the loop: on the first waking entry since the last drain; log news sent
/// with `wakes: false` waits for the loop's next turn, in order with the rest.
@Suite struct InboxWakeTests {
    private final class Counter: Sendable {
        let wakes = Atomic<Int>(0)
    }

    private struct Line: InboxItem {
        let text: String
        func actions(into actions: inout [AppAction]) { actions.append(.notice(.info, text)) }
    }

    @Test func newsThatDoesNotWakeWaitsForTheNextWakingEntryAndKeepsItsPlace() {
        let counter = Counter()
        let inbox = ActionInbox(wake: { counter.wakes.add(1, ordering: .relaxed) })
        inbox.send(Line(text: "sent"), wakes: false)
        inbox.send(Line(text: "received"), wakes: false)
        #expect(counter.wakes.load(ordering: .relaxed) == 0)
        inbox.send(.tick(now: .seconds(1)))
        inbox.send(.tick(now: .seconds(2)))
        #expect(counter.wakes.load(ordering: .relaxed) == 1, "a burst costs one wake-up")
        let drained = inbox.drain()
        #expect(
            drained == [
                .notice(.info, "sent"), .notice(.info, "received"), .tick(now: .seconds(1)), .tick(now: .seconds(2)),
            ])
        inbox.send(.tick(now: .seconds(3)))
        #expect(counter.wakes.load(ordering: .relaxed) == 2, "after a drain the next waking entry wakes again")
    }

    @Test func withAFrameNewsRightAfterADrainThatTookSomethingLeavesWakingToTheLoop() {
        let counter = Counter()
        let inbox = ActionInbox(wake: { counter.wakes.add(1, ordering: .relaxed) }, frame: .seconds(3600))
        #expect(inbox.drain().isEmpty)
        inbox.send(.tick(now: .seconds(1)))
        #expect(counter.wakes.load(ordering: .relaxed) == 1, "no news taken yet: the first entry wakes")
        #expect(inbox.drain() == [.tick(now: .seconds(1))])
        inbox.send(.tick(now: .seconds(2)))
        #expect(counter.wakes.load(ordering: .relaxed) == 1, "within the frame the loop comes back by itself")
        #expect(inbox.drain() == [.tick(now: .seconds(2))], "nothing is lost")
    }
}
