/// The main loop: reads a key (waiting at most a short poll), reduces it, starts the effects
/// as tasks whose results come back as actions, merges outside actions, ticks the clock,
/// renders and presents. Nothing in it waits for the network, and an action arriving in the
/// ``inbox`` ends the wait for a key at once (through the backend's
/// ``TerminalBackend/waker``), so results are painted as soon as they come.
///
/// ```swift
/// let inbox = ActionInbox()                   // the glue's sink writes log lines and session news here
/// let runner = AppRunner(state: AppState(server: url), backend: terminal, inbox: inbox) { call in
///     await glue.perform(call)                // CardAPI → Result<CallResult, UIFailure>
/// }
/// let finalState = await runner.run()         // returns after `q`; the terminal is restored
/// ```
@MainActor
public final class AppRunner {
    /// Performs one call; runs off the main actor, as a task per call.
    public typealias Performer = @Sendable (AppCall) async -> CallOutcome
    /// Performs one call, telling how far a long one has got through the reporter.
    public typealias ReportingPerformer = @Sendable (AppCall, ProgressReporter) async -> CallOutcome
    /// Opens a URL outside the program (a browser, a mail program); returns why it could not.
    public typealias Opener = @Sendable (String) -> String?

    /// The state as of the last turn.
    public private(set) var state: AppState
    /// The one ordered channel to the loop: send actions here from any thread.
    public let inbox: ActionInbox
    /// Whether the last turn took news from the inbox (the next wait is then one frame at most).
    private var tookNews = false
    private var inboxFrameMilliseconds: Int {
        let (seconds, attoseconds) = inbox.frame.components
        return max(1, Int(seconds) * 1000 + Int(attoseconds / 1_000_000_000_000_000))
    }
    /// How many frames were handed to the backend (for tests and benchmarks).
    public private(set) var framesPresented = 0

    private let backend: any TerminalBackend
    private let perform: ReportingPerformer
    private let opener: Opener?
    private let uptime: () -> Duration
    private let pollMilliseconds: Int
    private var calls: [CallID: Task<Void, Never>] = [:]
    private var started = false
    /// Called once, right after the first frame is on the terminal: background work the glue
    /// started with the interface waits for it rather than competing with the first paint.
    public var firstFramePainted: (@Sendable () -> Void)?

    /// A loop over `backend`, starting from `state`.
    ///
    /// - Parameters:
    ///   - state: Where the app starts (usually the login screen).
    ///   - backend: The terminal.
    ///   - clock: Time for ticks (spinner, message expiry); tests pass their own.
    ///   - pollMilliseconds: How long one turn waits for a key when nothing arrives in the
    ///     inbox: the rate of clock ticks (spinner, message expiry) while idle.
    ///   - inbox: The channel the glue writes into (results go there too); the runner makes
    ///     it wake `backend`.
    ///   - opener: Opens a web or `mailto:` link outside the program.
    ///   - perform: Performs a call through CardAPI and maps its errors to ``UIFailure``.
    public convenience init<C: Clock>(
        state: AppState, backend: any TerminalBackend, clock: C, pollMilliseconds: Int = 50,
        inbox: ActionInbox = ActionInbox(), opener: Opener? = nil, perform: @escaping Performer
    ) where C.Duration == Duration {
        self.init(
            state: state, backend: backend, clock: clock, pollMilliseconds: pollMilliseconds, inbox: inbox,
            opener: opener,
            reporting: { call, _ in await perform(call) })
    }

    /// A loop over `backend` whose performer reports the progress of long calls (an import):
    /// each report reaches the reducer through the inbox as ``AppAction/progress(_:_:)``.
    public init<C: Clock>(
        state: AppState, backend: any TerminalBackend, clock: C, pollMilliseconds: Int = 50,
        inbox: ActionInbox = ActionInbox(), opener: Opener? = nil, reporting perform: @escaping ReportingPerformer
    ) where C.Duration == Duration {
        let start = clock.now
        self.state = state
        self.backend = backend
        inbox.setWake(backend.waker)
        self.inbox = inbox
        self.opener = opener
        self.perform = perform
        self.pollMilliseconds = max(0, pollMilliseconds)
        self.uptime = { start.duration(to: clock.now) }
    }

    /// A loop over `backend` timed by the continuous clock.
    public convenience init(
        state: AppState, backend: any TerminalBackend, pollMilliseconds: Int = 50, inbox: ActionInbox = ActionInbox(),
        opener: Opener? = nil, perform: @escaping Performer
    ) {
        self.init(
            state: state, backend: backend, clock: ContinuousClock(), pollMilliseconds: pollMilliseconds, inbox: inbox,
            opener: opener, perform: perform)
    }

    /// A loop over `backend` timed by the continuous clock, whose performer reports progress.
    public convenience init(
        state: AppState, backend: any TerminalBackend, pollMilliseconds: Int = 50, inbox: ActionInbox = ActionInbox(),
        opener: Opener? = nil, reporting perform: @escaping ReportingPerformer
    ) {
        self.init(
            state: state, backend: backend, clock: ContinuousClock(), pollMilliseconds: pollMilliseconds, inbox: inbox,
            opener: opener, reporting: perform)
    }

    /// Runs until the user quits, then cancels what is in flight and restores the terminal.
    ///
    /// - Returns: The final state.
    @discardableResult
    public func run() async -> AppState {
        while await step() {}
        await finishSending()
        finish()
        return state
    }

    /// After a quit, keeps the loop turning (results, time, frames) while the user's changes
    /// are still on their way to the server, so a save pressed just before `q` is not lost; at
    /// most `timeout`, and Ctrl-C (or a termination signal) stops waiting at once.
    ///
    /// - Returns: Whether every change reached the server (or failed there) in time.
    @discardableResult
    public func finishSending(timeout: Duration = .seconds(5)) async -> Bool {
        let deadline = uptime() + timeout
        while state.pendingChanges > 0, uptime() < deadline {
            if let event = backend.nextEvent(timeoutMilliseconds: pollMilliseconds) {
                switch event {
                case .key(.ctrl("c")): return false
                case .key, .paste, .mouse: break
                case .resize(let width, let height): apply(.resize(width: width, height: height))
                }
            }
            for action in inbox.drain() {
                if case .completed(let id, _) = action { calls[id] = nil }
                apply(action)
            }
            apply(.tick(now: uptime()))
            present()
            await Task.yield()
        }
        return state.pendingChanges == 0
    }

    /// One turn of the loop; the first also adopts the terminal's size and paints a frame.
    ///
    /// - Returns: `false` once the user has quit.
    public func step() async -> Bool {
        if !started {
            started = true
            let size = backend.size
            apply(.resize(width: size.width, height: size.height))
            apply(.tick(now: uptime()))
            present()
            firstFramePainted?()
            firstFramePainted = nil
        }
        guard !state.isQuitting else { return false }
        var changed = false
        // After a turn that took news, come back within the inbox's frame: news sent meanwhile
        // does not wake the loop (at most one wake-up per frame, see ActionInbox.frame).
        var wait = tookNews ? min(pollMilliseconds, inboxFrameMilliseconds) : pollMilliseconds
        tookNews = false
        // Take every key already typed (a paste) before painting once.
        for _ in 0..<256 {
            guard let event = backend.nextEvent(timeoutMilliseconds: wait) else { break }
            wait = 0
            changed = true
            switch event {
            case .key(let key): apply(.key(key))
            case .resize(let width, let height): apply(.resize(width: width, height: height))
            case .paste(let text): apply(.paste(text))
            case .mouse(let mouse): apply(.mouse(mouse))
            }
            if state.isQuitting { break }
        }
        for action in inbox.drain() {
            if case .completed(let id, _) = action { calls[id] = nil }
            apply(action)
            changed = true
            tookNews = true
        }
        let before = state.timedAppearance
        apply(.tick(now: uptime()))
        if !state.isQuitting, changed || state.timedAppearance != before { present() }
        await Task.yield()
        return !state.isQuitting
    }

    /// Cancels the calls in flight and restores the terminal. `run()` calls it.
    public func finish() {
        for task in calls.values { task.cancel() }
        calls = [:]
        inbox.setWake(nil)
        backend.restore()
    }

    /// Reduces `action` and starts its effects.
    public func apply(_ action: AppAction) {
        for effect in state.reduce(action) {
            switch effect {
            case .perform(let id, let call):
                let perform = perform
                let inbox = inbox
                let reporter = ProgressReporter { inbox.send(.progress(id, $0)) }
                calls[id] = Task.detached {
                    let outcome = await perform(call, reporter)
                    inbox.send(.completed(id, outcome))
                }
            case .cancel(let id):
                // The task ends its own way; its outcome still comes back through the inbox.
                calls[id]?.cancel()
            case .writeToTerminal(let bytes):
                backend.writeToTerminal(bytes)
            case .redraw:
                backend.requestFullRepaint()
            case .discardTypeahead:
                backend.discardPendingInput()
            case .copyToClipboard(let text):
                backend.copyToClipboard(text)
            case .openExternally(let url):
                let problem = opener.map { $0(url) } ?? "opening links is not available here"
                if let problem { apply(.notice(.error, "Could not open \(url): \(problem)")) }
            case .quit:
                break
            }
        }
    }

    private func present() {
        backend.present(Renderer.render(state))
        framesPresented += 1
    }
}

/// How a long call tells the main loop how far it has got: each report becomes an
/// ``AppAction/progress(_:_:)`` in the inbox, ordered with the call's log lines.
public struct ProgressReporter: Sendable {
    private let send: @Sendable (CallProgress) -> Void

    /// A reporter sending through `send`.
    public init(_ send: @escaping @Sendable (CallProgress) -> Void) {
        self.send = send
    }

    /// A reporter that drops every report (a call run outside the loop).
    public static let ignoring = ProgressReporter { _ in }

    /// Reports `progress`.
    public func report(_ progress: CallProgress) { send(progress) }
}
