extension Array where Element: Sendable {
    /// `work` on every element, at most `concurrency` at a time, the results in the array's
    /// order: the one loop behind every batched read (a backend reading whole cards one request
    /// each, a picture per card).
    ///
    /// - Parameters:
    ///   - concurrency: the most at once (at least 1).
    ///   - progress: told how many are done, after each.
    ///   - work: the work; `nil` leaves the element out of the results.
    /// - Returns: the results, in the order of the elements, without the `nil` ones.
    /// - Throws: the first failure; the work under way is cancelled.
    public func concurrentMap<Output: Sendable>(
        concurrency: Int, progress: (@Sendable (Int) -> Void)? = nil,
        _ work: @escaping @Sendable (Element) async throws -> Output?
    ) async throws -> [Output] {
        let inputs = self
        var results = [Output?](repeating: nil, count: inputs.count)
        let width = Swift.max(1, concurrency)
        try await withThrowingTaskGroup(of: (Int, Output?).self) { group in
            var next = 0
            var done = 0
            func startNext() {
                let index = next
                group.addTask { (index, try await work(inputs[index])) }
                next += 1
            }
            while next < Swift.min(width, inputs.count) { startNext() }
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
