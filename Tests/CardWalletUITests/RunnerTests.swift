import CardModels
import Foundation
import Synchronization
import Testing

@testable import CardWalletUI

/// A clock the test moves by hand.
final class ManualClock: Clock, Sendable {
    struct Instant: InstantProtocol {
        var offset: Duration
        func advanced(by duration: Duration) -> Instant { Instant(offset: offset + duration) }
        func duration(to other: Instant) -> Duration { other.offset - offset }
        static func < (lhs: Instant, rhs: Instant) -> Bool { lhs.offset < rhs.offset }
    }

    private let current = Mutex(Instant(offset: .zero))
    var now: Instant { current.withLock { $0 } }
    var minimumResolution: Duration { .milliseconds(1) }
    func advance(by duration: Duration) { current.withLock { $0 = $0.advanced(by: duration) } }
    func sleep(until deadline: Instant, tolerance: Duration?) async throws {
        while now < deadline { try await Task.sleep(for: .milliseconds(1)) }
    }
}

/// Holds requests until the test opens it.
actor Gate {
    private var isOpen = false
    private var waiters: [CheckedContinuation<Void, Never>] = []

    func wait() async {
        if isOpen { return }
        await withCheckedContinuation { waiters.append($0) }
    }

    func open() {
        isOpen = true
        for waiter in waiters { waiter.resume() }
        waiters = []
    }
}

/// Answers like a small server holding `total` sample cards. Given the runner's `inbox`, a
/// login also reports the session's news there before answering, as the live session does.
@Sendable func fakeServer(total: Int, inbox: ActionInbox? = nil) -> AppRunner.Performer {
    { request in
        switch request {
        case .logIn(let server, let email, let password):
            guard password == "pw" else { return .failure(UIFailure(.loginFailed, message: "wrong email or password")) }
            inbox?.send(.session(.loggedIn(email: email, server: server)))
            return .success(.loggedIn(email: email, server: server))
        case .loadCards(let offset, let limit, _):
            return .success(.cards(SampleCards.page(offset: offset, limit: limit, total: total)))
        case .loadCard(let id):
            return .success(
                .card(
                    SampleCards.card(
                        SampleCards.summaries(count: total).first { $0.id == id } ?? SampleCards.summary(number: 0))))
        case .deleteCard(let id):
            return .success(.deleted(id: id, backup: nil))
        default:
            return .failure(UIFailure(.other, message: "not in this test"))
        }
    }
}

@MainActor
@Suite struct RunnerTests {
    func keys(_ text: String) -> [TerminalEvent] { text.map { .key(.char($0)) } }

    @Test func scriptedSessionFromLoginToQuit() async {
        let backend = FakeBackend(width: 80, height: 24)
        let inbox = ActionInbox()
        let runner = AppRunner(
            state: AppState(server: testServer, email: testEmail, password: "pw"), backend: backend,
            pollMilliseconds: 0, inbox: inbox, perform: fakeServer(total: 30, inbox: inbox))
        let step: () async -> Void = { _ = await runner.step() }

        await step()
        #expect(backend.lastText.contains("Log in to a card server"))
        backend.events = [.key(.enter)]
        await waitUntil(step: step) { runner.state.list.hasLoaded }
        await waitUntil(step: step) { backend.lastText.contains("Kim Min-ji") }
        #expect(backend.lastText.contains("demo@cardwallet.dev @ http://127.0.0.1:8080/v1"))

        backend.events = [.key(.char("/"))] + keys("kim") + [.key(.enter)]
        await waitUntil(step: step) { backend.events.isEmpty && !runner.state.list.isEditingFilter }
        #expect(runner.state.list.cards.rows.count == 3)
        #expect(backend.lastText.contains("3 matches"))

        backend.events = [.key(.enter)]
        await waitUntil(step: step) { runner.state.detail?.card != nil }
        await waitUntil(step: step) { backend.lastText.contains("+82 10-1234-5678") }

        backend.events = [.key(.char("q")), .resize(width: 40, height: 10)]
        await waitUntil(step: step) { backend.lastText.contains("Terminal too small") }
        backend.events = [.resize(width: 100, height: 30)]
        await waitUntil(step: step) { backend.lastText.contains("Kim Min-ji") }
        #expect(backend.frames.last?.width == 100)

        // Ctrl-L asks the terminal for a whole new frame, and one is painted.
        let frames = backend.frames.count
        backend.events = [.key(.ctrl("l"))]
        await waitUntil(step: step) { backend.frames.count > frames }
        #expect(backend.fullRepaints == 1)

        backend.events = [.key(.char("q"))]
        let final = await runner.run()
        #expect(final.isQuitting)
        #expect(backend.restored)
    }

    @Test func theLoopKeepsAnsweringKeysWhileARequestHangs() async {
        let gate = Gate()
        let backend = FakeBackend()
        let server = fakeServer(total: 5)
        var state = AppState.loggedIn(cards: 5)
        state.now = .zero
        let runner = AppRunner(state: state, backend: backend, pollMilliseconds: 0) { request in
            await gate.wait()
            return await server(request)
        }
        let step: () async -> Void = { _ = await runner.step() }
        backend.events = [.key(.char("r"))]
        await waitUntil(step: step) { runner.state.isBusy }
        backend.events = [.key(.char("l")), .key(.char("?"))]
        await waitUntil(step: step) { runner.state.modal == .help(scroll: 0) }
        #expect(runner.state.log.isVisible)
        #expect(runner.state.isBusy)
        #expect(runner.state.list.isReloading)
        await gate.open()
        await waitUntil(step: step) { !runner.state.list.isReloading && !runner.state.isBusy }
        #expect(runner.state.list.cards.loadedCount == 5)
        runner.finish()
    }

    @Test func theInboxFeedsTheLogPaneAndTheSession() async {
        let backend = FakeBackend()
        let inbox = ActionInbox()
        let runner = AppRunner(
            state: AppState.loggedIn(cards: 3), backend: backend, pollMilliseconds: 0, inbox: inbox,
            perform: fakeServer(total: 3, inbox: inbox))
        let step: () async -> Void = { _ = await runner.step() }
        inbox.send(.log(LogLine(id: 1, time: SampleCards.epoch, kind: .session, text: "refreshed the access token")))
        inbox.send(.session(.refreshing(email: testEmail, server: testServer)))
        backend.events = [.key(.char("l"))]
        await waitUntil(step: step) { backend.lastText.contains("refreshed the access token") }
        #expect(backend.lastText.contains("(refreshing the session)"))

        inbox.send(.session(.expired(email: testEmail, server: testServer)))
        // The session's news names no code (the failed call that follows may).
        await waitUntil(step: step) { backend.lastText.contains("Session expired") }
        backend.events = keys("pw") + [.key(.enter)]
        await waitUntil(step: step) { runner.state.reauth == nil }
        #expect(runner.state.session == .loggedIn(email: testEmail, server: testServer))
        runner.finish()
    }

    @Test func anOpenerThatFailsSaysWhyInTheStatusBar() async {
        let backend = FakeBackend()
        var state = AppState.loggedIn(cards: 2)
        state.detail = DetailState(
            summary: SampleCards.summary(number: 0), card: SampleCards.card(SampleCards.summary(number: 0)))
        state.screen = .detail
        let runner = AppRunner(
            state: state, backend: backend, pollMilliseconds: 0, opener: { _ in "xdg-open is not installed" }
        ) { _ in .failure(UIFailure(.other, message: "no")) }
        backend.events = [.key(.char("o"))]
        await waitUntil(step: { _ = await runner.step() }) { runner.state.message?.kind == .error }
        #expect(runner.state.message?.text.hasSuffix(": xdg-open is not installed") == true)
        runner.finish()
    }

    @Test func ticksFromTheInjectedClockTurnTheSpinnerAndExpireMessages() async {
        let clock = ManualClock()
        let gate = Gate()
        let backend = FakeBackend()
        let runner = AppRunner(state: AppState.loggedIn(cards: 3), backend: backend, clock: clock, pollMilliseconds: 0)
        { _ in
            await gate.wait()
            return .success(.reordered)
        }
        let step: () async -> Void = { _ = await runner.step() }
        backend.events = [.key(.char("n"))]
        await waitUntil(step: step) { runner.state.message != nil }
        backend.events = [.key(.char("J"))]
        await waitUntil(step: step) { runner.state.isBusy }
        let framesBefore = backend.frames.count
        let spinnerBefore = runner.state.spinnerFrame
        // No time passes: idle turns paint nothing new.
        for _ in 0..<5 { await step() }
        #expect(backend.frames.count == framesBefore)
        clock.advance(by: .milliseconds(100))
        await step()
        #expect(runner.state.spinnerFrame == spinnerBefore + 1)
        #expect(backend.frames.count == framesBefore + 1)
        clock.advance(by: .seconds(5))
        await step()
        #expect(runner.state.message == nil)
        await gate.open()
        await waitUntil(step: step) { !runner.state.isBusy }
        runner.finish()
    }

    @Test func quittingWaitsForAChangeOnItsWayToTheServer() async {
        let gate = Gate()
        let backend = FakeBackend()
        // Time comes from a clock only the test moves: however slow the machine, the message
        // cannot expire before it is read.
        let runner = AppRunner(
            state: AppState.loggedIn(cards: 3), backend: backend, clock: ManualClock(), pollMilliseconds: 0
        ) { _ in
            await gate.wait()
            return .success(.reordered)
        }
        let step: () async -> Void = { _ = await runner.step() }
        backend.events = [.key(.char("J"))]
        await waitUntil(step: step) { runner.state.pendingChanges == 1 }
        backend.events = [.key(.char("q"))]
        await waitUntil(step: step) { runner.state.isQuitting }
        #expect(runner.state.message?.text == "Quitting once your change reaches the server… (Ctrl-C quits now)")
        async let sent = runner.finishSending(timeout: .seconds(60))
        await gate.open()
        #expect(await sent)
        // While it waited, the frames said why.
        #expect(backend.frames.contains { $0.text.contains("Quitting once your change reaches the server") })
        #expect(runner.state.pendingChanges == 0)
        runner.finish()
    }

    @Test func ctrlCOrTheDeadlineStopsWaitingForChanges() async {
        let clock = ManualClock()
        let gate = Gate()
        let backend = FakeBackend()
        let runner = AppRunner(
            state: AppState.loggedIn(cards: 3), backend: backend, clock: clock, pollMilliseconds: 0
        ) { _ in
            await gate.wait()
            return .success(.reordered)
        }
        let step: () async -> Void = { _ = await runner.step() }
        backend.events = [.key(.char("J")), .key(.char("q"))]
        await waitUntil(step: step) { runner.state.isQuitting }
        backend.events = [.key(.char("x")), .key(.ctrl("c"))]
        #expect(await runner.finishSending(timeout: .seconds(60)) == false)
        #expect(backend.events.isEmpty)
        #expect(runner.state.pendingChanges == 1)
        // No key at all: the deadline (on the injected clock, which does not move) ends it.
        #expect(await runner.finishSending(timeout: .zero) == false)
        await gate.open()
        runner.finish()
    }
}
