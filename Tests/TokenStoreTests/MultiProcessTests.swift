import Foundation
import TestSupport
import Testing

@testable import TokenStore
@testable import tokenstore_stress

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

@Suite("Several processes sharing one token file", .timeLimit(.minutes(5)))
struct MultiProcessTests {
    @Test("Concurrent writers in 6 processes lose no update")
    func concurrentWriters() async throws {
        let folder = try TemporaryFolder("tokenstore")
        defer { folder.remove() }
        let store = folder.store()
        let writers = 6
        let itemsEach = 20
        let children = try (0..<writers).map { index in
            try StressTool.start(["save-accounts", store.path, "writer\(index)", "\(itemsEach)"])
        }
        for child in children {
            let result = try await child.finish()
            #expect(result.status == 0, "writer failed: \(result.errors)")
        }
        let items = try store.items()
        #expect(items.count == writers * itemsEach)
        for index in 0..<writers {
            for item in 0..<itemsEach {
                let expected = StressItems.item(account: "writer\(index)-\(item)", generation: "\(item)")
                #expect(items.contains(expected), "missing writer\(index)-\(item)")
            }
        }
        #expect(folder.contents(of: store.folderPath) == ["tokens.json", "tokens.json.lock"])
        #expect(try permissions(store.path) == 0o600)
    }

    @Test("Read-modify-write under the lock from 6 processes counts exactly")
    func lockedIncrements() async throws {
        let folder = try TemporaryFolder("tokenstore")
        defer { folder.remove() }
        let store = folder.store()
        let children = try (0..<6).map { _ in try StressTool.start(["increment", store.path, "25"]) }
        for child in children {
            let result = try await child.finish()
            #expect(result.status == 0, "increment failed: \(result.errors)")
        }
        #expect(try store.read(server: StressItems.server, account: "counter")?.accessToken == "150")
    }

    /// The session's rule, from the store's side: 20 processes find an expired access token,
    /// all wait on the lock, and exactly one refreshes; the others re-read the new pair.
    @Test("20 processes with an expired token: exactly one refreshes, all get the new pair")
    func singleRefresh() async throws {
        let folder = try TemporaryFolder("tokenstore")
        defer { folder.remove() }
        let store = folder.store()
        try await store.save(StressItems.item(account: StressItems.targetAccount, generation: "stale"))
        let ready = folder.path("ready")
        try FileManager.default.createDirectory(atPath: ready, withIntermediateDirectories: false)

        // Hold the lock while the 20 start, so they all read the stale pair and queue up on it.
        let children = try await store.withExclusiveAccess { _ in
            let children = try (0..<20).map { _ in try StressTool.start(["refresh", store.path, ready]) }
            try await waitUntil("all 20 processes read the stale pair") { folder.contents(of: ready).count == 20 }
            return children
        }
        var outcomes: [String] = []
        for child in children {
            let result = try await child.finish()
            #expect(result.status == 0, "refresh failed: \(result.errors)")
            outcomes.append(result.output.trimmingCharacters(in: .whitespacesAndNewlines))
        }
        #expect(outcomes.filter { $0 == "refreshed new-pair" }.count == 1)
        #expect(outcomes.filter { $0 == "reused new-pair" }.count == 19)
        let final = try #require(try store.read(server: StressItems.server, account: StressItems.targetAccount))
        #expect(final.accessTokenExpiresAt > Date())
        #expect(final.refreshToken.hasPrefix("refresh-target-refreshed-by-"))
    }

    @Test("A lock held by another process times out with a clear error, and frees when it dies")
    func crossProcessTimeout() async throws {
        let folder = try TemporaryFolder("tokenstore")
        defer { folder.remove() }
        let store = folder.store(lockTimeout: .milliseconds(300))
        let marker = folder.path("holding")
        let holder = try StressTool.start(["hold-lock", store.path, marker])
        try await waitUntil("the other process holds the lock") { FileManager.default.fileExists(atPath: marker) }
        await #expect(throws: TokenStoreError.lockTimedOut(path: store.lockPath, timeout: .milliseconds(300))) {
            try await store.save(Samples.item())
        }
        holder.sendKill()
        _ = try await holder.finish()
        // The kernel released the dead process's lock.
        try await folder.store(lockTimeout: .seconds(30)).save(Samples.item())
        #expect(try store.items().count == 1)
    }
}
