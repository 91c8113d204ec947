import Synchronization

/// Request counts by route and status, as `GET /_admin/stats` returns them:
/// `{"requests": {"POST /auth/refresh": {"200": 3}}}`.
///
/// Routes are written as in `docs/API.md` (`GET /card/{cardId}`), without the `/v1` prefix;
/// requests that match no route count under ``unmatchedRoute``.
public struct RequestStatistics: Codable, Sendable, Equatable {
    /// The key under which requests to unknown routes (404) or with a wrong method (405) count.
    public static let unmatchedRoute = "(unmatched)"

    /// Route → status code (as text) → count.
    public var requests: [String: [String: Int]]

    /// Creates statistics from counts.
    public init(requests: [String: [String: Int]] = [:]) {
        self.requests = requests
    }

    /// How many requests to `route` got `status`, e.g. `count("POST /auth/refresh", status: 200)`.
    public func count(_ route: String, status: Int) -> Int {
        requests[route]?[String(status)] ?? 0
    }

    /// How many requests to `route` there were, whatever their status.
    public func count(_ route: String) -> Int {
        requests[route]?.values.reduce(0, +) ?? 0
    }

    /// How many requests there were in all.
    public var total: Int {
        requests.values.reduce(0) { $0 + $1.values.reduce(0, +) }
    }
}

/// Thread-safe counters behind ``RequestStatistics``.
final class StatisticsRecorder: Sendable {
    private let counts = Mutex(RequestStatistics())

    func record(route: String, status: Int) {
        counts.withLock { $0.requests[route, default: [:]][String(status), default: 0] += 1 }
    }

    var snapshot: RequestStatistics { counts.withLock { $0 } }

    func reset() { counts.withLock { $0 = RequestStatistics() } }
}
