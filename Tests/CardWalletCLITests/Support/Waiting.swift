import Foundation
import Testing

/// Polls `condition` until it holds, failing the test if `timeout` passes first. Never a bare
/// sleep: the short pause between polls only yields the CPU.
func waitUntil(
    timeout: Duration = .seconds(30), _ description: String = "condition",
    sourceLocation: SourceLocation = #_sourceLocation, _ condition: () async throws -> Bool
) async throws {
    let clock = ContinuousClock()
    let deadline = clock.now + timeout
    while clock.now < deadline {
        if try await condition() { return }
        try await Task.sleep(for: .milliseconds(2))
    }
    Issue.record("Timed out waiting for \(description)", sourceLocation: sourceLocation)
    throw TestFailure("timed out waiting for \(description)")
}

/// Runs a blocking call (a terminal read) on its own thread, off the cooperative pool.
func onThread<T: Sendable>(_ body: @escaping @Sendable () -> T) async -> T {
    await withCheckedContinuation { continuation in
        Thread { continuation.resume(returning: body()) }.start()
    }
}
