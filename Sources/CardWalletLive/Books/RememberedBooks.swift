public import CardBackend
public import CardCache
import Foundation
import Synchronization

/// What the wallet remembers about the books between runs, in `books.json` beside the caches
/// (the same private `0700` folder, the file `0600`): each account's address books as its server
/// last listed them — so the All view's first frame, an offline start and name lookups know
/// every book without asking any server — and whether the interface last showed all of them.
///
/// Only names and addresses of books: never a card, a token or a password. A file that cannot be
/// read is as good as none (the books are asked for again online).
public struct RememberedBooks: Sendable {
    /// The folder it lives in.
    public let location: CacheLocation

    /// The file in `location`.
    public init(location: CacheLocation) {
        self.location = location
    }

    struct Contents: Codable {
        var version = 1
        /// Whether the interface last showed every book (the All view).
        var showsAll: Bool?
        /// By ``WalletBook/key``-like account key (`server` + newline + user): its books.
        var accounts: [String: [AddressBookInfo]] = [:]
        /// When each account's books were last listed by its server (seconds since 1970).
        var listedAt: [String: Double]?
    }

    var path: String { location.folder + "/books.json" }

    /// Serialises this process's writes (two processes may both write: the last one wins,
    /// which is as good: both listed the same server).
    private static let writing = Mutex(())

    func read() -> Contents {
        guard let data = FileManager.default.contents(atPath: path),
            let contents = try? JSONDecoder().decode(Contents.self, from: data)
        else { return Contents() }
        return contents
    }

    func write(_ change: (inout Contents) -> Void) {
        Self.writing.withLock { _ in
            var contents = read()
            change(&contents)
            guard let data = try? JSONEncoder().encode(contents) else { return }
            do {
                try FileManager.default.createDirectory(
                    atPath: location.folder, withIntermediateDirectories: true,
                    attributes: [.posixPermissions: 0o700])
                try data.write(to: URL(fileURLWithPath: path), options: .atomic)
                try FileManager.default.setAttributes([.posixPermissions: 0o600], ofItemAtPath: path)
            } catch {
                // Only a memory of names: the books are asked for again next time.
            }
        }
    }

    static func accountKey(server: String, user: String) -> String {
        ServerAddress.key(server) + "\n" + user.lowercased()
    }

    /// The books `user` at `server` had when last listed; `nil` when never listed here.
    public func books(server: String, user: String) -> [AddressBookInfo]? {
        Self.books(server: server, user: user, in: read())
    }

    /// The books `user` at `server` had in `contents` (the file read once for several accounts).
    static func books(server: String, user: String, in contents: Contents) -> [AddressBookInfo]? {
        contents.accounts[accountKey(server: server, user: user)]
    }

    /// Remembers the books `user` at `server` has now.
    public func remember(_ books: [AddressBookInfo], server: String, user: String) {
        let key = Self.accountKey(server: server, user: user)
        write { contents in
            contents.accounts[key] = books
            contents.listedAt = (contents.listedAt ?? [:]).merging([key: Date().timeIntervalSince1970]) { $1 }
        }
    }

    /// Forgets the books of an account (logged out).
    public func forget(server: String, user: String) {
        let key = Self.accountKey(server: server, user: user)
        write { contents in
            contents.accounts[key] = nil
            contents.listedAt?[key] = nil
        }
    }

    /// Whether the interface last showed every book at once.
    public var showsAll: Bool {
        get { read().showsAll ?? false }
        nonmutating set { write { $0.showsAll = newValue } }
    }
}
