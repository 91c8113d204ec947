import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

extension TokenStore {
    /// Runs `body` while holding the store's exclusive lock, shared by every process and task
    /// that uses the same token file.
    ///
    /// This is how a token refresh stays single across processes: take the lock, re-read the
    /// item, and refresh only if nobody else already did; the others then find the new pair.
    ///
    /// ```swift
    /// let item = try await store.withExclusiveAccess { file in
    ///     guard let current = try file.read(server: server, account: account) else { return nil }
    ///     if current.accessTokenExpiresAt > now + margin { return current }  // someone refreshed
    ///     let fresh = try await refresh(current)  // the lock is held across this await
    ///     try file.save(fresh)
    ///     return fresh
    /// }
    /// ```
    ///
    /// Inside `body`, use the ``LockedTokenFile``: it never locks again. Calls to this store's
    /// own `save`, `delete`, `deleteAll` or `withExclusiveAccess` from within `body` (found
    /// through a task-local value) reuse the held lock too, so nothing deadlocks on itself.
    ///
    /// Waiting never blocks a thread: the lock is tried with `flock(LOCK_EX | LOCK_NB)`, and
    /// between attempts the task sleeps 1 ms, doubling to 20 ms (with jitter). Waiters are not
    /// served in order. The lock is released when `body` returns or throws, and by the kernel
    /// if the process dies.
    ///
    /// - Parameters:
    ///   - isolation: the caller's actor, inherited so `body` may use its state.
    ///   - body: the work to do under the lock.
    /// - Returns: what `body` returns.
    /// - Throws: ``TokenStoreError/lockTimedOut(path:timeout:)`` after ``lockTimeout``, other
    ///   ``TokenStoreError``s for an unsafe folder or lock file, `CancellationError` if the task
    ///   is cancelled while waiting, or whatever `body` throws.
    public func withExclusiveAccess<Value>(
        isolation: isolated (any Actor)? = #isolation,
        _ body: (LockedTokenFile) async throws -> Value
    ) async throws -> Value {
        if let held = HeldLock.current, held.store.lockPath == lockPath, held.isHeld {
            return try await body(held)
        }
        let descriptor = try await acquireLock()
        let file = LockedTokenFile(store: self, lockDescriptor: descriptor)
        defer { file.release() }
        return try await HeldLock.$current.withValue(file) {
            try await body(file)
        }
    }

    /// Opens (creating `0600` if needed) and locks the lock file, polling until ``lockTimeout``.
    ///
    /// - Returns: the locked descriptor; closing it releases the lock.
    func acquireLock() async throws -> Int32 {
        try FileSafety.createFolder(folderPath, user: user)
        let clock = ContinuousClock()
        let deadline = clock.now.advanced(by: lockTimeout)
        var pause = Duration.milliseconds(1)
        while true {
            let descriptor = try FileSafety.openPrivateFileForWriting(lockPath, append: true, user: user)
            do {
                while try !tryLock(descriptor) {
                    let now = clock.now
                    guard now < deadline else {
                        throw TokenStoreError.lockTimedOut(path: lockPath, timeout: lockTimeout)
                    }
                    try await Task.sleep(for: min(pause * Double.random(in: 0.5...1), now.duration(to: deadline)))
                    pause = min(pause * 2, .milliseconds(20))
                }
                // The lock only counts if the file we locked is still the one at the path
                // (someone may have removed the lock file while we waited); else lock the new one.
                let locked = try POSIX.status(of: descriptor, path: lockPath)
                if try POSIX.status(atPath: lockPath, followLinks: false)?.identity == locked.identity {
                    return descriptor
                }
            } catch {
                POSIX.closeFile(descriptor)
                throw error
            }
            POSIX.closeFile(descriptor)
        }
    }

    /// One non-blocking `flock(LOCK_EX)` attempt: `false` when another holder has it.
    private func tryLock(_ descriptor: Int32) throws(TokenStoreError) -> Bool {
        while true {
            if flock(descriptor, LOCK_EX | LOCK_NB) == 0 { return true }
            let code = errno
            switch code {
            case EINTR: continue
            case EWOULDBLOCK, EAGAIN: return false
            default: throw POSIX.failure("lock", lockPath, code)
            }
        }
    }
}

/// The lock the current task holds, so nested calls reuse it instead of waiting for themselves.
enum HeldLock {
    @TaskLocal static var current: LockedTokenFile?
}
