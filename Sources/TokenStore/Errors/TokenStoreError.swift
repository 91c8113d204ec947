public import Foundation

/// Everything that can go wrong with the token file, its folder or its lock.
///
/// Every description names the path involved and what to do about it. No description ever
/// contains a token: the store never puts file contents into an error.
public enum TokenStoreError: Error, Sendable, Hashable {
    /// The token file exists but cannot be used as a token store (corrupt, truncated, not
    /// JSON, wrong types, a newer format, or the OS refused to read it).
    ///
    /// The store never overwrites such a file, except by a save with `replacingCorrupt: true`
    /// (which only a successful login passes) or by ``TokenStore/deleteAll(server:)`` without
    /// a server.
    case unreadable(path: String, reason: UnreadableReason)

    /// The file is readable or writable by the group or by others (`mode & 0o077 != 0`).
    case fileTooOpen(path: String, mode: UInt32)

    /// The file belongs to another user.
    case fileNotOwned(path: String, mode: UInt32, owner: UInt32, user: UInt32)

    /// Something other than a regular file sits at the path (a symbolic link, a folder, …).
    case notARegularFile(path: String, kind: String)

    /// The folder holding the file is writable by the group or others, or belongs to another
    /// user, so someone else could replace the file.
    case unsafeFolder(path: String, mode: UInt32, owner: UInt32, user: UInt32)

    /// Neither `XDG_STATE_HOME` nor `HOME` gives an absolute path for the default location.
    case noStateLocation

    /// Another process held the lock for longer than the store's lock timeout.
    case lockTimedOut(path: String, timeout: Duration)

    /// A ``LockedTokenFile`` was used after the body of
    /// ``TokenStore/withExclusiveAccess(isolation:_:)`` that handed it out had returned.
    case lockReleased(path: String)

    /// The item cannot be stored (an empty server or account).
    case invalidItem(reason: String)

    /// An operating-system call failed.
    case systemCallFailed(operation: String, path: String, errno: Int32)

    /// Why an existing token file could not be used.
    public enum UnreadableReason: Error, Sendable, Hashable, CustomStringConvertible {
        /// The file is empty.
        case empty
        /// The file is larger than the store ever writes.
        case tooLarge(bytes: Int)
        /// The bytes are not JSON (random bytes, a truncated file, …).
        case notJSON
        /// The JSON does not have the token file's shape; `detail` names the field, never a value.
        case wrongFormat(detail: String)
        /// The file was written by a newer cardwallet using a format this one does not know.
        case unsupportedVersion(Int)
        /// The operating system refused to read it.
        case cannotRead(errno: Int32)

        /// A short human phrase, e.g. "not valid JSON".
        public var description: String {
            switch self {
            case .empty: "the file is empty"
            case .tooLarge(let bytes): "the file is \(bytes) bytes, more than a token file can be"
            case .notJSON: "not valid JSON: truncated or damaged"
            case .wrongFormat(let detail): "not a token file: \(detail)"
            case .unsupportedVersion(let version):
                "format version \(version) was written by a newer cardwallet; this one reads version "
                    + "\(TokenFileFormat.currentVersion)"
            case .cannotRead(let code): "cannot read it: \(POSIX.message(for: code))"
            }
        }
    }
}

extension TokenStoreError: CustomStringConvertible, LocalizedError {
    /// What happened and how to fix it, naming the path; never any token.
    public var description: String {
        switch self {
        case .unreadable(let path, let reason):
            return "token store unreadable at \(Quoting.display(path)) (\(reason)); log in again to replace it"
        case .fileTooOpen(let path, let mode):
            return "\(Quoting.display(path)) has mode \(Quoting.octal(mode)), so other users can read or change it; "
                + "cardwallet refuses to use it. It must be private to you: chmod 600 \(Quoting.shell(path))"
        case .fileNotOwned(let path, let mode, let owner, let user):
            return "\(Quoting.display(path)) (mode \(Quoting.octal(mode))) is owned by \(Quoting.user(owner)), "
                + "not by you (\(Quoting.user(user))); cardwallet refuses to use it. Remove it, or make it yours "
                + "and private: chown \(Quoting.owner(user)) \(Quoting.shell(path)) && chmod 600 \(Quoting.shell(path))"
        case .notARegularFile(let path, let kind):
            return "\(Quoting.display(path)) is \(kind), not a regular file; cardwallet refuses to use it. "
                + "Move it away (it must be a plain file, mode 0600) and try again"
        case .unsafeFolder(let path, let mode, let owner, let user):
            if owner != user {
                return "folder \(Quoting.display(path)) (mode \(Quoting.octal(mode))) is owned by "
                    + "\(Quoting.user(owner)), not by you (\(Quoting.user(user))), so it could replace your "
                    + "files; cardwallet refuses to use it. Choose another location, or: chown \(Quoting.owner(user)) "
                    + "\(Quoting.shell(path)) && chmod 700 \(Quoting.shell(path))"
            }
            return "folder \(Quoting.display(path)) has mode \(Quoting.octal(mode)), so other users can replace "
                + "files in it; cardwallet refuses to use it. Fix it with: chmod 700 \(Quoting.shell(path))"
        case .noStateLocation:
            return "cannot tell where to keep tokens: neither XDG_STATE_HOME nor HOME is an absolute path; "
                + "set one of them or choose a token file explicitly"
        case .lockTimedOut(let path, let timeout):
            return "timed out after \(Quoting.seconds(timeout)) waiting for the token store lock "
                + "\(Quoting.display(path)); another cardwallet process is holding it. Try again"
        case .lockReleased(let path):
            return "the token store lock \(Quoting.display(path)) was already released: a locked token file "
                + "can only be used inside the body that received it"
        case .invalidItem(let reason):
            return "cannot store these tokens: \(reason)"
        case .systemCallFailed(let operation, let path, let code):
            return "cannot \(operation) \(Quoting.display(path)): \(POSIX.message(for: code))"
        }
    }

    /// The same text as ``description``.
    public var errorDescription: String? { description }
}
