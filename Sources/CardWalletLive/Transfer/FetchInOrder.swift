import CardWalletUI
import Synchronization

/// Many requests a few at a time, results in input order (an export fetching every card).
enum FetchInOrder {
    /// How many requests run at once: enough to hide latency, few enough to stay polite.
    static let concurrency = 8

    /// `work` on every input, at most ``concurrency`` at a time.
    ///
    /// - Throws: the first failure; the others are cancelled.
    static func run<Input: Sendable, Output: Sendable>(
        _ inputs: [Input], _ work: @escaping @Sendable (Input) async throws -> Output
    ) async throws -> [Output] {
        var results = [Output?](repeating: nil, count: inputs.count)
        try await withThrowingTaskGroup(of: (Int, Output).self) { group in
            var next = 0
            func startNext() {
                let index = next
                group.addTask { (index, try await work(inputs[index])) }
                next += 1
            }
            while next < min(concurrency, inputs.count) { startNext() }
            while let (index, output) = try await group.next() {
                results[index] = output
                if next < inputs.count { startNext() }
            }
        }
        return results.map { $0! }
    }
}

/// Counts steps from any task and reports them, at most once per step.
final class ProgressCounter: Sendable {
    private let done = Mutex(0)
    private let total: Int
    private let reporter: ProgressReporter

    init(total: Int, reporter: ProgressReporter, done: Int = 0) {
        self.total = total
        self.reporter = reporter
        self.done.withLock { $0 = done }
    }

    /// Reports where it stands.
    func report() {
        reporter.report(CallProgress(done: done.withLock { $0 }, total: total))
    }

    /// One more step done.
    func step() {
        let now = done.withLock { value -> Int in
            value += 1
            return value
        }
        reporter.report(CallProgress(done: now, total: total))
    }
}
