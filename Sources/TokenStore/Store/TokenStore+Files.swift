import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// Loading and atomically replacing the token file.
extension TokenStore {
    /// Temporary files are named `.tokens.json.tmp-<pid>-<random>` so a later writer can
    /// recognise (and remove) those a killed writer left behind.
    var temporaryFilePrefix: String { "." + Paths.lastComponent(of: path) + ".tmp-" }

    /// The token pairs of the file; `nil` when there is no file.
    func loadItems() throws(TokenStoreError) -> [TokenItem]? {
        try loadCredentials()?.tokens
    }

    /// Reads and checks the file: everything it holds; `nil` when there is no file (or no
    /// folder) yet.
    ///
    /// The folder and file are checked before anything is read: an unsafe file is refused
    /// unread, and an unreadable one yields ``TokenStoreError/unreadable(path:reason:)``.
    func loadCredentials() throws(TokenStoreError) -> StoredCredentials? {
        guard try FileSafety.checkFolder(folderPath, user: user) else { return nil }
        // O_NONBLOCK so a FIFO planted at the path cannot hang us; it is refused below.
        let descriptor = POSIX.openFile(path, O_RDONLY | O_NOFOLLOW | O_CLOEXEC | O_NONBLOCK)
        if descriptor < 0 {
            let code = errno
            switch code {
            case ENOENT: return nil
            case ELOOP: throw .notARegularFile(path: path, kind: FileStatus.Kind.symbolicLink.phrase)
            default: throw .unreadable(path: path, reason: .cannotRead(errno: code))
            }
        }
        defer { POSIX.closeFile(descriptor) }

        let status = try POSIX.status(of: descriptor, path: path)
        try FileSafety.checkPrivateFile(status, path: path, user: user)
        if status.size > TokenFileFormat.maximumSize {
            throw .unreadable(path: path, reason: .tooLarge(bytes: status.size))
        }
        let data: Data
        switch POSIX.readAll(from: descriptor, limit: TokenFileFormat.maximumSize) {
        case .data(let bytes): data = bytes
        case .tooLarge: throw .unreadable(path: path, reason: .tooLarge(bytes: TokenFileFormat.maximumSize + 1))
        case .failed(let code): throw .unreadable(path: path, reason: .cannotRead(errno: code))
        }
        do {
            return try TokenFileFormat.decode(data)
        } catch {
            throw .unreadable(path: path, reason: error)
        }
    }

    /// Replaces the file with `items` (or removes it when there are none). Caller holds the lock.
    ///
    /// Temporary file in the same folder (`0600` whatever the umask), write, `fsync`, `rename`
    /// over the old file, `fsync` the folder. A crash at any point leaves the old or the new
    /// file; a leftover temporary file is removed by the next write.
    func replaceFile(with credentials: StoredCredentials) throws(TokenStoreError) {
        removeStaleTemporaryFiles()
        guard !credentials.isEmpty else {
            try removeFile()
            return
        }
        let data = try TokenFileFormat.encode(credentials)
        let folder = folderPath
        let temporary = Paths.join(
            folder, temporaryFilePrefix + "\(getpid())-\(String(UInt64.random(in: 0...UInt64.max), radix: 16))")
        let descriptor = POSIX.openFile(temporary, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else { throw POSIX.failure("create a temporary file in", folder) }
        do throws(TokenStoreError) {
            defer { POSIX.closeFile(descriptor) }
            try POSIX.setMode(0o600, of: descriptor, path: temporary)
            try POSIX.writeAll(data, to: descriptor, path: temporary)
            try POSIX.syncFile(descriptor, path: temporary)
        } catch {
            _ = try? POSIX.removeFile(temporary)
            throw error
        }
        do throws(TokenStoreError) {
            try POSIX.renameFile(temporary, to: path)
        } catch {
            _ = try? POSIX.removeFile(temporary)
            throw error
        }
        try POSIX.syncFolder(folder)
    }

    /// Removes the token file (if any) durably. Caller holds the lock.
    func removeFile() throws(TokenStoreError) {
        if try POSIX.removeFile(path) {
            try POSIX.syncFolder(folderPath)
        }
    }

    /// Removes temporary files left by writers killed mid-write. Caller holds the lock, so no
    /// live writer of this store has a temporary file open. Best effort: a failure here must
    /// not stop the write that follows.
    func removeStaleTemporaryFiles() {
        let prefix = temporaryFilePrefix
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: folderPath) else { return }
        for name in names where name.hasPrefix(prefix) {
            let stale = Paths.join(folderPath, name)
            guard let status = try? POSIX.status(atPath: stale, followLinks: false),
                status.kind == .regular, status.owner == user
            else { continue }
            _ = try? POSIX.removeFile(stale)
        }
    }
}
