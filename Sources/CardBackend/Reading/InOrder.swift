/// Work on many inputs a few at a time, results in input order: the one loop behind every
/// batched read (a backend reading whole cards one request each, a picture per card).
public enum InOrder {
    /// `work` on every input, at most `concurrency` at a time.
    ///
    /// - Parameters:
    ///   - inputs: what to work on.
    ///   - concurrency: the most at once (at least 1).
    ///   - progress: told how many are done, after each.
    ///   - work: the work; `nil` leaves the input out of the results.
    /// - Returns: the results, in the order of `inputs`, without the `nil` ones.
    /// - Throws: the first failure; the work under way is cancelled.
    public static func map<Input: Sendable, Output: Sendable>(
        _ inputs: [Input], concurrency: Int, progress: (@Sendable (Int) -> Void)? = nil,
        _ work: @escaping @Sendable (Input) async throws -> Output?
    ) async throws -> [Output] {
        var results = [Output?](repeating: nil, count: inputs.count)
        let width = max(1, concurrency)
        try await withThrowingTaskGroup(of: (Int, Output?).self) { group in
            var next = 0
            var done = 0
            func startNext() {
                let index = next
                group.addTask { (index, try await work(inputs[index])) }
                next += 1
            }
            while next < min(width, inputs.count) { startNext() }
            while let (index, output) = try await group.next() {
                results[index] = output
                done += 1
                progress?(done)
                if next < inputs.count { startNext() }
            }
        }
        return results.compactMap { $0 }
    }
}
