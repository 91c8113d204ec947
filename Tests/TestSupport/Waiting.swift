public import Testing

/// Polls `condition` until it holds, recording an issue and throwing ``WaitTimeout`` if
/// `timeout` passes first.
///
/// Never a bare sleep standing in for state: the pause between polls (1 ms, doubling up to
/// 20 ms) only yields the CPU. The deadline is generous because the tests run on loaded 2-core
/// machines, where the concurrency pool has two threads: while CPU-bound tests of other suites
/// hold both, nothing here runs. On a slower 2-core machine (2 cores of an AMD EPYC) that held
/// every async test of a run for 40–50 s, past the old 30 s. A passing condition returns at once.
///
/// - Parameters:
///   - timeout: the most time to wait.
///   - description: what is awaited, for the failure message.
///   - sourceLocation: where the failure is reported.
///   - condition: checked until it returns `true`; an error it throws ends the wait.
public func waitUntil(
    timeout: Duration = .seconds(120),
    _ description: String = "condition",
    sourceLocation: SourceLocation = #_sourceLocation,
    _ condition: () async throws -> Bool
) async throws {
    let clock = ContinuousClock()
    let deadline = clock.now + timeout
    var pause = Duration.milliseconds(1)
    while true {
        if try await condition() { return }
        guard clock.now < deadline else { break }
        try await Task.sleep(for: pause)
        pause = min(pause * 2, .milliseconds(20))
    }
    Issue.record("Timed out after \(timeout) waiting for \(description)", sourceLocation: sourceLocation)
    throw WaitTimeout(description: description)
}

/// Thrown by ``waitUntil(timeout:_:sourceLocation:_:)`` when its deadline passes.
public struct WaitTimeout: Error, CustomStringConvertible {
    /// What was awaited.
    public let description: String
}
