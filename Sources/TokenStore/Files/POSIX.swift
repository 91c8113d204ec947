import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// Thin wrappers over the system calls the store needs, turning `errno` into ``TokenStoreError``.
enum POSIX {
    /// The effective user id: the owner every file and folder of the store must have.
    static var userID: UInt32 { UInt32(geteuid()) }

    /// `strerror` text for an `errno` value.
    static func message(for code: Int32) -> String {
        String(cString: strerror(code))
    }

    /// The login name of `uid`, if the user database knows it.
    static func userName(_ uid: UInt32) -> String? {
        var entry = passwd()
        var result: UnsafeMutablePointer<passwd>?
        var buffer = [CChar](repeating: 0, count: 4096)
        let status = getpwuid_r(uid_t(uid), &entry, &buffer, buffer.count, &result)
        guard status == 0, result != nil, let name = entry.pw_name else { return nil }
        return String(cString: name)
    }

    /// The error for the `errno` left by a failed call.
    static func failure(_ operation: String, _ path: String, _ code: Int32 = errno) -> TokenStoreError {
        .systemCallFailed(operation: operation, path: path, errno: code)
    }

    /// `open(2)`, retried on `EINTR`. Returns the descriptor, or -1 with `errno` set.
    static func openFile(_ path: String, _ flags: Int32, _ mode: UInt32 = 0) -> Int32 {
        while true {
            let descriptor = open(path, flags, mode_t(mode))
            if descriptor >= 0 || errno != EINTR { return descriptor }
        }
    }

    /// `close(2)`, ignoring errors: the descriptors closed this way were only read or locked.
    static func closeFile(_ descriptor: Int32) {
        _ = close(descriptor)
    }

    /// `fstat(2)`.
    static func status(of descriptor: Int32, path: String) throws(TokenStoreError) -> FileStatus {
        var info = stat()
        guard fstat(descriptor, &info) == 0 else { throw failure("inspect", path) }
        return FileStatus(info)
    }

    /// `stat(2)` (following symbolic links) or `lstat(2)`; `nil` when nothing is there.
    static func status(atPath path: String, followLinks: Bool) throws(TokenStoreError) -> FileStatus? {
        var info = stat()
        let result = followLinks ? stat(path, &info) : lstat(path, &info)
        if result == 0 { return FileStatus(info) }
        if errno == ENOENT || errno == ENOTDIR { return nil }
        throw failure("inspect", path)
    }

    /// `fchmod(2)`.
    static func setMode(_ mode: UInt32, of descriptor: Int32, path: String) throws(TokenStoreError) {
        guard fchmod(descriptor, mode_t(mode)) == 0 else { throw failure("set the mode of", path) }
    }

    /// Writes all of `data`, retrying short writes and `EINTR`.
    static func writeAll(_ data: Data, to descriptor: Int32, path: String) throws(TokenStoreError) {
        var failure: TokenStoreError?
        data.withUnsafeBytes { (buffer: UnsafeRawBufferPointer) in
            var offset = 0
            while offset < buffer.count, let base = buffer.baseAddress {
                let written = write(descriptor, base + offset, buffer.count - offset)
                if written > 0 {
                    offset += written
                } else if written < 0 && errno == EINTR {
                    continue
                } else {
                    failure = Self.failure("write", path, written < 0 ? errno : EIO)
                    return
                }
            }
        }
        if let failure { throw failure }
    }

    /// What ``readAll(from:limit:)`` found.
    enum ReadOutcome {
        case data(Data)
        case tooLarge
        case failed(errno: Int32)
    }

    /// Reads the whole file, refusing more than `limit` bytes.
    static func readAll(from descriptor: Int32, limit: Int) -> ReadOutcome {
        var data = Data()
        var chunk = [UInt8](repeating: 0, count: 64 * 1024)
        while true {
            let count = chunk.withUnsafeMutableBytes { buffer in
                read(descriptor, buffer.baseAddress, buffer.count)
            }
            if count == 0 { return .data(data) }
            if count < 0 {
                if errno == EINTR { continue }
                return .failed(errno: errno)
            }
            data.append(contentsOf: chunk[0..<count])
            if data.count > limit { return .tooLarge }
        }
    }

    /// `fsync(2)`: the data reaches the disk before we go on.
    static func syncFile(_ descriptor: Int32, path: String) throws(TokenStoreError) {
        while fsync(descriptor) != 0 {
            if errno != EINTR { throw failure("flush", path) }
        }
    }

    /// Flushes a folder's entries (after a rename or unlink in it), so the change survives a crash.
    static func syncFolder(_ path: String) throws(TokenStoreError) {
        let descriptor = openFile(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard descriptor >= 0 else { throw failure("open the folder", path) }
        defer { closeFile(descriptor) }
        try syncFile(descriptor, path: path)
    }

    /// `rename(2)`: atomically replaces `destination`.
    static func renameFile(_ source: String, to destination: String) throws(TokenStoreError) {
        guard rename(source, destination) == 0 else { throw failure("replace", destination) }
    }

    /// `unlink(2)`; a file that is already gone is not an error.
    ///
    /// - Returns: whether a file was removed.
    @discardableResult
    static func removeFile(_ path: String) throws(TokenStoreError) -> Bool {
        if unlink(path) == 0 { return true }
        if errno == ENOENT { return false }
        throw failure("remove", path)
    }

    /// `mkdir(2)` with an explicit mode. Returns whether it created the folder.
    static func makeFolder(_ path: String, mode: UInt32) throws(TokenStoreError) -> Bool {
        if mkdir(path, mode_t(mode)) == 0 { return true }
        if errno == EEXIST { return false }
        throw failure("create the folder", path)
    }

    /// `chmod(2)`.
    static func setMode(_ mode: UInt32, atPath path: String) throws(TokenStoreError) {
        guard chmod(path, mode_t(mode)) == 0 else { throw failure("set the mode of", path) }
    }
}

/// The parts of `struct stat` the store looks at.
struct FileStatus: Equatable {
    /// Permission bits (and setuid/setgid/sticky), without the type.
    var permissions: UInt32
    /// The owner's user id.
    var owner: UInt32
    /// Size in bytes.
    var size: Int
    /// What kind of file this is.
    var kind: Kind
    /// Device and inode: the file's identity.
    var identity: [UInt64]

    /// The file types the store tells apart.
    enum Kind: Equatable {
        case regular, folder, symbolicLink, other

        /// "a symbolic link", for messages.
        var phrase: String {
            switch self {
            case .regular: "a regular file"
            case .folder: "a folder"
            case .symbolicLink: "a symbolic link"
            case .other: "a special file"
            }
        }
    }

    init(_ info: stat) {
        let type = UInt32(info.st_mode) & UInt32(S_IFMT)
        permissions = UInt32(info.st_mode) & 0o7777
        owner = UInt32(info.st_uid)
        size = Int(info.st_size)
        switch type {
        case UInt32(S_IFREG): kind = .regular
        case UInt32(S_IFDIR): kind = .folder
        case UInt32(S_IFLNK): kind = .symbolicLink
        default: kind = .other
        }
        identity = [UInt64(info.st_dev), UInt64(info.st_ino)]
    }
}
