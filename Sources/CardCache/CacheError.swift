/// Why the cache could not do something. Never fatal to a caller: the cache is a copy of what
/// the server said, so a command or the interface goes on without it (and says so in its log).
///
/// A damaged, truncated or foreign database file is not an error: ``CardCache/open(server:account:location:logger:)``
/// moves it aside and starts a new one. What is left is what no new file can fix — a folder
/// that is not ours, a full disk, a file system that refuses writes.
public struct CacheError: Error, Sendable, Equatable, CustomStringConvertible {
    /// What went wrong, in one sentence a person can act on (no card text, no token).
    public let message: String

    /// An error with `message`.
    public init(_ message: String) {
        self.message = message
    }

    public var description: String { message }

    /// Neither `XDG_CACHE_HOME` nor `HOME` is an absolute path.
    static let noLocation = CacheError(
        "there is no place for the cache: set XDG_CACHE_HOME or HOME to an absolute path")

    /// The cache folder exists but belongs to someone else, or is not a folder.
    static func unsafeFolder(_ path: String, _ why: String) -> CacheError {
        CacheError("the cache folder \(path) cannot be used: \(why)")
    }

    /// A system call on `path` failed with `errno`.
    static func system(_ operation: String, _ path: String, errno code: Int32) -> CacheError {
        CacheError("cannot \(operation) \(path): \(POSIXText.describe(code))")
    }

    /// SQLite or a row failed; `reason` comes from ``CacheDatabase/reason(for:)``.
    static func database(_ path: String, _ reason: String) -> CacheError {
        CacheError("the cache \(path) cannot be used: \(reason)")
    }
}
