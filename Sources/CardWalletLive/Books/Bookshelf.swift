public import CardBackend
import CardCache
import CardModels
import CardProviders
public import CardWalletUI
import Foundation
import Logging
import Synchronization
import TokenStore

/// Every address book of every stored account, side by side (issue 40): the All view's books, what
/// a card named on the command line may be in, the targets of a move or a copy. Each book has its
/// own backend (built from its account's record by its kind's provider) and its own cache; the
/// shelf opens each once and keeps it.
///
/// The books of an account on a server with address books are the ones its server last listed
/// (``RememberedBooks``, asked again with `refresh`), else the one its record names. A wallet
/// that remembers no accounts (tests on one backend) has one book: its backend's.
public final class Bookshelf: Sendable {
    /// The accounts, their backends and the account in use.
    public let accounts: WalletAccounts

    private struct State {
        var tags: [String: String] = [:]
        var byTag: [String: WalletBook] = [:]
        var backends: [String: any CardBackend] = [:]
        var wallets: [String: CachedWallet] = [:]
        /// Caches opened by the start's early read (``EarlyShelf``), until their book's wallet is made.
        var earlyCaches: [String: CardCache] = [:]
        var books: [WalletBook] = []
        /// Whether the interface started a first frame (``startFirstFrame(views:)``) and has
        /// painted it (``firstFramePainted()``), and who waits for that.
        var paintsFirstFrame = false
        var painted = false
        var waitingForPaint: [CheckedContinuation<Void, Never>] = []
    }

    private let state = Mutex(State())

    /// The books of `accounts`.
    public init(accounts: WalletAccounts) {
        self.accounts = accounts
    }

    /// What the wallet remembers of the books, when there is a cache folder.
    public var remembered: RememberedBooks? { accounts.cacheFolder().map(RememberedBooks.init(location:)) }

    /// The books as last found (``books(refresh:)``), without looking again.
    public var knownBooks: [WalletBook] { state.withLock { $0.books } }

    // MARK: The books

    /// Every book of every stored account, in the accounts' order (by name), each account's books
    /// in its server's order, labelled so that no two read the same.
    ///
    /// - Parameter refresh: ask each server with address books for its list (and remember it);
    ///   else the lists remembered, without the network.
    public func books(refresh: Bool = false) async -> [WalletBook] {
        var found: [WalletBook] = []
        let records = accounts.records()
        if let directory = accounts.directory, !records.isEmpty {
            // books.json read once for every account (not once an account).
            let known = remembered?.read()
            for record in records {
                found += await books(of: record, directory: directory, known: known, refresh: refresh)
            }
        } else if let book = await soleBook(refresh: refresh) {
            found = book
        }
        let labelled = BookLabels.assign(found)
        state.withLock { state in
            state.books = labelled
            for book in labelled {
                let tag = state.tags[book.key] ?? String(state.tags.count + 1)
                state.tags[book.key] = tag
                state.byTag[tag] = book
            }
        }
        return labelled
    }

    /// The books of one stored account.
    private func books(
        of record: AccountRecord, directory: AccountDirectory, known: RememberedBooks.Contents?, refresh: Bool
    ) async -> [WalletBook] {
        guard let base = try? baseBackend(of: record, directory: directory) else { return [] }
        guard let shelves = base as? any AddressBooks else {
            return [
                WalletBook(
                    account: record.name, kind: record.kind, user: record.user, server: record.server, book: nil,
                    walletKey: base.server)
            ]
        }
        var infos = known.flatMap { RememberedBooks.books(server: record.server, user: record.user, in: $0) }
        if refresh || infos == nil, let fresh = try? await shelves.books(), !fresh.isEmpty {
            infos = fresh
            remembered?.remember(fresh, server: record.server, user: record.user)
        }
        let listed = infos ?? shelves.bookInUse.map { [$0] } ?? []
        return listed.map { info in
            WalletBook(
                account: record.name, kind: record.kind, user: record.user, server: record.server, book: info,
                walletKey: shelves.server(forBook: info.id))
        }
    }

    /// The one account of a wallet that remembers none: its backend's books (tests, the demo).
    private func soleBook(refresh: Bool) async -> [WalletBook]? {
        let backend = accounts.backend
        guard let user = await backend.status().account?.email else { return nil }
        let server = accounts.shownServer
        guard let shelves = backend as? any AddressBooks else {
            return [
                WalletBook(
                    account: user, kind: backend.kind.id, user: user, server: server, book: nil,
                    walletKey: backend.server)
            ]
        }
        let listed = (refresh ? try? await shelves.books() : nil) ?? shelves.bookInUse.map { [$0] } ?? []
        return listed.map { info in
            WalletBook(
                account: user, kind: backend.kind.id, user: user, server: server, book: info,
                walletKey: shelves.server(forBook: info.id))
        }
    }

    /// The backend of `record` on the book its record names (never the `--book` of one command,
    /// which names a book of one account).
    private func baseBackend(of record: AccountRecord, directory: AccountDirectory) throws -> any CardBackend {
        let provider = try directory.provider(for: record)
        guard let url = URL(string: record.server) else { throw AccountProblem("not a URL") }
        return try provider.makeBackend(
            BackendTarget(server: url, account: record, book: AccountDirectory.bookID(ofPath: record.book)),
            context: directory.context)
    }

    // MARK: The first frame

    /// ``firstFrame(views:)`` in a detached task (not one of the caller's actor, which would start
    /// only when that actor first waits), known to the shelf at once: the All view's first list
    /// call waits for it (``firstFrameSettled()``) and goes on with the wallets and caches it
    /// opened, rather than racing it to open and read every cache a second time.
    public func startFirstFrame(views: BookViews) -> Task<[AppAction], Never> {
        state.withLock { $0.paintsFirstFrame = true }
        return Task.detached { await self.firstFrame(views: views) }
    }

    /// Waits, when ``startFirstFrame(views:)`` started one, until the interface has painted the
    /// first frame (it paints it once the frame's task is done): the All view's first list call
    /// (which reads every cache again when the servers cannot be reached) must not compete with
    /// the first paint.
    func firstFrameSettled() async {
        guard state.withLock({ $0.paintsFirstFrame && !$0.painted }) else { return }
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let painted = state.withLock { state -> Bool in
                if !state.painted { state.waitingForPaint.append(continuation) }
                return state.painted
            }
            if painted { continuation.resume() }
        }
    }

    /// The interface painted its first frame (or will paint none: it ends): what waits for it
    /// goes on.
    public func firstFramePainted() {
        let waiting = state.withLock { state in
            state.painted = true
            defer { state.waitingForPaint = [] }
            return state.waitingForPaint
        }
        for continuation in waiting { continuation.resume() }
    }

    // MARK: Tags

    /// The short tag that stands for `book` in the interface's card ids (``CardWalletUI/BookCardID``):
    /// the same for the whole run.
    public func tag(of book: WalletBook) -> String {
        state.withLock { state in
            if let tag = state.tags[book.key] { return tag }
            let tag = String(state.tags.count + 1)
            state.tags[book.key] = tag
            state.byTag[tag] = book
            return tag
        }
    }

    /// The book a tag stands for.
    public func book(tagged tag: String) -> WalletBook? {
        state.withLock { $0.byTag[tag] }
    }

    /// The book whose cache key is `walletKey` for `user`, among those found.
    public func book(walletKey: String, user: String) -> WalletBook? {
        state.withLock { state in
            state.books.first { $0.walletKey == walletKey && $0.user.lowercased() == user.lowercased() }
        }
    }

    // MARK: Backends and wallets

    /// The backend of `book`: the one in use when it is that book's, else one built from its
    /// account's record (kept for the run).
    public func backend(for book: WalletBook) async throws -> any CardBackend {
        if let kept = state.withLock({ $0.backends[book.key] }) { return kept }
        let current = accounts.backend
        let backend: any CardBackend
        if current.server == book.walletKey,
            await current.status().account?.email.lowercased() == book.user.lowercased()
        {
            backend = current
        } else if let directory = accounts.directory,
            let record = accounts.records().first(where: { $0.isNamed(book.account) })
        {
            let base = try baseBackend(of: record, directory: directory)
            if let info = book.book, let shelves = base as? any AddressBooks, base.server != book.walletKey {
                backend = try await shelves.switching(to: info)
            } else {
                backend = base
            }
        } else if let info = book.book, let shelves = current as? any AddressBooks {
            backend = try await shelves.switching(to: info)
        } else {
            backend = current
        }
        state.withLock { $0.backends[book.key] = backend }
        return backend
    }

    /// The wallet of `book` through its cache (opened once; the account in use's own when it is
    /// that book's). Without a cache folder, a wallet without a cache.
    public func wallet(for book: WalletBook) async throws -> CachedWallet {
        if let kept = state.withLock({ $0.wallets[book.key] }) { return kept }
        let wallet: CachedWallet
        if let current = await accounts.cachedWallet(), current.backend.server == book.walletKey,
            current.cache?.account.lowercased() == book.user.lowercased()
        {
            wallet = current
        } else if let cache = state.withLock({ $0.earlyCaches.removeValue(forKey: book.key) }) {
            wallet = CachedWallet(backend: try await backend(for: book), cache: cache, logger: accounts.logger)
        } else {
            let backend = try await backend(for: book)
            if let location = accounts.cacheFolder() {
                do {
                    let cache = try CardCache.open(
                        server: backend.server, account: book.user, location: location, logger: accounts.logger)
                    wallet = CachedWallet(backend: backend, cache: cache, logger: accounts.logger)
                } catch {
                    accounts.logger.notice("Working without the card cache: \(CachedWallet.text(error))")
                    wallet = CachedWallet(backend: backend, cache: nil, logger: accounts.logger)
                }
            } else {
                wallet = CachedWallet(backend: backend, cache: nil, logger: accounts.logger)
            }
        }
        return state.withLock { state in
            if let raced = state.wallets[book.key] { return raced }
            state.wallets[book.key] = wallet
            return wallet
        }
    }

    /// Keeps `cache`, opened by the start's early read, as the cache of `book`'s wallet when it is
    /// made; closes it when that book has one already.
    func keepEarlyCache(_ cache: CardCache, for book: WalletBook) {
        let kept = state.withLock { state -> Bool in
            guard state.wallets[book.key] == nil, state.earlyCaches[book.key] == nil else { return false }
            state.earlyCaches[book.key] = cache
            return true
        }
        if !kept { cache.close() }
    }

    /// The wallet of `book` only when its cache file exists already (a book never synced here
    /// has none, and looking up a name must not make one).
    func existingWallet(for book: WalletBook) async -> CachedWallet? {
        if let kept = state.withLock({ $0.wallets[book.key] }) { return kept }
        if state.withLock({ $0.earlyCaches[book.key] != nil }) { return try? await wallet(for: book) }
        guard let location = accounts.cacheFolder(),
            FileManager.default.fileExists(
                atPath: location.databasePath(server: book.walletKey, account: book.user))
        else { return nil }
        return try? await wallet(for: book)
    }

    /// The book of the account in use, among `books` (the one a command without a name works on).
    public func currentBook(among books: [WalletBook]) async -> WalletBook? {
        let backend = accounts.backend
        guard let user = await backend.status().account?.email ?? accounts.account?.user else { return nil }
        return books.first { $0.walletKey == backend.server && $0.user.lowercased() == user.lowercased() }
    }
}
