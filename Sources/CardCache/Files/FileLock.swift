#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// An exclusive `flock(2)` on a small `0600` file beside a database, held while a process
/// checks, creates, migrates, moves aside or wipes that database.
///
/// SQLite's own locks protect the data once a file is a database; they cannot protect the
/// moments before (two processes creating the same file, one taking the other's half-written
/// header for a damaged file and moving it aside). Everything after opening goes through
/// SQLite alone, so two processes (the interface and a script) share the database freely.
enum FileLock {
    /// Runs `body` holding the lock on `path` (created `0600` when missing), waiting for it.
    /// - Throws: ``CacheError`` when the lock file cannot be opened or locked, or what `body` throws.
    static func holding<T>(_ path: String, _ body: () throws(CacheError) -> T) throws(CacheError) -> T {
        try PrivateFiles.prepareFile(path)
        let descriptor = open(path, O_RDWR | O_NOFOLLOW | O_CLOEXEC)
        guard descriptor >= 0 else { throw .system("open the lock file", path, errno: errno) }
        defer { close(descriptor) }
        while flock(descriptor, LOCK_EX) != 0 {
            guard errno == EINTR else { throw .system("lock", path, errno: errno) }
        }
        defer { flock(descriptor, LOCK_UN) }
        return try body()
    }
}
