import CardBackend
public import CardCache
import Foundation
import Logging
import Synchronization
import TokenStore

/// The All view's other books, read at the very start beside the account's own (``EarlyWallet``)
/// when the interface last showed every book: each book's cache opened and its list read at
/// once, while the live client and curses start, so that the All view's first frame waits for
/// no cache it could have read earlier (docs/BENCHMARKS.md, "#40").
///
/// Which books those are is a guess made without a backend — each stored account's books as
/// `books.json` remembers them, else the book its record names — that ``Bookshelf`` checks: a
/// read is used only for a book it lists under the same cache key and user (``take(walletKey:user:)``),
/// and the reads nobody took are closed (``closeRest()``).
public final class EarlyShelf: Sendable {
    /// One book's early read.
    public struct Read: Sendable {
        /// The book's cache key (``CardBackend/ServerAddress/walletKey(server:book:)``).
        public let walletKey: String
        /// The account's user.
        public let user: String
        /// The cache, open.
        public let cache: CardCache
        /// Its cards, the outbox's waiting changes applied; `nil` when nothing is cached yet.
        public let list: CachedList?

        /// A read of `cache`, the cache of the book with cache key `walletKey` of `user`.
        public init(walletKey: String, user: String, cache: CardCache, list: CachedList?) {
            self.walletKey = walletKey
            self.user = user
            self.cache = cache
            self.list = list
        }
    }

    private let reads: Mutex<[String: Read]>

    /// The reads, by book.
    public init(_ reads: [Read]) {
        self.reads = Mutex(Dictionary(reads.map { (Self.key($0.walletKey, $0.user), $0) }) { first, _ in first })
    }

    private static func key(_ walletKey: String, _ user: String) -> String {
        walletKey + "\n" + user.lowercased()
    }

    /// The read of the book with cache key `walletKey` of `user`, once; `nil` when none was made.
    public func take(walletKey: String, user: String) -> Read? {
        reads.withLock { $0.removeValue(forKey: Self.key(walletKey, user)) }
    }

    /// Closes every read not taken.
    public func closeRest() {
        let rest = reads.withLock { reads in
            defer { reads = [:] }
            return Array(reads.values)
        }
        for read in rest { read.cache.close() }
    }

    /// The books of `records` to read early, as (cache key, user), but `skipping` (the account's
    /// own book, which ``EarlyWallet`` reads): each account's remembered books, else its record's.
    static func guesses(
        records: [AccountRecord], remembered: RememberedBooks, skipping: (walletKey: String, user: String)?
    ) -> [(walletKey: String, user: String)] {
        var found: [(walletKey: String, user: String)] = []
        for record in records {
            let books: [String?] =
                remembered.books(server: record.server, user: record.user)?.map(\.id)
                ?? [AccountDirectory.bookID(ofPath: record.book)]
            for book in books {
                let walletKey = ServerAddress.walletKey(server: record.server, book: book)
                if let skipping, skipping.walletKey == walletKey,
                    skipping.user.lowercased() == record.user.lowercased()
                {
                    continue
                }
                found.append((walletKey, record.user))
            }
        }
        return found
    }

    /// Opens and reads, at once, the caches of the books `guesses` names that exist already
    /// (a book never synced here has none, and an early read must not make one).
    static func read(
        _ guesses: [(walletKey: String, user: String)], location: CacheLocation, logger: Logger
    ) async -> EarlyShelf {
        await withTaskGroup(of: Read?.self) { group in
            for guess in guesses {
                group.addTask {
                    guard
                        FileManager.default.fileExists(
                            atPath: location.databasePath(server: guess.walletKey, account: guess.user)),
                        let cache = try? CardCache.open(
                            server: guess.walletKey, account: guess.user, location: location, logger: logger)
                    else { return nil }
                    return Read(
                        walletKey: guess.walletKey, user: guess.user, cache: cache,
                        list: CachedWallet.listWithPendingChanges(in: cache, logger: logger))
                }
            }
            var reads: [Read] = []
            for await read in group {
                if let read { reads.append(read) }
            }
            return EarlyShelf(reads)
        }
    }
}
