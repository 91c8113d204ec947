import Foundation
import Synchronization
import TestSupport
import Testing

@testable import TokenStore

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

@Suite("Exclusive access within one process", .timeLimit(.minutes(2)))
struct LockingTests {
    /// One locked read-modify-write of a counter, suspending while the lock is held.
    static func increment(_ store: TokenStore) async throws {
        try await store.withExclusiveAccess { file in
            let value = try file.read(server: Samples.server, account: "counter").flatMap { Int($0.accessToken) } ?? 0
            await Task.yield()
            try file.save(
                TokenItem(
                    server: Samples.server, account: "counter", accessToken: "\(value + 1)",
                    accessTokenExpiresAt: Samples.expiry, refreshToken: "r", refreshTokenExpiresAt: Samples.expiry))
        }
    }

    /// 64 tasks on a pool of a few threads: if waiting for the lock blocked a thread, the
    /// holder could not resume after its `await` and this would hang instead of counting to 64.
    @Test("Concurrent tasks serialise through the lock without blocking the thread pool")
    func concurrentTasks() async throws {
        let folder = try TemporaryFolder("tokenstore")
        defer { folder.remove() }
        let store = folder.store()
        try await withThrowingTaskGroup(of: Void.self) { group in
            for _ in 0..<64 {
                group.addTask { try await Self.increment(store) }
            }
            try await group.waitForAll()
        }
        #expect(try store.read(server: Samples.server, account: "counter")?.accessToken == "64")
    }

    @Test("Inside the body: re-read, save and delete without locking again, also via the store")
    func reentrancy() async throws {
        let folder = try TemporaryFolder("tokenstore")
        defer { folder.remove() }
        let store = folder.store(lockTimeout: .seconds(5))
        let result = try await store.withExclusiveAccess { file in
            try file.save(Samples.item(account: "ann@example.com"))
            #expect(try file.accounts(server: Samples.server) == ["ann@example.com"])
            // The store's own methods find the held lock (a task-local) instead of waiting for it.
            try await store.save(Samples.item(account: "bob@example.com"))
            #expect(try await store.delete(server: Samples.server, account: "ann@example.com"))
            let nested = try await store.withExclusiveAccess { inner in
                #expect(inner === file)
                return try inner.items().map(\.account)
            }
            #expect(file.isHeld)
            return nested
        }
        #expect(result == ["bob@example.com"])
    }

    @Test("A locked file used after its body returned throws lockReleased")
    func escapedHandle() async throws {
        let folder = try TemporaryFolder("tokenstore")
        defer { folder.remove() }
        let store = folder.store()
        let escaped = try await store.withExclusiveAccess { $0 }
        #expect(!escaped.isHeld)
        #expect(throws: TokenStoreError.lockReleased(path: store.lockPath)) { try escaped.items() }
        #expect(throws: TokenStoreError.lockReleased(path: store.lockPath)) { try escaped.save(Samples.item()) }
        // And the lock really is free again.
        try await store.save(Samples.item())
    }

    @Test("The lock is released when the body throws")
    func releasedOnThrow() async throws {
        let folder = try TemporaryFolder("tokenstore")
        defer { folder.remove() }
        let store = folder.store(lockTimeout: .seconds(5))
        struct Boom: Error {}
        await #expect(throws: Boom.self) {
            try await store.withExclusiveAccess { _ in throw Boom() }
        }
        try await store.save(Samples.item())
        #expect(try store.items().count == 1)
    }

    @Test("Waiting past the timeout gives a clear lockTimedOut error")
    func timeout() async throws {
        let folder = try TemporaryFolder("tokenstore")
        defer { folder.remove() }
        let holder = folder.store()
        let impatient = folder.store(lockTimeout: .milliseconds(200))
        let entered = Latch()
        let release = AsyncStream<Void>.makeStream()
        try await withThrowingTaskGroup(of: Void.self) { group in
            group.addTask {
                try await holder.withExclusiveAccess { _ in
                    entered.set()
                    for await _ in release.stream {}
                }
            }
            try await waitUntil("the holder has the lock") { entered.isSet }
            let error = await #expect(throws: TokenStoreError.self) { try await impatient.save(Samples.item()) }
            #expect(error == .lockTimedOut(path: impatient.lockPath, timeout: .milliseconds(200)))
            #expect(error?.description.contains("0.2 seconds") == true)
            #expect(error?.description.contains(impatient.lockPath) == true)
            release.continuation.finish()
            try await group.waitForAll()
        }
        try await impatient.save(Samples.item())
    }

    @Test("Cancelling a waiter stops its wait and leaves the holder alone")
    func cancellation() async throws {
        let folder = try TemporaryFolder("tokenstore")
        defer { folder.remove() }
        let store = folder.store()
        let entered = Latch()
        let release = AsyncStream<Void>.makeStream()
        let holder = Task {
            try await store.withExclusiveAccess { file in
                entered.set()
                for await _ in release.stream {}
                try file.save(Samples.item(generation: 7))
            }
        }
        try await waitUntil("the holder has the lock") { entered.isSet }
        let waiter = Task { try await store.save(Samples.item(generation: 8)) }
        waiter.cancel()
        await #expect(throws: CancellationError.self) { try await waiter.value }
        release.continuation.finish()
        try await holder.value
        #expect(try store.items().first?.refreshToken == Samples.item(generation: 7).refreshToken)
    }

    @Test("An actor can use its own state inside the body")
    func actorIsolation() async throws {
        actor Session {
            let store: TokenStore
            var refreshes = 0
            init(store: TokenStore) { self.store = store }
            func refreshIfNeeded() async throws -> Int {
                try await store.withExclusiveAccess { file in
                    if try file.read(server: Samples.server, account: "ann@example.com") == nil {
                        refreshes += 1
                        try file.save(Samples.item())
                    }
                    return refreshes
                }
            }
        }
        let folder = try TemporaryFolder("tokenstore")
        defer { folder.remove() }
        let session = Session(store: folder.store())
        async let first = session.refreshIfNeeded()
        async let second = session.refreshIfNeeded()
        #expect(try await [first, second].max() == 1)
    }
}
