import Foundation

/// A small keychain in a file: token pairs keyed by server and account, kept in a private JSON
/// file (`0600` in a `0700` folder), written atomically and shared safely between processes.
///
/// - Reads (``read(server:account:)``, ``items(server:)``, ``accounts(server:)``) take no lock:
///   every write replaces the whole file with an atomic `rename`, so a reader sees the old or
///   the new file, never a mix.
/// - Changes (``save(_:replacingCorrupt:)``, ``delete(server:account:)``,
///   ``deleteAll(server:)``) take the exclusive lock themselves.
/// - ``withExclusiveAccess(isolation:_:)`` holds the lock across an async body, for a
///   read-decide-write sequence such as a token refresh that only one process may do.
///
/// The file is plain JSON protected by its permissions, **not encrypted**: anyone who can read
/// it (root, a backup, the same user's other programs) can use the tokens.
public struct TokenStore: Sendable {
    /// The token file's name in the state folder.
    public static let defaultFileName = "tokens.json"
    /// How long a change waits for another process to release the lock before giving up.
    public static let defaultLockTimeout: Duration = .seconds(30)

    /// The token file's absolute path.
    public let path: String
    /// How long to wait for the lock before failing with ``TokenStoreError/lockTimedOut(path:timeout:)``.
    public let lockTimeout: Duration
    /// The user every file and folder of the store must belong to: the process's effective
    /// user; tests name another to see a store that belongs to someone else, as any user.
    let user: UInt32

    /// The store at an explicit file path (relative paths are taken from the current folder).
    ///
    /// - Parameters:
    ///   - path: the token file; its folder is created `0700` on the first change if missing.
    ///   - lockTimeout: how long to wait for another process holding the lock.
    public init(path: String, lockTimeout: Duration = defaultLockTimeout) {
        self.init(path: path, lockTimeout: lockTimeout, user: POSIX.userID)
    }

    /// The store at `path` as `user` would see it (tests).
    init(path: String, lockTimeout: Duration = defaultLockTimeout, user: UInt32) {
        self.path = Paths.absolute(path)
        self.lockTimeout = lockTimeout
        self.user = user
    }

    /// The store at `tokens.json` in a state folder.
    ///
    /// - Parameters:
    ///   - stateDirectory: the folder, usually ``StateDirectory/init(environment:)``.
    ///   - lockTimeout: how long to wait for another process holding the lock.
    public init(stateDirectory: StateDirectory, lockTimeout: Duration = defaultLockTimeout) {
        self.init(path: stateDirectory.filePath(named: Self.defaultFileName), lockTimeout: lockTimeout)
    }

    /// The store at its default location: `$XDG_STATE_HOME/cardwallet/tokens.json`, or
    /// `~/.local/state/cardwallet/tokens.json`.
    ///
    /// - Parameters:
    ///   - environment: the process environment (injected so tests control it).
    ///   - lockTimeout: how long to wait for another process holding the lock.
    /// - Throws: ``TokenStoreError/noStateLocation`` when neither variable is usable.
    public init(environment: [String: String], lockTimeout: Duration = defaultLockTimeout) throws(TokenStoreError) {
        try self.init(stateDirectory: StateDirectory(environment: environment), lockTimeout: lockTimeout)
    }

    /// The folder holding the token file, its lock file and its temporary files.
    public var folderPath: String { Paths.parent(of: path) }

    /// The lock file beside the token file (`tokens.json.lock`). It is never removed: the data
    /// file is replaced by `rename`, so the lock lives in a file of its own.
    public var lockPath: String { path + ".lock" }

    // MARK: Reading (no lock needed)

    /// The item stored for `server` and `account`, or `nil` if there is none (or no file yet).
    ///
    /// - Parameters:
    ///   - server: the server's base URL, in any spelling ``TokenItem/normalizedServer(_:)`` accepts.
    ///   - account: the account, in any letter case.
    /// - Throws: ``TokenStoreError`` for an unreadable (corrupt) or unsafe file.
    public func read(server: String, account: String) throws(TokenStoreError) -> TokenItem? {
        try items().first { $0.matches(server: server, account: account) }
    }

    /// All stored items, or those of one server, sorted by server then account.
    ///
    /// - Parameter server: only this server's items; `nil` for all.
    /// - Throws: ``TokenStoreError`` for an unreadable (corrupt) or unsafe file.
    public func items(server: String? = nil) throws(TokenStoreError) -> [TokenItem] {
        try Self.filter(loadItems() ?? [], server: server)
    }

    /// The accounts stored for `server` — with tokens or with a password — sorted; the CLI uses
    /// the only one when none is given.
    ///
    /// - Parameter server: the server's base URL.
    /// - Throws: ``TokenStoreError`` for an unreadable (corrupt) or unsafe file.
    public func accounts(server: String) throws(TokenStoreError) -> [String] {
        Self.accounts(of: try loadCredentials() ?? StoredCredentials(), server: server)
    }

    /// The password stored for `server` and `account`, or `nil`.
    ///
    /// - Throws: ``TokenStoreError`` for an unreadable (corrupt) or unsafe file.
    public func password(server: String, account: String) throws(TokenStoreError) -> PasswordItem? {
        try loadCredentials()?.passwords.first { $0.matches(server: server, account: account) }
    }

    /// The passwords stored (for one server), sorted by server then account.
    ///
    /// - Throws: ``TokenStoreError`` for an unreadable (corrupt) or unsafe file.
    public func passwords(server: String? = nil) throws(TokenStoreError) -> [PasswordItem] {
        let all = try loadCredentials()?.passwords ?? []
        return all.filter { item in server.map { item.matches(server: $0) } ?? true }
            .sorted { ($0.server, $0.account) < ($1.server, $1.account) }
    }

    // MARK: Changing (takes the lock)

    /// Adds `item`, or replaces the item with the same server and account.
    ///
    /// - Parameters:
    ///   - item: the tokens to keep.
    ///   - replacingCorrupt: `true` only after a successful login: an unreadable (corrupt) file
    ///     is then replaced by a file holding just `item`. Otherwise such a file is left as it
    ///     is and the error is thrown. Unsafe files (mode, owner, type) are refused either way.
    /// - Throws: ``TokenStoreError``, or `CancellationError` if cancelled while waiting for the lock.
    public func save(_ item: TokenItem, replacingCorrupt: Bool = false) async throws {
        try await withExclusiveAccess { file in
            try file.save(item, replacingCorrupt: replacingCorrupt)
        }
    }

    /// Adds a password, or replaces the one with the same server and account.
    ///
    /// - Throws: ``TokenStoreError``, or `CancellationError` if cancelled while waiting for the lock.
    public func save(_ item: PasswordItem) async throws {
        try await withExclusiveAccess { file in try file.save(item) }
    }

    /// Removes the password for `server` and `account`.
    ///
    /// - Returns: whether there was one.
    /// - Throws: ``TokenStoreError``, or `CancellationError` if cancelled while waiting for the lock.
    @discardableResult
    public func deletePassword(server: String, account: String) async throws -> Bool {
        try await withExclusiveAccess { file in try file.deletePassword(server: server, account: account) }
    }

    /// Removes the item for `server` and `account`.
    ///
    /// - Returns: whether there was such an item.
    /// - Throws: ``TokenStoreError``, or `CancellationError` if cancelled while waiting for the lock.
    @discardableResult
    public func delete(server: String, account: String) async throws -> Bool {
        try await withExclusiveAccess { file in
            try file.delete(server: server, account: account)
        }
    }

    /// Removes every item, or every item of one server.
    ///
    /// Without a server the whole file is removed, even an unreadable (corrupt) one: that is
    /// how "log out everywhere" clears a damaged store. With a server the file must be readable.
    ///
    /// - Parameter server: only this server's items; `nil` for all.
    /// - Throws: ``TokenStoreError``, or `CancellationError` if cancelled while waiting for the lock.
    public func deleteAll(server: String? = nil) async throws {
        try await withExclusiveAccess { file in
            try file.deleteAll(server: server)
        }
    }

    /// The accounts of `credentials` at `server`, of both kinds, sorted, each once.
    static func accounts(of credentials: StoredCredentials, server: String) -> [String] {
        let names =
            credentials.tokens.filter { $0.matches(server: server) }.map(\.account)
            + credentials.passwords.filter { $0.matches(server: server) }.map(\.account)
        var seen = Set<String>()
        return names.sorted().filter { seen.insert($0.lowercased()).inserted }
    }

    static func filter(_ items: [TokenItem], server: String?) -> [TokenItem] {
        let selected = server.map { server in items.filter { $0.matches(server: server) } } ?? items
        return selected.sorted { ($0.server, $0.account) < ($1.server, $1.account) }
    }
}
