import Testing

/// Polls `condition` until it holds, failing the test if `timeout` passes first. Never a bare
/// sleep: the short pause between polls only yields the CPU.
func waitUntil(
    timeout: Duration = .seconds(30),
    _ description: String = "condition",
    sourceLocation: SourceLocation = #_sourceLocation,
    _ condition: () async throws -> Bool
) async throws {
    let clock = ContinuousClock()
    let deadline = clock.now + timeout
    while clock.now < deadline {
        if try await condition() { return }
        try await Task.sleep(for: .milliseconds(2))
    }
    Issue.record("Timed out waiting for \(description)", sourceLocation: sourceLocation)
    throw WaitTimeout()
}

struct WaitTimeout: Error {}
