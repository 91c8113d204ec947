import Foundation

/// Runs blocking work (a pseudo-terminal read loop with `poll`) on a thread of its own, so it
/// never holds one of Swift concurrency's cooperative threads — two on this machine — while the
/// in-process mock server needs them.
enum OwnThread {
    /// The result of `body`, run on a new thread.
    static func run<T: Sendable>(_ body: @escaping @Sendable () throws -> T) async throws -> T {
        try await withCheckedThrowingContinuation { continuation in
            let thread = Thread {
                continuation.resume(with: Result { try body() })
            }
            thread.name = "cardwallet-bench.pty"
            thread.start()
        }
    }
}
