/// The main loop: reads a key (waiting at most a short poll), reduces it, starts the effects
/// as tasks whose results come back as actions, merges outside actions, ticks the clock,
/// renders and presents. Nothing in it waits for the network, and an action arriving in the
/// ``inbox`` ends the wait for a key at once (through the backend's
/// ``TerminalBackend/waker``), so results are painted as soon as they come.
///
/// ```swift
/// let runner = AppRunner(state: AppState(server: url), backend: terminal) { request in
///     await glue.perform(request)           // CardAPI → Result<Response, UIFailure>
/// }
/// runner.listen(to: logLines)                 // AsyncStream<AppAction> of .log(…)
/// runner.listen(to: sessionChanges)           // AsyncStream<AppAction> of .session(…)
/// let finalState = await runner.run()         // returns after `q`; the terminal is restored
/// ```
@MainActor
public final class AppRunner {
    /// Performs one request; runs off the main actor, as a task per request.
    public typealias Performer = @Sendable (Request) async -> Result<Response, UIFailure>

    /// The state as of the last turn.
    public private(set) var state: AppState
    /// Send actions here from any thread (or use ``listen(to:)``); each one wakes the loop.
    public let inbox: ActionInbox
    /// How many frames were handed to the backend (for tests and benchmarks).
    public private(set) var framesPresented = 0

    private let backend: any TerminalBackend
    private let perform: Performer
    private let uptime: () -> Duration
    private let pollMilliseconds: Int
    private var requests: [RequestID: Task<Void, Never>] = [:]
    private var listeners: [Task<Void, Never>] = []
    private var started = false

    /// A loop over `backend`, starting from `state`.
    ///
    /// - Parameters:
    ///   - state: Where the app starts (usually the login screen).
    ///   - backend: The terminal.
    ///   - clock: Time for ticks (spinner, message expiry); tests pass their own.
    ///   - pollMilliseconds: How long one turn waits for a key when nothing arrives in the
    ///     inbox: the rate of clock ticks (spinner, message expiry) while idle.
    ///   - perform: Performs a request through CardAPI and maps its errors to ``UIFailure``.
    public init<C: Clock>(
        state: AppState, backend: any TerminalBackend, clock: C, pollMilliseconds: Int = 50,
        perform: @escaping Performer
    ) where C.Duration == Duration {
        let start = clock.now
        self.state = state
        self.backend = backend
        self.inbox = ActionInbox(wake: backend.waker)
        self.perform = perform
        self.pollMilliseconds = max(0, pollMilliseconds)
        self.uptime = { start.duration(to: clock.now) }
    }

    /// A loop over `backend` timed by the continuous clock.
    public convenience init(
        state: AppState, backend: any TerminalBackend, pollMilliseconds: Int = 50, perform: @escaping Performer
    ) {
        self.init(state: state, backend: backend, clock: ContinuousClock(), pollMilliseconds: pollMilliseconds, perform: perform)
    }

    /// Forwards every action of `actions` (log lines, session news) to the loop until it ends.
    public func listen(to actions: AsyncStream<AppAction>) {
        let inbox = inbox
        listeners.append(Task.detached {
            for await action in actions { inbox.send(action) }
        })
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
                case .key: break
                case .resize(let width, let height): apply(.resize(width: width, height: height))
                }
            }
            for action in inbox.drain() {
                if case .completed(let id, _) = action { requests[id] = nil }
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
        }
        guard !state.isQuitting else { return false }
        var changed = false
        var wait = pollMilliseconds
        // Take every key already typed (a paste) before painting once.
        for _ in 0..<256 {
            guard let event = backend.nextEvent(timeoutMilliseconds: wait) else { break }
            wait = 0
            changed = true
            switch event {
            case .key(let key): apply(.key(key))
            case .resize(let width, let height): apply(.resize(width: width, height: height))
            }
            if state.isQuitting { break }
        }
        for action in inbox.drain() {
            if case .completed(let id, _) = action { requests[id] = nil }
            apply(action)
            changed = true
        }
        let before = state.timedAppearance
        apply(.tick(now: uptime()))
        if !state.isQuitting, changed || state.timedAppearance != before { present() }
        await Task.yield()
        return !state.isQuitting
    }

    /// Cancels requests and listeners, and restores the terminal. `run()` calls it.
    public func finish() {
        for task in requests.values { task.cancel() }
        requests = [:]
        for task in listeners { task.cancel() }
        listeners = []
        backend.restore()
    }

    /// Reduces `action` and starts its effects.
    public func apply(_ action: AppAction) {
        for effect in state.reduce(action) {
            switch effect {
            case .perform(let id, let request):
                let perform = perform
                let inbox = inbox
                requests[id] = Task.detached {
                    let result = await perform(request)
                    inbox.send(.completed(id, result))
                }
            case .redraw:
                backend.requestFullRepaint()
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
