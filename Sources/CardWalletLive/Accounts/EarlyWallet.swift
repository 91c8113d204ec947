import CardBackend
public import CardCache
import CardModels
public import CardWalletUI
import Foundation
public import Logging
public import TokenStore

/// The cached wallet read at the very start of the interface, in a detached task, before the
/// live client exists: the settings name the server, the token file the account, and the cache
/// is opened and read while the live backend (NIO, AsyncHTTPClient, the session) and curses start
/// (docs/BENCHMARKS.md, "#17 First frame from the cache").
///
/// It is a guess until the interface checks it: ``WalletAccounts`` keeps it as the account's
/// cache (and its first frame) only when the backend's session is that account at that server,
/// and closes it otherwise.
public struct EarlyWallet: Sendable {
    /// The server's key (``CardBackend/ServerAddress/key(_:)``).
    public let server: String
    /// The account whose cache was read.
    public let account: String
    /// The cache, open.
    public let cache: CardCache
    /// The cached cards (the outbox's waiting changes applied); `nil` when nothing is cached yet.
    public let list: CachedList?
    /// The book tag `list`'s ids were made to name (the All view's, ``EarlyShelf``); `nil`:
    /// their own ids.
    public let listTag: String?
    /// The All view's other books, read at the same time when the interface last showed every
    /// book; `nil` when it showed one.
    public let shelf: EarlyShelf?

    /// An early read of `account`'s cache at `server`.
    public init(
        server: String, account: String, cache: CardCache, list: CachedList?, listTag: String? = nil,
        shelf: EarlyShelf? = nil
    ) {
        self.server = server
        self.account = account
        self.cache = cache
        self.list = list
        self.listTag = listTag
        self.shelf = shelf
    }

    /// The first frame's cards as one action; `nil` when nothing is cached yet.
    public var firstFrame: AppAction? {
        list.map { list in
            var own = list
            own.cards.retag(from: listTag, to: nil)
            return CachedWallet.firstFrame(own)
        }
    }

    /// Closes the caches, when the interface has no use for them.
    public func close() {
        cache.close()
        shelf?.closeRest()
    }

    /// Reads the cache of the one account stored for `server` in `tokenStore`; `nil` when there
    /// is no such account (none, or several: the session picks none by itself then) or no cache
    /// can be opened. Never creates a token, never talks to the network.
    public static func read(
        server: String, tokenStore: TokenStore, location: CacheLocation, logger: Logger
    ) -> EarlyWallet? {
        guard let accounts = try? tokenStore.accounts(server: server), accounts.count == 1, let account = accounts.first
        else { return nil }
        return read(server: server, account: account, location: location, logger: logger)
    }

    /// Reads the cache of `account` at `server` (the wallet's key); `nil` when none can be opened.
    public static func read(
        server: String, account: String, location: CacheLocation, logger: Logger
    ) -> EarlyWallet? {
        guard let cache = try? CardCache.open(server: server, account: account, location: location, logger: logger)
        else { return nil }
        let list = CachedWallet.listWithPendingChanges(in: cache, logger: logger)
        return EarlyWallet(server: server, account: account, cache: cache, list: list)
    }

    /// ``read(server:account:location:logger:)``, and when the interface last showed every book,
    /// the books of the other `records` at the same time (``EarlyShelf``).
    ///
    /// - Parameter records: the stored accounts, read only when every book was shown (the token
    ///   file is not read again for a start on one book).
    public static func read(
        server: String, account: String, records: @autoclosure () -> [AccountRecord], location: CacheLocation,
        logger: Logger
    ) async -> EarlyWallet? {
        let remembered = RememberedBooks(location: location).read()
        guard remembered.showsAll == true else {
            return read(server: server, account: account, location: location, logger: logger)
        }
        let guesses = EarlyShelf.guesses(records: records(), remembered: remembered, skipping: (server, account))
        async let shelf = EarlyShelf.read(guesses.others, location: location, logger: logger)
        // The account's own book read on a thread of its own too, tagged as the All view shows it.
        let ownTag = guesses.skippedTag
        let own = await onOwnThread { () -> EarlyWallet? in
            guard let own = read(server: server, account: account, location: location, logger: logger) else {
                return nil
            }
            var list = own.list
            list?.cards.retag(from: nil, to: ownTag)
            return EarlyWallet(server: own.server, account: own.account, cache: own.cache, list: list, listTag: ownTag)
        }
        let others = await shelf
        guard let own else {
            others.closeRest()
            return nil
        }
        return EarlyWallet(
            server: own.server, account: own.account, cache: own.cache, list: own.list, listTag: own.listTag,
            shelf: others)
    }

    /// ``read(server:tokenStore:location:logger:)`` for the server, token file and cache folder
    /// `settings` and `environment` name, in a detached task; `nil` when they name none. The read
    /// is synchronous file and SQLite work: it holds one of the concurrency pool's threads for
    /// its few milliseconds, once, at start.
    public static func start(
        settings: ClientSettings, environment: [String: String], logger: Logger
    ) -> Task<EarlyWallet?, Never> {
        Task.detached(priority: .userInitiated) {
            guard
                let url = try? ServerAddress.url(settings.server, allowingInsecureHTTP: settings.allowInsecureHTTP),
                let tokenStore = try? LiveBackends.tokenStore(for: settings, environment: environment),
                let location = try? CacheLocation(environment: environment)
            else { return nil }
            // The account the interface will start on, chosen as the composition root chooses it.
            let choice = AccountChoice(name: settings.account, server: settings.serverIsDefault ? nil : url)
            if let chosen = try? AccountDirectory.choose(choice, in: tokenStore, fallback: url),
                let record = chosen.account
            {
                let book = record.book == nil ? nil : settings.book ?? AccountDirectory.bookID(ofPath: record.book)
                return await read(
                    server: ServerAddress.walletKey(server: record.server, book: book), account: record.user,
                    records: (try? tokenStore.accountRecords()) ?? [], location: location, logger: logger)
            }
            let server = ServerAddress.key(url.absoluteString)
            return read(server: server, tokenStore: tokenStore, location: location, logger: logger)
        }
    }
}
