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
        try items(server: server).map(\.account)
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
            var items: [TokenItem]
            do throws(TokenStoreError) {
                items = try store.loadItems() ?? []
            } catch {
                guard case .unreadable = error, replacingCorrupt else { throw error }
                items = []
            }
            items.removeAll { $0.matches(server: item.server, account: item.account) }
            items.append(item)
            try store.replaceFile(with: items)
        }
    }

    /// Removes the item for `server` and `account`; the file is removed with its last item.
    ///
    /// - Returns: whether there was such an item.
    /// - Throws: ``TokenStoreError`` for an unreadable or unsafe file, or a released lock.
    @discardableResult
    public func delete(server: String, account: String) throws(TokenStoreError) -> Bool {
        try whileHeld { () throws(TokenStoreError) in
            guard var items = try store.loadItems() else { return false }
            let count = items.count
            items.removeAll { $0.matches(server: server, account: account) }
            guard items.count != count else { return false }
            try store.replaceFile(with: items)
            return true
        }
    }

    /// Removes every item, or every item of one server.
    ///
    /// Without a server the file is removed even when it is unreadable (corrupt); unsafe files
    /// are refused. With a server the file must be readable.
    ///
    /// - Throws: ``TokenStoreError``, or a released lock.
    public func deleteAll(server: String? = nil) throws(TokenStoreError) {
        try whileHeld { () throws(TokenStoreError) in
            let items: [TokenItem]?
            do throws(TokenStoreError) {
                items = try store.loadItems()
            } catch {
                guard case .unreadable = error, server == nil else { throw error }
                try store.removeFile()
                return
            }
            guard let items else { return }
            guard let server else {
                try store.replaceFile(with: [])
                return
            }
            let kept = items.filter { !$0.matches(server: server) }
            if kept.count != items.count {
                try store.replaceFile(with: kept)
            }
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
