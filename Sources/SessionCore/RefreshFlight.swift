import Foundation
import Synchronization
package import TokenStore

/// The one token refresh in flight, and everyone waiting for it: it answers with the new pair
/// and the ``PendingSave`` that writes it to the token file.
package typealias RefreshFlight<Failure: SessionFailure> = OneShot<Refreshed<Failure>, Failure>

/// What a refresh hands its waiters: the pair to use, and — when this refresh got it from the
/// server — the save of that pair, which may still be running.
package struct Refreshed<Failure: SessionFailure>: Sendable {
    /// The tokens to use now.
    package let item: TokenItem
    /// The save of ``item`` to the token file, `nil` when it needed none (a pair another process
    /// stored, or the session's current one).
    package let save: PendingSave<Failure>?

    package init(item: TokenItem, save: PendingSave<Failure>?) {
        self.item = item
        self.save = save
    }
}

/// A result that arrives once, for any number of waiters: a token refresh's
/// (``RefreshFlight``), or a token file save's (``PendingSave``).
///
/// Waiters are plain continuations, so a waiter whose task is cancelled stops waiting at once
/// with the failure's `cancelled` while the work — an unstructured task of its own — and every
/// other waiter carry on.
package final class OneShot<Value: Sendable, Failure: SessionFailure>: Sendable {
    private struct State {
        var result: Result<Value, Failure>?
        var waiters: [UInt64: CheckedContinuation<Value, any Error>] = [:]
        var nextID: UInt64 = 0
    }

    private let state = Mutex(State())

    package init() {}

    /// How many tasks are waiting now.
    package var waiterCount: Int { state.withLock { $0.waiters.count } }

    /// The result if it has arrived, without waiting.
    package var result: Result<Value, Failure>? { state.withLock { $0.result } }

    /// The value, once it has arrived.
    ///
    /// - Throws: the work's error, or `cancelled` if the waiting task is cancelled.
    package func wait() async throws(Failure) -> Value {
        let id = state.withLock { state -> UInt64 in
            state.nextID += 1
            return state.nextID
        }
        do {
            return try await withTaskCancellationHandler {
                try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Value, any Error>) in
                    let ready: Result<Value, any Error>? = state.withLock { state in
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
            throw Failure.converting(error)
        }
    }

    /// Sets the result: every waiter, present and future, gets it. Later calls are ignored.
    package func finish(_ result: Result<Value, Failure>) {
        let waiters = state.withLock { state -> [CheckedContinuation<Value, any Error>] in
            guard state.result == nil else { return [] }
            state.result = result
            defer { state.waiters.removeAll() }
            return Array(state.waiters.values)
        }
        for waiter in waiters { waiter.resume(with: result.mapError { $0 }) }
    }
}

/// The save of a refreshed pair to the token file, while requests already use its access token.
///
/// A refresh hands out the new access token as soon as the server's answer is parsed and writes
/// the pair to the file (under the store's lock, off the concurrency pool) meanwhile. A request
/// sent with the token during the save depends on it: a read (`GET`, `HEAD`) is sent at once and
/// waits for the save before its caller gets the answer; any other request waits for the save
/// before it is sent. If the save fails, both fail with the store's error, as every waiter of the
/// refresh did when the save came first (docs/Session.md, "Saved before the caller hears").
package final class PendingSave<Failure: SessionFailure>: Sendable {
    /// The access token of the pair being saved.
    package let accessToken: String
    /// The save's outcome: `()` once the pair is on disk, or the failure's `tokenStore`.
    package let outcome = OneShot<Void, Failure>()

    package init(accessToken: String) {
        self.accessToken = accessToken
    }

    /// Returns once the pair is saved.
    ///
    /// - Throws: the failure's `tokenStore` if it could not be, or `cancelled`.
    package func wait() async throws(Failure) {
        try await outcome.wait()
    }
}
