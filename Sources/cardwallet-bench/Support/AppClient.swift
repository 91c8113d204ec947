import AsyncHTTPClient
import CardAPI
import CardWalletUI
import Foundation
import Networking
import Synchronization
import TokenStore

/// A `CardAPIClient` built the way the TUI builds one (`LiveClient.make` with `TerminalApp`'s
/// settings): a `LoggerPlugin` with the `errorCode` tag extractor that hands events over in 20 ms
/// batches and records no `created` events,
/// and a subscriber draining `events()` through `LiveFeeds.logActions` into log lines, as the
/// log pane does. Close it with ``close()``.
final class AppClient: Sendable {
    /// The client.
    let client: CardAPIClient
    /// The logger plugin every request goes through.
    let log: LoggerPlugin
    private let pane: Task<Int, Never>
    /// Log lines the pane has made so far, and how many the requests sent so far will make.
    private let lines = LineCounts()
    private let hasPane: Bool

    /// The client settings' defaults (`ClientSettings.defaults` in the `cardwallet` target).
    enum Defaults {
        static let connectTimeout: Duration = .seconds(10)
        static let requestTimeout: Duration = .seconds(60)
        static let refreshMargin: Duration = .seconds(30)
        static let logBodyPreviewBytes = 4096
        /// `TerminalApp.logDelivery`: the TUI's plugin delivers events in 20 ms batches.
        static let logDelivery: Duration = .milliseconds(20)
    }

    /// A client on `transport` for `server`, with tokens in `store`, judging expiry by `wallClock`;
    /// without `logPane`, nothing subscribes to the plugin's events (to tell the plugin's cost
    /// from the pane's).
    init(
        server: URL, store: TokenStore, transport: any Transport, wallClock: any SessionClock = SystemSessionClock(),
        logPane: Bool = true
    ) {
        let log = LoggerPlugin(
            configuration: LoggerPlugin.Configuration(
                bodyPreviewLimit: Defaults.logBodyPreviewBytes, tagExtractor: .jsonField("errorCode"),
                recordsCreated: false, deliveryInterval: Defaults.logDelivery))
        self.log = log
        hasPane = logPane
        client = CardAPIClient(
            configuration: CardAPIConfiguration(
                server: server, session: SessionPolicy(refreshMargin: Defaults.refreshMargin),
                requestTimeout: Defaults.requestTimeout),
            tokenStore: store, transport: transport, plugins: [log], wallClock: wallClock)
        guard logPane else {
            pane = Task { 0 }
            return
        }
        let actions = LiveFeeds.logActions(from: log.events(), lines: LogLineMaker())
        let counts = lines
        pane = Task {
            var lines = 0
            for await action in actions {
                if case .log = action {
                    lines += 1
                    counts.made.add(1, ordering: .releasing)
                }
            }
            return lines
        }
    }

    /// Makes the log pane catch up with `requests` more requests (two lines each: sent and
    /// received), so a timed block pays for its own log work instead of the next block paying
    /// for it: hands the plugin's batch over at once and waits (yielding) until the pane has
    /// made those lines, or 5 s have passed.
    func settle(after requests: Int) async {
        log.flush()
        guard hasPane else { return }
        let owed = lines.owed.add(2 * requests, ordering: .relaxed).newValue
        let clock = ContinuousClock()
        let deadline = clock.now + .seconds(5)
        while lines.made.load(ordering: .acquiring) < owed, clock.now < deadline {
            await Task.yield()
        }
    }

    /// Stops the log pane's subscriber and returns how many lines it made.
    func close() async -> Int {
        pane.cancel()
        return await pane.value
    }

    /// The transport configuration `LiveClient.make` derives from the default settings.
    static var transportConfiguration: LiveTransport.Configuration {
        var configuration = LiveTransport.Configuration()
        configuration.connectTimeout = Defaults.connectTimeout
        configuration.readTimeout = min(configuration.readTimeout, Defaults.requestTimeout)
        configuration.requestTimeout = Defaults.requestTimeout
        return configuration
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

/// The log pane's progress: lines made, and lines the requests sent so far will make.
private final class LineCounts: Sendable {
    let made = Atomic<Int>(0)
    let owed = Atomic<Int>(0)
}
