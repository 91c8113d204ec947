import AsyncHTTPClient
import CardAPI
import CardWalletLive
import CardWalletUI
import Dispatch
import Foundation
import NIOCore
import Networking
import Synchronization
import TokenStore

/// A `CardAPIClient` built the way the TUI builds one (`LiveBackends.makeForTerminal` with the
/// default `ClientSettings`): a `LoggerPlugin` with the `errorCode` tag extractor, no `created`
/// events and no ring of recent events, writing into a `LiveEventSink` — the one ordered
/// channel — whose inbox a thread of its own drains as the TUI's main loop does (woken when the
/// inbox stops being empty, making every log line). Close it with ``close()``.
final class AppClient: Sendable {
    /// The client.
    let client: CardAPIClient
    /// The logger plugin every request goes through.
    let log: LoggerPlugin
    private let pane: Pane?

    /// The settings the TUI starts with.
    static let settings = ClientSettings.defaults

    /// A client on `transport` for `server`, with tokens in `store`, judging expiry by `wallClock`;
    /// without `logPane`, the plugin has no sink (to tell the plugin's cost from the pane's).
    init(
        server: URL, store: TokenStore, transport: any Transport, wallClock: any SessionClock = SystemSessionClock(),
        logPane: Bool = true
    ) {
        let pane = logPane ? Pane() : nil
        let log = LoggerPlugin(
            configuration: LiveBackends.loggerConfiguration(
                for: Self.settings, recordsCreated: LiveBackends.terminalRecordsCreated, recentCapacity: 0),
            sink: pane?.sink)
        self.log = log
        self.pane = pane
        client = CardAPIClient(
            configuration: LiveBackends.apiConfiguration(server: server, settings: Self.settings),
            tokenStore: store, transport: transport, plugins: [log], wallClock: wallClock)
        if let pane { client.session.report(to: pane.sink) }
    }

    /// Makes the log pane catch up with `requests` more requests (two lines each: sent and
    /// received), so a timed block pays for its own log work instead of the next block paying
    /// for it: waits (yielding) until the pane has made those lines, or 5 s have passed.
    func settle(after requests: Int) async {
        guard let pane else { return }
        let owed = pane.owed.add(2 * requests, ordering: .relaxed).newValue
        // The block's log work is done now, not at the pane's next frame: the block pays for
        // making the lines, not for the frame's wait.
        pane.turnNow()
        let clock = ContinuousClock()
        let deadline = clock.now + .seconds(5)
        while pane.made.load(ordering: .acquiring) < owed, clock.now < deadline {
            await Task.yield()
        }
    }

    /// What the TUI's runner does when a call ends: sends its outcome to the inbox, which wakes
    /// the loop (and the loop makes the lines of the exchanges before it).
    func completed() {
        pane?.sink.inbox.send(.tick(now: .zero))
    }

    /// Stops the log pane's thread and returns how many lines it made.
    func close() async -> Int {
        guard let pane else { return 0 }
        return await pane.stop()
    }

    /// The transport configuration `LiveBackends.make` derives from the default settings.
    static var transportConfiguration: LiveTransport.Configuration {
        LiveBackends.transportConfiguration(for: settings)
    }

    /// An `HTTPClient` configured exactly as `LiveTransport(configuration:)` configures its own,
    /// to share between the raw baseline and `LiveTransport(client:)`.
    static func httpClient(like configuration: LiveTransport.Configuration = transportConfiguration) -> HTTPClient {
        var settings = HTTPClient.Configuration()
        settings.timeout = .init(connect: .init(configuration.connectTimeout), read: .init(configuration.readTimeout))
        settings.connectionPool = .init(
            idleTimeout: .init(configuration.idleConnectionTimeout),
            concurrentHTTP1ConnectionsPerHostSoftLimit: configuration.maximumConnectionsPerHost)
        settings.connectionPool.retryConnectionEstablishment = configuration.retriesConnectionEstablishment
        settings.redirectConfiguration = .disallow
        settings.decompression = .disabled
        return HTTPClient(eventLoopGroup: HTTPClient.defaultEventLoopGroup, configuration: settings)
    }
}

/// The TUI's main loop as far as the log pane goes: a thread blocked until the inbox wakes it (or
/// the runner's 50 ms poll timeout passes), then draining it (which makes the log lines).
private final class Pane: Sendable {
    let sink: LiveEventSink
    let made = Atomic<Int>(0)
    let owed = Atomic<Int>(0)
    private let wakeUp = DispatchSemaphore(value: 0)
    private let stopping = Atomic<Bool>(false)
    private let finished = Mutex<CheckedContinuation<Int, Never>?>(nil)
    private let lines = Atomic<Int>(0)

    init() {
        let wakeUp = wakeUp
        sink = LiveEventSink(inbox: ActionInbox(wake: { wakeUp.signal() }, frame: .milliseconds(16)))
        let thread = Thread { [self] in loop() }
        thread.name = "cardwallet-bench.pane"
        thread.start()
    }

    private func loop() {
        var tookNews = false
        while true {
            // As the runner's turn: woken by the inbox, or its poll timeout (50 ms; one 16 ms
            // frame after a turn that took news, when the inbox leaves waking to the loop).
            _ = wakeUp.wait(timeout: .now() + .milliseconds(tookNews ? 16 : 50))
            var count = 0
            let drained = sink.inbox.drain()
            tookNews = !drained.isEmpty
            for action in drained {
                if case .log = action { count += 1 }
            }
            if count > 0 { made.add(count, ordering: .releasing) }
            if stopping.load(ordering: .acquiring) {
                let total = made.load(ordering: .acquiring)
                finished.withLock { $0?.resume(returning: total) }
                return
            }
        }
    }

    /// Makes the pane take a turn now.
    func turnNow() {
        wakeUp.signal()
    }

    func stop() async -> Int {
        await withCheckedContinuation { continuation in
            finished.withLock { $0 = continuation }
            stopping.store(true, ordering: .releasing)
            wakeUp.signal()
        }
    }
}
