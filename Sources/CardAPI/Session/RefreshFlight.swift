import Foundation
import Synchronization
import TokenStore

/// The one token refresh in flight, and everyone waiting for it.
///
/// Waiters are plain continuations, so a waiter whose task is cancelled stops waiting at once
/// with `CancellationError` while the refresh — an unstructured task of its own — and every
/// other waiter carry on.
final class RefreshFlight: Sendable {
    private struct State {
        var result: Result<TokenItem, CardAPIError>?
        var waiters: [UInt64: CheckedContinuation<TokenItem, any Error>] = [:]
        var nextID: UInt64 = 0
    }

    private let state = Mutex(State())

    /// How many tasks are waiting now.
    var waiterCount: Int { state.withLock { $0.waiters.count } }

    /// The refreshed tokens, once the refresh is done.
    ///
    /// - Throws: the refresh's error, or ``CardAPIError/cancelled`` if the waiting task is cancelled.
    func wait() async throws(CardAPIError) -> TokenItem {
        let id = state.withLock { state -> UInt64 in
            state.nextID += 1
            return state.nextID
        }
        do {
            return try await withTaskCancellationHandler {
                try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<TokenItem, any Error>) in
                    let ready: Result<TokenItem, any Error>? = state.withLock { state in
                        if let result = state.result { return result.mapError { $0 } }
                        if Task.isCancelled { return .failure(CancellationError()) }
                        state.waiters[id] = continuation
                        return nil
                    }
                    if let ready { continuation.resume(with: ready) }
                }
            } onCancel: {
                let waiter = state.withLock { $0.waiters.removeValue(forKey: id) }
                waiter?.resume(throwing: CancellationError())
            }
        } catch {
            throw ResponseJudge.error(from: error)
        }
    }

    /// Ends the flight: every waiter, present and future, gets `result`.
    func finish(_ result: Result<TokenItem, CardAPIError>) {
        let waiters = state.withLock { state -> [CheckedContinuation<TokenItem, any Error>] in
            guard state.result == nil else { return [] }
            state.result = result
            defer { state.waiters.removeAll() }
            return Array(state.waiters.values)
        }
        for waiter in waiters { waiter.resume(with: result.mapError { $0 }) }
    }
}
