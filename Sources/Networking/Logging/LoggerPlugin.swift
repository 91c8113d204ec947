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
            now: @escaping @Sendable () -> Date = Date.init
        ) {
            self.redaction = redaction
            self.bodyPreviewLimit = max(0, bodyPreviewLimit)
            self.recentCapacity = recentCapacity
            self.subscriberBufferSize = max(1, subscriberBufferSize)
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
        var recent: RingBuffer<NetworkEvent>
        var subscribers: [UInt64: AsyncStream<NetworkEvent>.Continuation] = [:]
        var nextSubscriber: UInt64 = 0
        var nextEventID: UInt64 = 0
        var started: [AttemptKey: ContinuousClock.Instant] = [:]
    }

    /// The configuration.
    public let configuration: Configuration
    let state: Mutex<State>
    private let logger: Logger?
    private let formatter: NetworkEventFormatter

    /// A logger plugin; `logger`, if given, also receives every event as a formatted line
    /// with metadata (see ``NetworkEvent/logLevel``).
    public init(configuration: Configuration = Configuration(), logger: Logger? = nil,
                formatter: NetworkEventFormatter = NetworkEventFormatter()) {
        self.configuration = configuration
        self.state = Mutex(State(recent: RingBuffer(capacity: configuration.recentCapacity)))
        self.logger = logger
        self.formatter = formatter
    }

    /// A new stream of every event recorded from now on; call once per subscriber. The stream
    /// ends when the subscriber stops iterating (its task is cancelled).
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
        state.withLock { $0.recent.elements }
    }

    /// The number of live ``events()`` subscribers.
    public var subscriberCount: Int { state.withLock { $0.subscribers.count } }

    /// Forgets the recent events.
    public func clearRecent() {
        state.withLock { $0.recent.removeAll() }
    }

    /// Stores `event`, hands it to every subscriber, and logs it.
    func record(_ event: NetworkEvent) {
        var event = event
        state.withLock { state in
            state.nextEventID += 1
            event.id = state.nextEventID
            state.recent.append(event)
            for continuation in state.subscribers.values { continuation.yield(event) }
        }
        if let logger { logger.log(event, formatter: formatter) }
    }

    // MARK: Plugin hooks

    /// Records `created`.
    public func prepare(_ request: Request, target: any TargetType) -> Request {
        if configuration.recordsCreated { record(requestEvent(.created, for: request)) }
        return request
    }

    /// Records `sent` and starts the attempt's clock.
    public func willSend(_ request: Request, target: any TargetType) {
        let now = ContinuousClock.now
        state.withLock { $0.started[AttemptKey(request: request.id, attempt: request.attempt)] = now }
        record(requestEvent(.sent, for: request))
    }

    /// Records `received` (any status) or `failed`.
    public func didReceive(_ result: Result<Response, NetworkError>, for request: Request, target: any TargetType) {
        let started = state.withLock { $0.started.removeValue(forKey: AttemptKey(request: request.id, attempt: request.attempt)) }
        let duration = started.map { ContinuousClock.now - $0 }
        switch result {
        case .success(let response), .failure(.unacceptableStatus(let response)):
            record(responseEvent(response, for: request, duration: duration))
        case .failure(let error):
            record(failureEvent(error, kind: .failed, for: request, duration: duration, retryDelay: nil))
        }
    }

    /// Records `retrying`.
    public func willRetry(_ request: Request, dueTo error: NetworkError, after delay: Duration, target: any TargetType) {
        record(failureEvent(error, kind: .retrying, for: request, duration: nil, retryDelay: delay))
    }
}
