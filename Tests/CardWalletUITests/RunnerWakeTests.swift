import CardModels
import Synchronization
import Testing

@testable import CardWalletUI

/// The loop waits for keys with a timeout far longer than any test: whatever it shows, it shows
/// because an action woke it, never because a wait ran out.
@MainActor
@Suite struct RunnerWakeTests {
    static let longPoll = 120_000

    @Test func anActionSentFromAnotherTaskEndsTheWaitForAKey() async {
        let backend = WakeableBackend()
        let runner = AppRunner(
            state: AppState.loggedIn(cards: 3), backend: backend, pollMilliseconds: Self.longPoll,
            perform: fakeServer(total: 3))
        let inbox = runner.inbox
        let sender = Task.detached {
            inbox.send(.session(.refreshing(email: testEmail, server: testServer)))
        }
        // The first turn paints, then waits for a key until the action wakes it.
        #expect(await runner.step())
        await sender.value
        #expect(backend.waits == [.woken])
        #expect(runner.state.session == .refreshing(email: testEmail, server: testServer))
        #expect(backend.frames.count == 2)
        #expect(backend.lastText.contains("(refreshing the session)"))
        runner.finish()
    }

    /// With an inbox frame, a turn that took news is followed by a wait of one frame at most:
    /// news sent meanwhile does not wake the loop, so the loop comes back by itself.
    @Test func afterATurnThatTookNewsTheLoopWaitsOneFrameAtMost() async {
        let backend = WakeableBackend()
        let runner = AppRunner(
            state: AppState.loggedIn(cards: 3), backend: backend, pollMilliseconds: Self.longPoll,
            inbox: ActionInbox(frame: .milliseconds(20)), perform: fakeServer(total: 3))
        let inbox = runner.inbox
        let sender = Task.detached { inbox.send(.session(.refreshing(email: testEmail, server: testServer))) }
        #expect(await runner.step())
        await sender.value
        #expect(backend.timeouts == [Self.longPoll])
        // This turn follows one that took news: it waits one frame, and the news sent within
        // the frame is taken without a wake-up.
        inbox.send(.session(.loggedIn(email: testEmail, server: testServer)))
        #expect(await runner.step())
        #expect(backend.timeouts == [Self.longPoll, 20])
        #expect(runner.state.session == .loggedIn(email: testEmail, server: testServer))
        runner.finish()
    }

    @Test func requestResultsArePaintedWithoutWaitingForTheKeyTimeout() async {
        let backend = WakeableBackend()
        let runner = AppRunner(
            state: AppState(server: testServer, email: testEmail, password: "pw"), backend: backend,
            pollMilliseconds: Self.longPoll, perform: fakeServer(total: 30))
        let step: () async -> Void = { _ = await runner.step() }
        backend.events = [.key(.enter)]
        // Log in, then the first page: two results, each arriving while the loop waits.
        await waitUntil(timeout: .seconds(60), step: step) { backend.lastText.contains("Kim Min-ji") }
        #expect(runner.state.list.hasLoaded)
        #expect(!backend.waits.isEmpty)
        #expect(!backend.waits.contains(.timedOut), "every wait ended with a result: \(backend.waits)")
        runner.finish()
    }

    @Test func newsFromAnotherThreadWakesTheLoopToo() async {
        let backend = WakeableBackend()
        let inbox = ActionInbox()
        let runner = AppRunner(
            state: AppState.loggedIn(cards: 3), backend: backend, pollMilliseconds: Self.longPoll, inbox: inbox,
            perform: fakeServer(total: 3))
        let line = LogLine(id: 1, time: SampleCards.epoch, kind: .session, text: "refreshed the access token")
        let feeder = Task.detached { inbox.send(.log(line)) }
        await waitUntil(timeout: .seconds(60), step: { _ = await runner.step() }) {
            runner.state.log.buffer.lines.contains { $0.text == "refreshed the access token" }
        }
        await feeder.value
        #expect(!backend.waits.isEmpty)
        #expect(!backend.waits.contains(.timedOut), "every wait ended with the line: \(backend.waits)")
        runner.finish()
    }
}
