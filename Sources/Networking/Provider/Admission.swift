public import Foundation
import Synchronization

/// Lets at most ``limit`` requests of one host be adapted and sent at once; the others wait,
/// first come first served, and are adapted (take their token) only when admitted.
///
/// Every ``Provider`` has one (``Provider/admission``), by default with the limit its transport
/// gives (``Transport/connectionsPerHost``: 8 for ``LiveTransport``). A request takes a slot
/// before the interceptors' `adapt` of its first attempt and keeps it through its retries, so a
/// request that got a 401 still holds its slot while its interceptor refreshes the token; it gives
/// the slot back when its last attempt is done (a success as soon as the transport returns it),
/// and while it waits out a ``RetryDecision/retryAfter(_:)`` delay. Requests sent while the connections are busy would
/// only queue inside the transport anyway — but holding them here means they are adapted
/// with the token that is current when they actually go, not the one current when they were made.
///
/// Waiting costs no thread (a continuation per waiter). A waiter whose task is cancelled leaves
/// the queue at once, runs no interceptor, sends nothing and fails with ``NetworkError/cancelled``.
///
/// An interceptor can shut the gate of a host while it repairs something every request needs —
/// typically a token refresh after a 401 — with ``hold(hostOf:isolation:during:)``: requests
/// already admitted carry on, nobody new is admitted until every hold has ended.
///
/// ```swift
/// let admission = Admission(for: transport)             // or Admission(limit: 4)
/// let auth = AuthInterceptor(session, admission: admission)
/// let cards = Provider<CardService>(transport: transport, interceptors: [auth], admission: admission)
/// // in AuthInterceptor.retry, after a 401:
/// try await admission.hold(hostOf: request.url) { try await session.refresh() }
/// ```
///
/// Providers that share an `Admission` share its limit. Never send a request through an
/// admission from inside a hold on the same host (the refresh request above goes through another
/// provider), and never from an interceptor's `retry` through the same provider with a limit of 1:
/// it would wait for a slot its own caller holds.
public final class Admission: Sendable {
    /// The most requests per host adapted and sent at once; `nil` for no limit (only holds make
    /// requests wait).
    public let limit: Int?

    let state = Mutex(AdmissionState())
    let nextWaiter = Atomic<UInt64>(0)
    /// ``limit``, or `Int.max` for none.
    let slots: Int

    /// An admission letting `limit` requests per host through at once (at least 1), or any number
    /// for `nil`.
    public init(limit: Int?) {
        self.limit = limit.map { max(1, $0) }
        self.slots = self.limit ?? .max
    }

    /// An admission with the limit `transport` gives (``Transport/connectionsPerHost``).
    public convenience init(for transport: any Transport) {
        self.init(limit: transport.connectionsPerHost)
    }

    /// What the gate of a host is doing now.
    public struct HostStatus: Sendable, Hashable {
        /// Requests admitted and not yet done.
        public var running: Int
        /// Requests waiting to be admitted.
        public var waiting: Int
        /// Holds in force (see ``Admission/hold(hostOf:isolation:during:)``).
        public var holds: Int

        /// A status.
        public init(running: Int, waiting: Int, holds: Int) {
            self.running = running
            self.waiting = waiting
            self.holds = holds
        }
    }

    /// What the gate of `url`'s host is doing now (for tests and diagnostics).
    public func status(for url: URL) -> HostStatus {
        let key = Self.hostKey(for: url)
        return state.withLock { state in
            guard let gate = state.gates[key]?.gate else { return HostStatus(running: 0, waiting: 0, holds: 0) }
            return HostStatus(running: gate.running, waiting: gate.waiting, holds: gate.holds)
        }
    }

    /// Shuts the gate of `url`'s host while `operation` runs: requests already admitted carry on
    /// (their retries included), requests not yet admitted wait until `operation` has finished
    /// and no other hold is in force. Holds nest and may overlap.
    ///
    /// - Returns: what `operation` returns.
    /// - Throws: what `operation` throws; the hold ends either way.
    public func hold<T>(
        hostOf url: URL,
        isolation: isolated (any Actor)? = #isolation,
        during operation: () async throws -> T
    ) async rethrows -> T {
        let key = Self.hostKey(for: url)
        let box = state.withLock { state in
            let box = state.box(for: key, limit: slots)
            box.gate.hold()
            return box
        }
        defer {
            let admitted = state.withLock { state in
                let admitted = box.gate.endHold()
                state.forgetIfIdle(box)
                return admitted
            }
            for waiter in admitted { waiter.resume(returning: box) }
        }
        return try await operation()
    }
}
