import CardBackend
public import CardCache
import CardModels
import CardWalletUI
import Foundation
import Logging
import OwnThreads
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
        /// The book tag the cards' ids were made to name (``CardWalletUI/BookCardID``), the one the
        /// shelf gives the book when it lists the books as guessed; `nil`: their own ids.
        public let tag: String?

        /// A read of `cache`, the cache of the book with cache key `walletKey` of `user`.
        public init(walletKey: String, user: String, cache: CardCache, list: CachedList?, tag: String? = nil) {
            self.walletKey = walletKey
            self.user = user
            self.cache = cache
            self.list = list
            self.tag = tag
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

    /// One book to read early, and the tag the shelf will give it (``Bookshelf/tag(of:)``: the
    /// books numbered in their order) when its books are as guessed.
    struct Guess: Sendable {
        var walletKey: String
        var user: String
        var tag: String
    }

    /// The books of `records` to read early, but `skipping` (the account's own book, which
    /// ``EarlyWallet`` reads): each account's remembered books, else its record's, in the
    /// shelf's order (``Bookshelf/books(refresh:)``); and the tag the skipped book will have.
    static func guesses(
        records: [AccountRecord], remembered: RememberedBooks.Contents, skipping: (walletKey: String, user: String)?
    ) -> (others: [Guess], skippedTag: String?) {
        var found: [Guess] = []
        var skippedTag: String?
        var position = 0
        for record in records {
            let books: [String?] =
                remembered.accounts[RememberedBooks.accountKey(server: record.server, user: record.user)]?.map(\.id)
                ?? [AccountDirectory.bookID(ofPath: record.book)]
            for book in books {
                let walletKey = ServerAddress.walletKey(server: record.server, book: book)
                position += 1
                if let skipping, skipping.walletKey == walletKey,
                    skipping.user.lowercased() == record.user.lowercased()
                {
                    skippedTag = String(position)
                    continue
                }
                found.append(Guess(walletKey: walletKey, user: record.user, tag: String(position)))
            }
        }
        return (found, skippedTag)
    }

    /// Opens and reads, at once, the caches of the books `guesses` names that exist already
    /// (a book never synced here has none, and an early read must not make one), each card's id
    /// made to name its book's guessed tag, as the All view shows them.
    static func read(_ guesses: [Guess], location: CacheLocation, logger: Logger) async -> EarlyShelf {
        await withTaskGroup(of: Read?.self) { group in
            for guess in guesses {
                group.addTask {
                    await onOwnThread {
                        guard
                            FileManager.default.fileExists(
                                atPath: location.databasePath(server: guess.walletKey, account: guess.user)),
                            let cache = try? CardCache.open(
                                server: guess.walletKey, account: guess.user, location: location, logger: logger)
                        else { return nil }
                        var list = CachedWallet.listWithPendingChanges(in: cache, logger: logger)
                        list?.cards.retag(from: nil, to: guess.tag)
                        return Read(
                            walletKey: guess.walletKey, user: guess.user, cache: cache, list: list, tag: guess.tag)
                    }
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

/// The result of `body` run on a thread of its own: an early read is blocking SQLite work, and
/// the cooperative pool has one thread a core (two here), so three reads on it ran two after
/// another while the third waited; on threads of their own the system shares the cores between
/// them and the main thread's start.
func onOwnThread<T: Sendable>(_ body: @escaping @Sendable () -> T) async -> T {
    await OwnThread.run(name: "cardwallet.early-read", body)
}

extension [CardSummary] {
    /// Makes each card's id, now naming the book tagged `current` (`nil`: its own id), name the
    /// book tagged `tag` instead (``CardWalletUI/BookCardID``; `nil`: its own id again).
    mutating func retag(from current: String?, to tag: String?) {
        guard current != tag else { return }
        let prefix = current.map { BookCardID.make(book: $0, id: "") }
        for index in indices {
            var own = self[index].id
            if let prefix, own.hasPrefix(prefix) { own.removeFirst(prefix.count) }
            self[index].id = tag.map { BookCardID.make(book: $0, id: own) } ?? own
        }
    }
}
