import Foundation
import Logging
import Synchronization

/// Records every exchange as typed, redacted ``NetworkEvent``s: for a log pane (subscribe with
/// ``events()``), a log file, or swift-log. It never prints.
///
/// One instance can serve several providers. Redaction is on by default (see ``Redaction``).
///
/// ```swift
/// let logger = LoggerPlugin(configuration: .init(tagExtractor: .jsonField("errorCode")))
/// let provider = Provider<CardService>(transport: transport, plugins: [logger])
/// Task { for await event in logger.events() { pane.append(formatter.line(event)) } }
/// ```
public final class LoggerPlugin: Plugin {
    /// What is recorded and how much is kept.
    public struct Configuration: Sendable {
        /// What to hide. Default: ``Redaction/default``.
        public var redaction: Redaction
        /// The most body bytes shown in a preview. Default: 4096.
        public var bodyPreviewLimit: Int
        /// How many events ``recent()`` keeps. Default: 500.
        public var recentCapacity: Int
        /// How many undelivered events each ``events()`` stream buffers before dropping the
        /// oldest, so a slow subscriber never grows memory without bound. Default: 1000.
        public var subscriberBufferSize: Int
        /// Picks a short tag out of responses, or `nil` (the default) for none.
        public var tagExtractor: TagExtractor?
        /// Whether ``NetworkEvent/Kind/created`` events are recorded. Default: `true`.
        public var recordsCreated: Bool
        /// How long events may wait to be handed to ``events()`` subscribers: a background task
        /// redacts and delivers them in batches, so a busy client wakes a subscriber once per
        /// interval instead of once per event, and never pays for redaction itself. `.zero`
        /// redacts and hands over each event at once, on the request path. ``recent()`` and the
        /// swift-log bridge are never delayed. Default: 20 ms.
        public var deliveryInterval: Duration
        /// The wall clock for timestamps. Default: `Date.init`.
        public var now: @Sendable () -> Date

        /// A configuration; every parameter has the default described on its property.
        public init(
            redaction: Redaction = .default,
            bodyPreviewLimit: Int = 4096,
            recentCapacity: Int = 500,
            subscriberBufferSize: Int = 1000,
            tagExtractor: TagExtractor? = nil,
            recordsCreated: Bool = true,
            deliveryInterval: Duration = .milliseconds(20),
            now: @escaping @Sendable () -> Date = Date.init
        ) {
            self.redaction = redaction
            self.bodyPreviewLimit = max(0, bodyPreviewLimit)
            self.recentCapacity = recentCapacity
            self.subscriberBufferSize = max(1, subscriberBufferSize)
            self.tagExtractor = tagExtractor
            self.recordsCreated = recordsCreated
            self.deliveryInterval = max(.zero, deliveryInterval)
            self.now = now
        }
    }

    struct AttemptKey: Hashable {
        let request: RequestID
        let attempt: Int
    }

    struct State {
        var recent: RingBuffer<LoggedEntry>
        var subscribers: [UInt64: AsyncStream<NetworkEvent>.Continuation] = [:]
        var nextSubscriber: UInt64 = 0
        var nextEventID: UInt64 = 0
        var started: [AttemptKey: ContinuousClock.Instant] = [:]
        var undelivered: [LoggedEntry] = []
        var deliveryScheduled = false
        /// Entries pushed out of the ring, released together off the request path.
        var evicted: [LoggedEntry] = []
    }

    /// How many evicted entries are released at once, in the background.
    static let releaseBatchSize = 64

    /// The configuration.
    public let configuration: Configuration
    let state: Mutex<State>
    let materializer: EventMaterializer
    private let keptBodyBytes: Int
    private let logger: Logger?
    private let formatter: NetworkEventFormatter

    /// A logger plugin; `logger`, if given, also receives every event as a formatted line
    /// with metadata (see ``NetworkEvent/logLevel``).
    public init(
        configuration: Configuration = Configuration(),
        logger: Logger? = nil,
        formatter: NetworkEventFormatter = NetworkEventFormatter()
    ) {
        self.configuration = configuration
        self.state = Mutex(State(recent: RingBuffer(capacity: configuration.recentCapacity)))
        self.materializer = EventMaterializer(configuration: configuration)
        self.keptBodyBytes = LoggedEntry.keptBodyBytes(previewLimit: configuration.bodyPreviewLimit)
        self.logger = logger
        self.formatter = formatter
    }

    /// A new stream of every event recorded from now on; call once per subscriber. The stream
    /// ends when the subscriber's task is cancelled or the stream is dropped.
    ///
    /// Events are redacted and handed over in batches by a background task (see
    /// ``Configuration/deliveryInterval``), so the requests being logged never wait for them.
    public func events() -> AsyncStream<NetworkEvent> {
        let (stream, continuation) = AsyncStream.makeStream(
            of: NetworkEvent.self, bufferingPolicy: .bufferingNewest(configuration.subscriberBufferSize))
        let id = state.withLock { state -> UInt64 in
            state.nextSubscriber += 1
            state.subscribers[state.nextSubscriber] = continuation
            return state.nextSubscriber
        }
        continuation.onTermination = { [weak self] _ in
            self?.state.withLock { _ = $0.subscribers.removeValue(forKey: id) }
        }
        return stream
    }

    /// The most recent events, oldest first (at most ``Configuration/recentCapacity``).
    public func recent() -> [NetworkEvent] {
        state.withLock { $0.recent.elements }.map(\.event)
    }

    /// The number of live ``events()`` subscribers.
    public var subscriberCount: Int { state.withLock { $0.subscribers.count } }

    /// Forgets the recent events.
    public func clearRecent() {
        state.withLock { $0.recent.removeAll() }
    }

    /// Stores a capture, hands it to every subscriber (now, or with the next delivery), and
    /// logs it if a logger wants it.
    func record(_ capture: LoggedEntry.Capture) {
        let timestamp = configuration.now()
        let interval = configuration.deliveryInterval
        let (entry, evicted, scheduleDelivery) = state.withLock { state -> (LoggedEntry, [LoggedEntry], Bool) in
            state.nextEventID += 1
            let entry = LoggedEntry(
                id: state.nextEventID, timestamp: timestamp, capture: capture, materializer: materializer)
            var evicted: [LoggedEntry] = []
            if let old = state.recent.append(entry) {
                state.evicted.append(old)
                if state.evicted.count >= Self.releaseBatchSize {
                    swap(&evicted, &state.evicted)
                    state.evicted.reserveCapacity(Self.releaseBatchSize)
                }
            }
            guard !state.subscribers.isEmpty else { return (entry, evicted, false) }
            if interval == .zero {
                let event = entry.event
                for continuation in state.subscribers.values { continuation.yield(event) }
                return (entry, evicted, false)
            }
            if state.undelivered.count >= configuration.subscriberBufferSize { state.undelivered.removeFirst() }
            state.undelivered.append(entry)
            guard !state.deliveryScheduled else { return (entry, evicted, false) }
            state.deliveryScheduled = true
            return (entry, evicted, true)
        }
        if !evicted.isEmpty {
            // Freeing an exchange captured hundreds of requests ago touches memory long gone
            // from the cache (a dozen objects per response): do it off the request path.
            Task.detached(priority: .background) { withExtendedLifetime(evicted) {} }
        }
        if scheduleDelivery {
            Task { [weak self] in
                try? await Task.sleep(for: interval)
                self?.deliver()
            }
        }
        if let logger, logger.logLevel <= capture.logLevel { logger.log(entry.event, formatter: formatter) }
    }

    /// Builds every undelivered event and hands it to every subscriber, outside the lock so
    /// recording never waits for it; the scheduled flag stays set until nothing is left, which
    /// keeps order.
    private func deliver() {
        while true {
            let (entries, subscribers) = state.withLock { state in
                let entries = state.undelivered
                state.undelivered.removeAll(keepingCapacity: true)
                if entries.isEmpty { state.deliveryScheduled = false }
                return (entries, Array(state.subscribers.values))
            }
            guard !entries.isEmpty else { return }
            for entry in entries {
                let event = entry.event
                for continuation in subscribers { continuation.yield(event) }
            }
        }
    }

    // MARK: Plugin hooks

    /// Records `created`.
    public func prepare(_ request: Request, target: any TargetType) -> Request {
        if configuration.recordsCreated {
            record(.request(.created, LoggedEntry.trimmed(request, to: keptBodyBytes), bodyLength: request.body.length))
        }
        return request
    }

    /// Records `sent` and starts the attempt's clock.
    public func willSend(_ request: Request, target: any TargetType) {
        let now = ContinuousClock.now
        state.withLock { $0.started[AttemptKey(request: request.id, attempt: request.attempt)] = now }
        record(.request(.sent, LoggedEntry.trimmed(request, to: keptBodyBytes), bodyLength: request.body.length))
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
                    LoggedEntry.trimmed(response, to: keptBodyBytes), byteCount: response.byteCount, duration: duration)
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
