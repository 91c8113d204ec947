import Foundation
import Synchronization

/// Shares one exchange between identical requests in flight at the same time.
///
/// The first caller starts the work in its own task; later callers with the same key wait for
/// its result. A caller that is cancelled stops waiting at once; the work is cancelled only
/// when no caller is left waiting.
final class InflightTable: Sendable {
    typealias Outcome = Result<Response, NetworkError>

    private struct Entry {
        var generation: UInt64
        var work: Task<Void, Never>?
        var waiters: [UInt64: CheckedContinuation<Outcome, Never>]
    }

    private struct State {
        var entries: [String: Entry] = [:]
        var nextID: UInt64 = 0
    }

    private let state = Mutex(State())

    /// The key of a request: method, URL and headers.
    static func key(for request: Request) -> String {
        var key = request.method.rawValue + " " + request.url.absoluteString
        for field in request.headers.storage { key += "\n\(field.name.lowercased()): \(field.value)" }
        return key
    }

    /// The result of `work` for `key`, shared with every concurrent caller of the same key.
    func run(key: String, work: @escaping @Sendable () async -> Outcome) async -> Outcome {
        let waiterID = state.withLock { state -> UInt64 in
            state.nextID += 1
            return state.nextID
        }
        return await withTaskCancellationHandler {
            await withCheckedContinuation { continuation in
                let start: UInt64? = state.withLock { state in
                    if Task.isCancelled {
                        continuation.resume(returning: .failure(.cancelled))
                        return nil
                    }
                    if state.entries[key] != nil {
                        state.entries[key]?.waiters[waiterID] = continuation
                        return nil
                    }
                    state.entries[key] = Entry(generation: waiterID, work: nil, waiters: [waiterID: continuation])
                    return waiterID
                }
                guard let generation = start else { return }
                let task = Task {
                    let outcome = await work()
                    self.finish(key: key, generation: generation, with: outcome)
                }
                let stillWanted = state.withLock { state -> Bool in
                    guard state.entries[key]?.generation == generation else { return false }
                    state.entries[key]?.work = task
                    return true
                }
                // Every caller cancelled before the task was stored (or it already finished).
                if !stillWanted { task.cancel() }
            }
        } onCancel: {
            let (continuation, orphaned) = state.withLock {
                state -> (CheckedContinuation<Outcome, Never>?, Task<Void, Never>?) in
                guard var entry = state.entries[key], let waiter = entry.waiters.removeValue(forKey: waiterID) else {
                    return (nil, nil)
                }
                if entry.waiters.isEmpty {
                    state.entries[key] = nil
                    return (waiter, entry.work)
                }
                state.entries[key] = entry
                return (waiter, nil)
            }
            continuation?.resume(returning: .failure(.cancelled))
            orphaned?.cancel()
        }
    }

    private func finish(key: String, generation: UInt64, with outcome: Outcome) {
        let waiters = state.withLock { state -> [CheckedContinuation<Outcome, Never>] in
            guard let entry = state.entries[key], entry.generation == generation else { return [] }
            state.entries[key] = nil
            return Array(entry.waiters.values)
        }
        for waiter in waiters { waiter.resume(returning: outcome) }
    }

    /// How many distinct exchanges are in flight (for tests).
    var count: Int { state.withLock { $0.entries.count } }

    /// How many callers are waiting for an exchange (for tests).
    var waiterCount: Int { state.withLock { $0.entries.values.reduce(0) { $0 + $1.waiters.count } } }
}
