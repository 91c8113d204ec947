/// Keeps a value alive so the optimizer cannot drop the work that made it.
@inline(never)
@_optimize(none)
func blackHole<T>(_ value: T) {
    _ = value
}

/// Seconds between two instants of the continuous clock.
func seconds(from start: ContinuousClock.Instant, to end: ContinuousClock.Instant) -> Double {
    let duration = start.duration(to: end)
    return Double(duration.components.seconds) + Double(duration.components.attoseconds) / 1e18
}

/// Times closures: a few warm-up runs that are thrown away, then measured rounds.
///
/// With several variants (say the same operation at 1,000, 10,000 and 100,000 cards, or A and
/// B), ``roundRobin(timing:)`` runs one sample of each per round, in an order that alternates, so
/// a burst of load from another process lands on every variant alike and their ratios stay
/// fair.
///
/// The closures' errors are untyped (`throws`), not a generic `throws(E)`: Swift 6.3.1 miscompiles
/// an array of closures typed `() throws(E) -> T` when `E` is `any Error` — the first error thrown
/// reaches the caller as a garbage result and the process crashes (reproduced in a ten-line
/// program, at `-Onone` and `-O`). `HarnessTests.aFailingVariantStopsTheRunWithItsError` guards it.
struct Sampler: Sendable {
    /// Runs thrown away before measuring (caches, lazy initialisation, connection set-up).
    var warmup: Int
    /// Measured runs.
    var rounds: Int

    /// Seconds taken by each of ``rounds`` runs of `body`.
    func measure(_ body: @escaping () throws -> Void) throws -> [Double] {
        try roundRobin(timing: [body])[0]
    }

    /// Seconds taken by each run of each variant: `result[v][r]` is variant `v` in round `r`.
    func roundRobin(timing variants: [() throws -> Void]) throws -> [[Double]] {
        let clock = ContinuousClock()
        for _ in 0..<warmup {
            for variant in variants { try variant() }
        }
        var samples = Array(repeating: [Double](), count: variants.count)
        for round in 0..<rounds {
            for position in Self.order(count: variants.count, round: round) {
                let start = clock.now
                try variants[position]()
                samples[position].append(seconds(from: start, to: clock.now))
            }
        }
        return samples
    }

    /// The same for work that measures itself (a spawn timed to its exit, a burst of HTTP
    /// requests giving its rate): `result[v][r]` is what variant `v` returned in round `r`.
    func roundRobin(measuring variants: [() async throws -> Double]) async throws -> [[Double]] {
        for _ in 0..<warmup {
            for variant in variants { _ = try await variant() }
        }
        var samples = Array(repeating: [Double](), count: variants.count)
        for round in 0..<rounds {
            for position in Self.order(count: variants.count, round: round) {
                samples[position].append(try await variants[position]())
            }
        }
        return samples
    }

    /// Forward on even rounds, backward on odd ones (A B, B A, …): neither variant always
    /// runs first, right after the other has warmed or cooled the caches.
    static func order(count: Int, round: Int) -> [Int] {
        round.isMultiple(of: 2) ? Array(0..<count) : Array((0..<count).reversed())
    }
}
