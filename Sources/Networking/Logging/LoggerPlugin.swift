public import Foundation
public import Logging
import Synchronization

/// Records every exchange as typed, redacted ``NetworkEvent``s: for a log pane or a log file
/// (through the ``NetworkEventSink`` it is given), ``recent()``, or swift-log. It never prints.
///
/// One instance can serve several providers. Redaction is on by default (see ``Redaction``).
/// On the request path the plugin only captures (cheap copies of the request or response); the
/// redacted event is built when someone reads ``RecordedEvent/event``.
///
/// ```swift
/// let logger = LoggerPlugin(configuration: .init(tagExtractor: .jsonField("errorCode")), sink: pane)
/// let provider = Provider<CardService>(transport: transport, plugins: [logger])
/// ```
public final class LoggerPlugin: Plugin {
    /// What is recorded and how much is kept.
    public struct Configuration: Sendable {
        /// What to hide. Default: ``Redaction/default``.
        public var redaction: Redaction
        /// The most body bytes shown in a preview. Default: 4096.
        public var bodyPreviewLimit: Int
        /// How many events ``recent()`` keeps; 0 keeps none (a sink that keeps its own lines
        /// needs no second copy). Default: 500.
        public var recentCapacity: Int
        /// Picks a short tag out of responses, or `nil` (the default) for none.
        public var tagExtractor: TagExtractor?
        /// Whether ``NetworkEvent/Kind/created`` events are recorded. Default: `true`.
        public var recordsCreated: Bool
        /// The wall clock for timestamps. Default: `Date.init`.
        public var now: @Sendable () -> Date

        /// A configuration; every parameter has the default described on its property.
        public init(
            redaction: Redaction = .default,
            bodyPreviewLimit: Int = 4096,
            recentCapacity: Int = 500,
            tagExtractor: TagExtractor? = nil,
            recordsCreated: Bool = true,
            now: @escaping @Sendable () -> Date = Date.init
        ) {
            self.redaction = redaction
            self.bodyPreviewLimit = max(0, bodyPreviewLimit)
            self.recentCapacity = max(0, recentCapacity)
            self.tagExtractor = tagExtractor
            self.recordsCreated = recordsCreated
            self.now = now
        }
    }

    struct AttemptKey: Hashable {
        let request: RequestID
        let attempt: Int
    }

    struct State {
        var recent: RingBuffer<RecordedEvent>
        var nextEventID: UInt64 = 0
        var started: [AttemptKey: ContinuousClock.Instant] = [:]
        /// Entries pushed out of the ring, released together off the request path.
        var evicted: [RecordedEvent] = []
    }

    /// How many evicted entries are released at once, in the background.
    static let releaseBatchSize = 64

    /// The configuration.
    public let configuration: Configuration
    /// Where every recorded event goes, in order, or `nil`.
    public let sink: (any NetworkEventSink)?
    let state: Mutex<State>
    let materializer: EventMaterializer
    private let keptBodyBytes: Int
    private let logger: Logger?
    private let formatter: NetworkEventFormatter

    /// A logger plugin.
    ///
    /// - Parameters:
    ///   - configuration: What is recorded and kept.
    ///   - logger: Also receives every event as a formatted line with metadata, at
    ///     ``NetworkEvent/logLevel`` (events below its level are never built for it).
    ///   - formatter: Formats the lines `logger` receives.
    ///   - sink: Receives every event, synchronously and in order (see ``NetworkEventSink``).
    public init(
        configuration: Configuration = Configuration(),
        logger: Logger? = nil,
        formatter: NetworkEventFormatter = NetworkEventFormatter(),
        sink: (any NetworkEventSink)? = nil
    ) {
        self.configuration = configuration
        self.sink = sink
        self.state = Mutex(State(recent: RingBuffer(capacity: configuration.recentCapacity)))
        self.materializer = EventMaterializer(configuration: configuration)
        self.keptBodyBytes = RecordedEvent.keptBodyBytes(previewLimit: configuration.bodyPreviewLimit)
        self.logger = logger
        self.formatter = formatter
    }

    /// The most recent events, oldest first (at most ``Configuration/recentCapacity``).
    public func recent() -> [NetworkEvent] {
        state.withLock { $0.recent.elements }.map(\.event)
    }

    /// Forgets the recent events.
    public func clearRecent() {
        state.withLock { $0.recent.removeAll() }
    }

    /// Stores a capture in the ring, hands it to the sink, and logs it if the logger wants it.
    ///
    /// The sink is called under the plugin's lock, so it receives events in the order of their
    /// ids even when many requests record at once (its ``NetworkEventSink/record(_:)`` is an
    /// append, so the lock is held no longer for it).
    func record(_ capture: RecordedEvent.Capture) {
        let timestamp = configuration.now()
        let keepsRecent = configuration.recentCapacity > 0
        let sink = sink
        let (entry, evicted) = state.withLock { state -> (RecordedEvent, [RecordedEvent]) in
            state.nextEventID += 1
            let entry = RecordedEvent(
                id: state.nextEventID, timestamp: timestamp, capture: capture, materializer: materializer)
            var evicted: [RecordedEvent] = []
            if keepsRecent, let old = state.recent.append(entry) {
                state.evicted.append(old)
                if state.evicted.count >= Self.releaseBatchSize {
                    swap(&evicted, &state.evicted)
                    state.evicted.reserveCapacity(Self.releaseBatchSize)
                }
            }
            sink?.record(entry)
            return (entry, evicted)
        }
        if !evicted.isEmpty {
            // Freeing an exchange captured hundreds of requests ago touches memory long gone
            // from the cache (a dozen objects per response): do it off the request path.
            Task.detached(priority: .background) { withExtendedLifetime(evicted) {} }
        }
        if let logger, logger.logLevel <= capture.logLevel { logger.log(entry.event, formatter: formatter) }
    }

    // MARK: Plugin hooks

    /// Records `created`.
    public func prepare(_ request: Request, target: any TargetType) -> Request {
        if configuration.recordsCreated {
            record(
                .request(.created, RecordedEvent.trimmed(request, to: keptBodyBytes), bodyLength: request.body.length))
        }
        return request
    }

    /// Records `sent` and starts the attempt's clock.
    public func willSend(_ request: Request, target: any TargetType) {
        let now = ContinuousClock.now
        state.withLock { $0.started[AttemptKey(request: request.id, attempt: request.attempt)] = now }
        record(.request(.sent, RecordedEvent.trimmed(request, to: keptBodyBytes), bodyLength: request.body.length))
    }

    /// Records `received` (any status) or `failed`.
    public func didReceive(_ result: Result<Response, NetworkError>, for request: Request, target: any TargetType) {
        let started = state.withLock {
            $0.started.removeValue(forKey: AttemptKey(request: request.id, attempt: request.attempt))
        }
        let duration = started.map { ContinuousClock.now - $0 }
        switch result {
        case .success(let response), .failure(.unacceptableStatus(let response)):
            record(
                .response(
                    RecordedEvent.trimmed(response, to: keptBodyBytes), byteCount: response.byteCount,
                    duration: duration)
            )
        case .failure(let error):
            // Failures are rare: build the event now rather than keep the error alive.
            record(
                .built(
                    materializer.failureEvent(error, kind: .failed, for: request, duration: duration, retryDelay: nil)))
        }
    }

    /// Records `retrying`.
    public func willRetry(_ request: Request, dueTo error: NetworkError, after delay: Duration, target: any TargetType)
    {
        record(
            .built(materializer.failureEvent(error, kind: .retrying, for: request, duration: nil, retryDelay: delay)))
    }
}
