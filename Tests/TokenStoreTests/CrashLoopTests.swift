import Foundation
import TestSupport
import Testing

@testable import TokenStore
@testable import tokenstore_stress

@Suite("kill -9 at random moments", .timeLimit(.minutes(10)))
struct CrashLoopTests {
    /// How many writers to kill; `TOKENSTORE_CRASH_ITERATIONS` overrides it for longer soaks.
    static let iterations =
        ProcessInfo.processInfo.environment["TOKENSTORE_CRASH_ITERATIONS"].flatMap { Int($0) } ?? 200

    @Test("A writer killed at any moment leaves the old or the new file, and no temporary file survives the next write")
    func crashLoop() async throws {
        let folder = try TemporaryFolder("tokenstore")
        defer { folder.remove() }
        let store = folder.store()
        let fillers = (0..<40).map { StressItems.item(account: "filler-\($0)", generation: "fixed") }
        for filler in fillers { try await store.save(filler) }
        let generationA = StressItems.item(account: StressItems.targetAccount, generation: "A")
        let generationB = StressItems.item(account: StressItems.targetAccount, generation: "B")
        try await store.save(generationA)
        let expectedFillers = Set(fillers)
        let temporaryPrefix = store.temporaryFilePrefix

        var killedMidWrite = 0
        var seen: [String: Int] = [:]
        for iteration in 0..<Self.iterations {
            let marker = folder.path("writer-\(iteration)-started")
            let writer = try StressTool.start(["write-loop", store.path, marker])
            // Once it has saved at least once, it is somewhere in its write loop.
            try await waitUntil("writer \(iteration) saved once") { FileManager.default.fileExists(atPath: marker) }
            // The random moment: a jitter of up to 5 ms, not a wait for any state.
            try await Task.sleep(for: .microseconds(Int.random(in: 0...5_000)))
            writer.sendKill()
            let result = try await writer.finish()
            #expect(result.status != 0, "the writer should have been killed, not exit: \(result.errors)")

            let items = try store.items()  // must parse: never torn
            let target = items.first { $0.account == StressItems.targetAccount }
            #expect(target == generationA || target == generationB, "iteration \(iteration): neither old nor new")
            #expect(Set(items.filter { $0.account != StressItems.targetAccount }) == expectedFillers)
            seen[target?.displayName ?? "none", default: 0] += 1

            let temporaries = folder.contents(of: store.folderPath).filter { $0.hasPrefix(temporaryPrefix) }
            // Each write removes stale temporaries before making its own, so never more than one.
            #expect(temporaries.count <= 1, "iteration \(iteration): \(temporaries)")
            if !temporaries.isEmpty { killedMidWrite += 1 }
        }

        try await store.save(generationA)
        #expect(folder.contents(of: store.folderPath) == ["tokens.json", "tokens.json.lock"])
        #expect(try permissions(store.path) == 0o600)
        // The kill landed inside a write (a temporary file was left) in some iterations; printed
        // as a measurement, asserted only loosely so a fast or slow disk cannot make this flaky.
        print("crash loop: \(Self.iterations) kills, \(killedMidWrite) mid-write, final generations \(seen)")
        #expect(Self.iterations < 50 || killedMidWrite > 0, "no kill ever landed inside a write")
    }
}
