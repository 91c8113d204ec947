public import Foundation

/// cardwallet's private state folder, `$XDG_STATE_HOME/cardwallet` (or
/// `~/.local/state/cardwallet`), where the token file and the log file live.
///
/// The folder is created `0700` and files in it `0600`, whatever the umask. An existing folder
/// that belongs to someone else or that others can write to is refused; one that others may
/// only read or search (`0755`) is accepted, as the files themselves are private.
public struct StateDirectory: Sendable, Hashable {
    /// The folder's name inside the XDG state home.
    public static let applicationFolderName = "cardwallet"

    /// The folder's absolute path.
    public let path: String

    /// A state folder at an explicit path (relative paths are taken from the current folder).
    ///
    /// - Parameter path: the folder to use.
    public init(path: String) {
        self.path = Paths.absolute(path)
    }

    /// The default state folder for `environment`: `$XDG_STATE_HOME/cardwallet`, or
    /// `$HOME/.local/state/cardwallet` when `XDG_STATE_HOME` is unset, empty or relative (the
    /// XDG specification says relative paths are to be ignored).
    ///
    /// - Parameter environment: the process environment (injected so tests control it).
    /// - Throws: ``TokenStoreError/noStateLocation`` when neither variable is an absolute path.
    public init(environment: [String: String]) throws(TokenStoreError) {
        if let state = environment["XDG_STATE_HOME"], state.hasPrefix("/") {
            self.path = Paths.join(state, Self.applicationFolderName)
        } else if let home = environment["HOME"], home.hasPrefix("/") {
            self.path = Paths.join(Paths.join(home, ".local/state"), Self.applicationFolderName)
        } else {
            throw .noStateLocation
        }
    }

    /// The path of a file in this folder (nothing is created).
    ///
    /// - Parameter name: a file name such as `cardwallet.log`.
    /// - Returns: the file's absolute path.
    public func filePath(named name: String) -> String {
        Paths.join(path, name)
    }

    /// Creates the folder (and missing parents) with mode `0700` if needed, then checks it.
    ///
    /// - Throws: ``TokenStoreError/unsafeFolder(path:mode:owner:user:)`` for a folder others
    ///   can write to or that belongs to someone else, or a system-call failure.
    public func create() throws(TokenStoreError) {
        try FileSafety.createFolder(path)
    }

    /// Opens a private file in this folder for writing, creating the folder and the file when
    /// missing (folder `0700`, file `0600`, also under `umask 000`).
    ///
    /// An existing file must be a regular file (not a symbolic link), yours and mode `0600` or
    /// stricter; otherwise the error names the path, its mode and the `chmod 600` fix. This is
    /// what the TUI's log writer uses for `cardwallet.log`.
    ///
    /// - Parameters:
    ///   - name: the file's name in this folder.
    ///   - mode: append to the end (the default) or start the file afresh.
    /// - Returns: a handle that closes its descriptor when released. Write with
    ///   `write(contentsOf:)`, which throws on a full disk instead of trapping.
    /// - Throws: ``TokenStoreError`` when the folder or file is unsafe or cannot be opened.
    public func openPrivateFile(named name: String, mode: PrivateFileMode = .append) throws(TokenStoreError)
        -> FileHandle
    {
        try create()
        let descriptor = try FileSafety.openPrivateFileForWriting(filePath(named: name), append: mode == .append)
        return FileHandle(fileDescriptor: descriptor, closeOnDealloc: true)
    }

    /// How ``openPrivateFile(named:mode:)`` treats what is already in the file.
    public enum PrivateFileMode: Sendable, Hashable {
        /// Keep the contents and write at the end.
        case append
        /// Empty the file first.
        case truncate
    }
}
