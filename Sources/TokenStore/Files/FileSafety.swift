import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// The OpenSSH-style rules: a private file is a regular file, owned by the user, mode `0600` or
/// stricter; its folder belongs to the user and nobody else can write to it.
enum FileSafety {
    /// Permission bits a private file must not have: any access for group or others.
    static let groupOrOtherBits: UInt32 = 0o077
    /// Permission bits a folder must not have: write access for group or others.
    static let groupOrOtherWriteBits: UInt32 = 0o022

    /// Refuses anything but a regular file owned by `user` (the process's effective user; a
    /// test may name another) with no group or other access.
    static func checkPrivateFile(_ status: FileStatus, path: String, user: UInt32 = POSIX.userID)
        throws(TokenStoreError)
    {
        guard status.kind == .regular else {
            throw .notARegularFile(path: path, kind: status.kind.phrase)
        }
        guard status.owner == user else {
            throw .fileNotOwned(path: path, mode: status.permissions, owner: status.owner, user: user)
        }
        guard status.permissions & groupOrOtherBits == 0 else {
            throw .fileTooOpen(path: path, mode: status.permissions)
        }
    }

    /// Checks the folder holding the store's files, following a symbolic link to it.
    ///
    /// A folder that others can read or search (`0755`) is accepted: the files in it are `0600`.
    /// A folder that others can write to, or that belongs to someone else, is refused: they
    /// could replace or remove the files.
    ///
    /// - Returns: whether the folder exists.
    @discardableResult
    static func checkFolder(_ path: String, user: UInt32 = POSIX.userID) throws(TokenStoreError) -> Bool {
        guard let status = try POSIX.status(atPath: path, followLinks: true) else { return false }
        guard status.kind == .folder else {
            throw .notARegularFile(path: path, kind: status.kind.phrase + " where a folder should be")
        }
        if status.owner != user || status.permissions & groupOrOtherWriteBits != 0 {
            throw .unsafeFolder(path: path, mode: status.permissions, owner: status.owner, user: user)
        }
        return true
    }

    /// Creates `path` and any missing parents with mode `0700` whatever the umask, then checks it.
    ///
    /// Only folders created here get their mode set; existing parents are left alone.
    static func createFolder(_ path: String, user: UInt32 = POSIX.userID) throws(TokenStoreError) {
        if try checkFolder(path, user: user) { return }
        var missing: [String] = []
        var current = path
        while try POSIX.status(atPath: current, followLinks: true) == nil {
            missing.append(current)
            let parent = Paths.parent(of: current)
            if parent == current { break }
            current = parent
        }
        for folder in missing.reversed() {
            // mkdir applies the umask; a umask of 0777 would leave an unusable 0000 folder.
            if try POSIX.makeFolder(folder, mode: 0o700) {
                try POSIX.setMode(0o700, atPath: folder)
            }
        }
        try checkFolder(path, user: user)
    }

    /// Opens `path` for writing, creating it `0600` (also under any umask) when missing.
    ///
    /// An existing file must pass ``checkPrivateFile(_:path:)``; symbolic links are refused.
    ///
    /// - Parameter append: write at the end (`O_APPEND`); otherwise the file is emptied, but only
    ///   after it passed the checks.
    /// - Returns: an open descriptor the caller must close.
    static func openPrivateFileForWriting(_ path: String, append: Bool, user: UInt32 = POSIX.userID)
        throws(TokenStoreError) -> Int32
    {
        let flags = append ? O_APPEND : 0
        while true {
            let created = POSIX.openFile(path, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC | flags, 0o600)
            if created >= 0 {
                do throws(TokenStoreError) {
                    try POSIX.setMode(0o600, of: created, path: path)
                } catch {
                    POSIX.closeFile(created)
                    throw error
                }
                return created
            }
            guard errno == EEXIST else { throw POSIX.failure("create", path) }

            let existing = POSIX.openFile(path, O_WRONLY | O_NOFOLLOW | O_CLOEXEC | O_NONBLOCK | flags)
            if existing < 0 {
                switch errno {
                case ENOENT: continue  // removed between the two opens: create it again
                case ELOOP: throw .notARegularFile(path: path, kind: FileStatus.Kind.symbolicLink.phrase)
                case ENXIO: throw .notARegularFile(path: path, kind: FileStatus.Kind.other.phrase)
                default: throw POSIX.failure("open", path)
                }
            }
            do throws(TokenStoreError) {
                try checkPrivateFile(POSIX.status(of: existing, path: path), path: path, user: user)
                if !append && ftruncate(existing, 0) != 0 { throw POSIX.failure("empty", path) }
            } catch {
                POSIX.closeFile(existing)
                throw error
            }
            return existing
        }
    }
}

/// Path arithmetic on plain strings (the store works with POSIX paths, not URLs).
enum Paths {
    /// The folder part: `/a/b/c` → `/a/b`, `/a` → `/`.
    static func parent(of path: String) -> String {
        let trimmed = trimmingTrailingSlashes(path)
        guard let slash = trimmed.lastIndex(of: "/") else { return "." }
        let parent = String(trimmed[..<slash])
        return parent.isEmpty ? "/" : parent
    }

    /// The last component: `/a/b/c` → `c`.
    static func lastComponent(of path: String) -> String {
        let trimmed = trimmingTrailingSlashes(path)
        guard let slash = trimmed.lastIndex(of: "/") else { return trimmed }
        return String(trimmed[trimmed.index(after: slash)...])
    }

    /// `a` and `b` joined with exactly one slash.
    static func join(_ folder: String, _ name: String) -> String {
        folder.hasSuffix("/") ? folder + name : folder + "/" + name
    }

    /// An absolute path: relative paths are taken from the current folder.
    static func absolute(_ path: String) -> String {
        if path.hasPrefix("/") { return path }
        return join(FileManager.default.currentDirectoryPath, path)
    }

    private static func trimmingTrailingSlashes(_ path: String) -> String {
        var result = Substring(path)
        while result.count > 1 && result.hasSuffix("/") { result = result.dropLast() }
        return String(result)
    }
}
