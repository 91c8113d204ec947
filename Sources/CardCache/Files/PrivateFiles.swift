import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// The folder `0700` and files `0600` rules of the cache, whatever the umask.
enum PrivateFiles {
    /// Creates `folder` (and missing parents, those `0700`) when missing; an existing folder of
    /// ours that others may enter is narrowed to `0700`.
    ///
    /// - Throws: ``CacheError`` when it is not a folder, belongs to someone else, or cannot be
    ///   created.
    static func prepareFolder(_ folder: String) throws(CacheError) {
        var missing: [String] = []
        var current = folder
        while !exists(current) {
            missing.append(current)
            let parent = (current as NSString).deletingLastPathComponent
            if parent == current || parent.isEmpty { break }
            current = parent
        }
        for path in missing.reversed() {
            if mkdir(path, 0o700) != 0 && errno != EEXIST { throw .system("create the folder", path, errno: errno) }
        }
        var info = stat()
        guard stat(folder, &info) == 0 else { throw .system("look at the folder", folder, errno: errno) }
        guard info.st_mode & S_IFMT == S_IFDIR else { throw .unsafeFolder(folder, "it is not a folder") }
        guard info.st_uid == getuid() else {
            throw .unsafeFolder(folder, "it belongs to user \(info.st_uid), not to you (\(getuid()))")
        }
        if info.st_mode & 0o777 != 0o700, chmod(folder, 0o700) != 0 {
            throw .system("make the folder private (chmod 700)", folder, errno: errno)
        }
    }

    /// Creates `path` empty with mode `0600` when missing; an existing regular file of ours is
    /// set to `0600`. Symbolic links are refused.
    static func prepareFile(_ path: String) throws(CacheError) {
        let descriptor = open(path, O_RDWR | O_CREAT | O_NOFOLLOW | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else { throw .system("open", path, errno: errno) }
        defer { close(descriptor) }
        var info = stat()
        guard fstat(descriptor, &info) == 0 else { throw .system("look at", path, errno: errno) }
        guard info.st_mode & S_IFMT == S_IFREG else { throw CacheError("\(path) is not a regular file") }
        guard info.st_uid == getuid() else { throw CacheError("\(path) belongs to another user") }
        if info.st_mode & 0o777 != 0o600, fchmod(descriptor, 0o600) != 0 {
            throw .system("make private (chmod 600)", path, errno: errno)
        }
    }

    /// Whether anything (even a dangling link) is at `path`.
    static func exists(_ path: String) -> Bool {
        var info = stat()
        return lstat(path, &info) == 0
    }

    /// The size of the file at `path`, or `nil` when there is none.
    static func size(_ path: String) -> Int? {
        var info = stat()
        guard stat(path, &info) == 0 else { return nil }
        return Int(info.st_size)
    }

    /// Removes the database at `path` with its `-wal`, `-shm` and `-journal` companions.
    static func removeDatabase(_ path: String) {
        for suffix in ["", "-wal", "-shm", "-journal"] { unlink(path + suffix) }
    }
}

/// `strerror(3)` as Swift text.
enum POSIXText {
    static func describe(_ code: Int32) -> String {
        String(cString: strerror(code))
    }
}
