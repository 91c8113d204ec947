import Foundation
import Synchronization

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// The token file while this process holds its exclusive lock, handed to the body of
/// ``TokenStore/withExclusiveAccess(isolation:_:)``.
///
/// Its methods never lock again, so a body can re-read, save and delete freely. Each call
/// reads the file afresh, so it sees what another process wrote before the lock was taken.
/// Calls from concurrent child tasks of the body are serialised. After the body returns, every
/// method throws ``TokenStoreError/lockReleased(path:)``.
public final class LockedTokenFile: Sendable {
    /// The store this lock belongs to.
    public let store: TokenStore

    /// The lock file's descriptor while held; closing it releases the `flock`.
    private let lock: Mutex<Int32?>

    init(store: TokenStore, lockDescriptor: Int32) {
        self.store = store
        self.lock = Mutex(lockDescriptor)
    }

    deinit {
        release()
    }

    /// Whether the lock is still held (the body has not returned yet).
    public var isHeld: Bool {
        lock.withLock { $0 != nil }
    }

    /// The item stored for `server` and `account`, read from the file now.
    ///
    /// - Throws: ``TokenStoreError`` for an unreadable or unsafe file, or a released lock.
    public func read(server: String, account: String) throws(TokenStoreError) -> TokenItem? {
        try whileHeld { () throws(TokenStoreError) in
            try store.loadItems()?.first { $0.matches(server: server, account: account) }
        }
    }

    /// All items, or one server's, read from the file now, sorted by server then account.
    ///
    /// - Throws: ``TokenStoreError`` for an unreadable or unsafe file, or a released lock.
    public func items(server: String? = nil) throws(TokenStoreError) -> [TokenItem] {
        try whileHeld { () throws(TokenStoreError) in
            TokenStore.filter(try store.loadItems() ?? [], server: server)
        }
    }

    /// The accounts stored for `server`, sorted.
    ///
    /// - Throws: ``TokenStoreError`` for an unreadable or unsafe file, or a released lock.
    public func accounts(server: String) throws(TokenStoreError) -> [String] {
        try whileHeld { () throws(TokenStoreError) in
            TokenStore.accounts(of: try store.loadCredentials() ?? StoredCredentials(), server: server)
        }
    }

    /// The password stored for `server` and `account`, or `nil`.
    ///
    /// - Throws: ``TokenStoreError`` for an unreadable or unsafe file, or a released lock.
    public func password(server: String, account: String) throws(TokenStoreError) -> PasswordItem? {
        try whileHeld { () throws(TokenStoreError) in
            try store.loadCredentials()?.passwords.first { $0.matches(server: server, account: account) }
        }
    }

    /// Adds `item` or replaces the password with the same key, writing the file atomically.
    ///
    /// - Throws: ``TokenStoreError``; an unreadable file is left untouched.
    public func save(_ item: PasswordItem) throws(TokenStoreError) {
        guard !item.server.isEmpty else { throw .invalidItem(reason: "the server is empty") }
        guard !item.account.isEmpty else { throw .invalidItem(reason: "the account is empty") }
        try whileHeld { () throws(TokenStoreError) in
            var credentials = try store.loadCredentials() ?? StoredCredentials()
            credentials.passwords.removeAll { $0.matches(server: item.server, account: item.account) }
            credentials.passwords.append(item)
            try store.replaceFile(with: credentials)
        }
    }

    /// Removes the password for `server` and `account`; the file is removed with its last item.
    ///
    /// - Returns: whether there was such a password.
    @discardableResult
    public func deletePassword(server: String, account: String) throws(TokenStoreError) -> Bool {
        try whileHeld { () throws(TokenStoreError) in
            guard var credentials = try store.loadCredentials() else { return false }
            let count = credentials.passwords.count
            credentials.passwords.removeAll { $0.matches(server: server, account: account) }
            guard credentials.passwords.count != count else { return false }
            try store.replaceFile(with: credentials)
            return true
        }
    }

    /// Adds `item` or replaces the item with the same key, writing the file atomically.
    ///
    /// - Parameters:
    ///   - item: the tokens to keep.
    ///   - replacingCorrupt: `true` only after a successful login, to replace an unreadable file.
    /// - Throws: ``TokenStoreError``; an unreadable file is left untouched unless `replacingCorrupt`.
    public func save(_ item: TokenItem, replacingCorrupt: Bool = false) throws(TokenStoreError) {
        guard !item.server.isEmpty else { throw .invalidItem(reason: "the server is empty") }
        guard !item.account.isEmpty else { throw .invalidItem(reason: "the account is empty") }
        try whileHeld { () throws(TokenStoreError) in
            var credentials: StoredCredentials
            do throws(TokenStoreError) {
                credentials = try store.loadCredentials() ?? StoredCredentials()
            } catch {
                guard case .unreadable = error, replacingCorrupt else { throw error }
                credentials = StoredCredentials()
            }
            credentials.tokens.removeAll { $0.matches(server: item.server, account: item.account) }
            credentials.tokens.append(item)
            try store.replaceFile(with: credentials)
        }
    }

    /// Removes the item for `server` and `account`; the file is removed with its last item.
    ///
    /// - Returns: whether there was such an item.
    /// - Throws: ``TokenStoreError`` for an unreadable or unsafe file, or a released lock.
    @discardableResult
    public func delete(server: String, account: String) throws(TokenStoreError) -> Bool {
        try whileHeld { () throws(TokenStoreError) in
            guard var credentials = try store.loadCredentials() else { return false }
            let count = credentials.tokens.count
            credentials.tokens.removeAll { $0.matches(server: server, account: account) }
            guard credentials.tokens.count != count else { return false }
            try store.replaceFile(with: credentials)
            return true
        }
    }

    /// Removes every item (token pairs and passwords), or every item of one server.
    ///
    /// Without a server the file is removed even when it is unreadable (corrupt); unsafe files
    /// are refused. With a server the file must be readable.
    ///
    /// - Throws: ``TokenStoreError``, or a released lock.
    public func deleteAll(server: String? = nil) throws(TokenStoreError) {
        try whileHeld { () throws(TokenStoreError) in
            let stored: StoredCredentials?
            do throws(TokenStoreError) {
                stored = try store.loadCredentials()
            } catch {
                guard case .unreadable = error, server == nil else { throw error }
                try store.removeFile()
                return
            }
            guard let stored else { return }
            guard let server else {
                try store.replaceFile(with: StoredCredentials())
                return
            }
            let kept = StoredCredentials(
                tokens: stored.tokens.filter { !$0.matches(server: server) },
                passwords: stored.passwords.filter { !$0.matches(server: server) })
            if kept != stored {
                try store.replaceFile(with: kept)
            }
        }
    }

    /// Reads the file, lets `body` change what it holds, and writes it back when it changed.
    ///
    /// - Parameter replacingCorrupt: start from nothing when the file is unreadable (a login's
    ///   own write only).
    func modify<Result: Sendable>(
        replacingCorrupt: Bool = false, _ body: (inout StoredCredentials) -> Result
    ) throws(TokenStoreError) -> Result {
        try whileHeld { () throws(TokenStoreError) -> Result in
            var credentials: StoredCredentials
            let stored: StoredCredentials?
            do throws(TokenStoreError) {
                stored = try store.loadCredentials()
                credentials = stored ?? StoredCredentials()
            } catch {
                guard case .unreadable = error, replacingCorrupt else { throw error }
                stored = nil
                credentials = StoredCredentials()
            }
            let result = body(&credentials)
            if credentials != stored { try store.replaceFile(with: credentials) }
            return result
        }
    }

    /// Releases the lock (idempotent).
    func release() {
        lock.withLock { descriptor in
            if let held = descriptor {
                POSIX.closeFile(held)
                descriptor = nil
            }
        }
    }

    /// Runs `body` while the lock is held, one call at a time.
    private func whileHeld<Result: Sendable>(
        _ body: () throws(TokenStoreError) -> Result
    ) throws(TokenStoreError) -> Result {
        try lock.withLock { (descriptor: inout Int32?) throws(TokenStoreError) -> Result in
            guard descriptor != nil else { throw .lockReleased(path: store.lockPath) }
            return try body()
        }
    }
}
