import Networking
import Synchronization

/// The requests that used their one retry, until they end.
final class RetryMarks: Sendable {
    private let marked = Mutex<Set<RequestID>>([])

    /// Records that `id` retries; `false` when it already had.
    func mark(_ id: RequestID) -> Bool {
        marked.withLock { $0.insert(id).inserted }
    }

    /// Forgets `id` (its request is over).
    func forget(_ id: RequestID) {
        marked.withLock { marked in
            if !marked.isEmpty { marked.remove(id) }
        }
    }

    /// How many requests are marked (for tests: none once every request is over).
    var count: Int { marked.withLock { $0.count } }
}
