public import CardBackend
public import CardCache
import CardDAV
import CardModels
public import CardWalletUI
public import Foundation
public import Logging
import Synchronization

/// What a login did.
public struct LoginReport: Sendable {
    /// Who is logged in now.
    public var account: SessionAccount
    /// The kind of server.
    public var kind: BackendKind
    /// Other accounts at the server whose changes made offline wait in their caches (how many
    /// each): kept, and sent when they log in again.
    public var othersWaiting: [(account: String, changes: Int)]
    /// The server as the person gave it (a CardDAV backend's ``CardBackend/CardBackend/server``
    /// also names its address book).
    public var server: String
    /// On a CardDAV server, the address book the login chose (its id).
    public var addressBook: String?
    /// What the login chose and why, for the person (the address books it did not choose).
    public var note: String?
}

/// The accounts' lifecycle, in one place (docs/Architecture.md): which backend is in use (the
/// login form may switch servers), logging in and out, a session the server ended, and the
/// account's cached wallet — opened once per account, handed the interface's early read, wiped
/// when its session ends (its outbox kept), its session's news sent to one sink.
///
/// The interface and the scripting commands both go through it; nothing else wipes a cache or
/// re-points a session sink.
public final class WalletAccounts: Sendable {
    /// Builds the backend of a server's base URL (the composition root's).
    public typealias BackendFactory = @Sendable (URL) -> any CardBackend
    /// Finds the kind of server at a URL, by asking it, and builds its backend (for a login).
    public typealias BackendDetector = @Sendable (URL) async -> any CardBackend

    private struct Opened {
        var server: String
        var account: String
        var wallet: CachedWallet
    }

    private struct Opening {
        var server: String
        var account: String
        var task: Task<CachedWallet, Never>
    }

    private enum EarlyState {
        case waiting
        /// Kept as the wallet of its account; its first frame not handed out yet.
        case kept(cache: ObjectIdentifier, firstFrame: AppAction?)
        case done
    }

    private let current: Mutex<any CardBackend>
    private let makeBackend: BackendFactory
    private let detect: BackendDetector?
    /// The server the program was started on (where a login without an address goes).
    private let home: URL?
    private let sessionSink: (any SessionStateSink)?
    private let environment: [String: String]?
    private let location: CacheLocation?
    let logger: Logger
    /// Whether plain `http://` to another computer is allowed for a server typed in the login form.
    public let allowsInsecureHTTP: Bool
    private let opened = Mutex<Opened?>(nil)
    /// The one opening under way, so that calls arriving together (the first frame, the list,
    /// a search) share it: two opens of a new file at once made the second see a half-made
    /// database and move it aside as damaged.
    private let opening = Mutex<Opening?>(nil)
    /// The cache read before the backend existed (``EarlyWallet``), until the first call that
    /// needs a wallet has kept it (the account's) or closed it (another's).
    private let early: Task<EarlyWallet?, Never>?
    private let earlyState: Mutex<EarlyState>
    /// Fills the cache with whole cards in the background, behind the person's own calls.
    public let filler: WholeCardFiller

    /// The accounts of `backend`'s server, and of any server the login form switches to.
    ///
    /// - Parameters:
    ///   - backend: the backend the program starts on.
    ///   - sessionSink: where the backend in use reports its session's changes.
    ///   - cacheEnvironment: the environment whose XDG cache folder holds the caches; `nil`
    ///     with no `cacheLocation`: no cache at all.
    ///   - cacheLocation: the cache folder, overriding the environment's.
    ///   - logger: where cache problems go (never a card's text).
    ///   - allowsInsecureHTTP: whether the login form may name plain `http://` to another computer.
    ///   - early: the interface's cache read at its very start; kept as the wallet of its account
    ///     when that account is the one logged in, closed otherwise.
    ///   - home: the server the program was started on; a login without an address goes there.
    ///   - detect: finds the kind of server at an address by asking it, for a login; `nil` to
    ///     log in with `makeBackend`'s.
    ///   - makeBackend: builds the backend of another server (sharing the transport, token
    ///     store and plugins, so the log pane keeps seeing every exchange).
    public init(
        backend: any CardBackend, sessionSink: (any SessionStateSink)? = nil, cacheEnvironment: [String: String]?,
        cacheLocation: CacheLocation? = nil, logger: Logger, allowsInsecureHTTP: Bool = false,
        early: Task<EarlyWallet?, Never>? = nil, home: URL? = nil, detect: BackendDetector? = nil,
        makeBackend: @escaping BackendFactory
    ) {
        self.current = Mutex(backend)
        self.makeBackend = makeBackend
        self.detect = detect
        self.home = home
        self.sessionSink = sessionSink
        self.environment = cacheEnvironment
        self.location = cacheLocation
        self.logger = logger
        self.allowsInsecureHTTP = allowsInsecureHTTP
        self.early = early
        self.earlyState = Mutex(early == nil ? .done : .waiting)
        self.filler = WholeCardFiller(logger: logger)
        backend.reportSession(to: sessionSink)
    }

    /// The backend in use.
    public var backend: any CardBackend { current.withLock { $0 } }

    /// Whether the accounts have a cache folder at all.
    public var hasCache: Bool { environment != nil || location != nil }

    /// The backend of `server`: the current one when it is that server's, else a new one, which
    /// becomes current and reports to the session sink from now on (nothing is replayed: the new
    /// session's news starts with its login).
    public func backend(for server: URL) -> any CardBackend {
        let key = ServerAddress.key(server.absoluteString)
        return current.withLock { current in
            if current.server == key { return current }
            let backend = makeBackend(server)
            current.reportSession(to: nil)
            backend.reportSession(to: sessionSink)
            current = backend
            return backend
        }
    }

    /// Makes `backend` the one in use: the session sink follows it.
    func use(_ backend: any CardBackend) {
        current.withLock { current in
            current.reportSession(to: nil)
            backend.reportSession(to: sessionSink)
            current = backend
        }
    }

    /// Stops reporting the session's news (the interface is ending).
    public func stopReporting() {
        backend.reportSession(to: nil)
    }

    // MARK: Login and logout

    /// Logs in as `account` at `server` (the current server when `nil`; plain http to another
    /// computer only when allowed), with `password`.
    ///
    /// - Returns: who is logged in, and the other accounts whose changes made offline wait.
    /// - Throws: the backend's failure, or ``CardBackend/ServerAddressError`` for an address
    ///   that cannot be used.
    public func logIn(server: String? = nil, account: String, password: String) async throws -> LoginReport {
        var backend = self.backend
        let url: URL? =
            if let server, ServerAddress.key(server) != backend.server {
                try ServerAddress.url(server, allowingInsecureHTTP: allowsInsecureHTTP)
            } else if let server, detect != nil, backend.sessionState.account == nil {
                // The same address, nobody logged in there: which kind of server it is may have
                // been known only by a credential now gone (a CardDAV password the server refused).
                try ServerAddress.url(server, allowingInsecureHTTP: allowsInsecureHTTP)
            } else {
                server == nil ? home : nil
            }
        if let url {
            // The kind of server is found by asking it (a login may be the first time it is met).
            if let detect {
                backend = await detect(url)
                use(backend)
            } else {
                backend = self.backend(for: url)
            }
        }
        let session = try await backend.logIn(account: account, password: password)
        let others = cacheFolder().map { CardCache.waitingOutboxes(server: backend.server, location: $0) } ?? []
        let dav = backend as? CardDAVBackend
        return LoginReport(
            account: session, kind: backend.kind,
            othersWaiting: others.filter { $0.account.lowercased() != session.email.lowercased() }.map {
                ($0.account, $0.changes)
            }, server: dav?.loginServer ?? backend.server, addressBook: dav?.bookInUse, note: dav?.loginNote)
    }

    /// Logs out the account in use (every account stored for the server when `everyAccount`);
    /// the cached cards of each go with its session, its outbox stays.
    public func logOut(everyAccount: Bool = false) async throws -> [LogoutReport] {
        let backend = self.backend
        let reports = try await backend.logOut(everyAccount: everyAccount)
        for report in reports {
            if let account = report.account { wipe(server: backend.server, account: account) }
        }
        return reports
    }

    /// The server ended the session of `account` at `server` (E06, a refused password): its
    /// cached cards go, its outbox stays for the next login as the same account.
    public func sessionEnded(server: String, account: String?) async {
        guard let account else { return }
        await discardEarly()  // an early read not kept yet must not be kept after the wipe
        wipe(server: server, account: account)
    }

    /// Handles `error` when it says the session ended; `true` when it did.
    @discardableResult
    public func handleSessionEnd(_ error: any Error) async -> Bool {
        guard let ended = (error as? any BackendFailure)?.endedSession else { return false }
        await sessionEnded(server: ended.server, account: ended.account)
        return true
    }

    private func wipe(server: String, account: String) {
        let wallet = opened.withLock { opened -> CachedWallet? in
            guard let open = opened, open.server == server, open.account.lowercased() == account.lowercased() else {
                return nil
            }
            opened = nil
            return open.wallet
        }
        do {
            let kept: Int
            if let cache = wallet?.cache {
                kept = try cache.wipe()
            } else if let folder = cacheFolder() {
                kept = try CardCache.wipe(server: server, account: account, location: folder, logger: logger)
            } else {
                return
            }
            if kept > 0 {
                logger.info("The card cache of \(account) is wiped; \(kept) change(s) made offline are kept")
            }
        } catch {
            logger.warning("The card cache could not be removed: \(CachedWallet.text(error))")
        }
    }

    /// Sends the changes the account made offline that wait in its cache (after a login: made
    /// before its session ended); `nil` when none wait.
    public func sendWaitingChanges() async -> OutboxReplayReport? {
        guard let wallet = await cachedWallet(), let cache = wallet.cache,
            let waiting = try? cache.pendingChanges(), !waiting.isEmpty
        else { return nil }
        return await wallet.replayOutbox()
    }

    // MARK: The wallet

    /// The wallet of the account logged in at the current backend, with its cache when one can
    /// be had (else every read goes to the server).
    public func wallet() async -> CachedWallet {
        await cachedWallet() ?? CachedWallet(backend: backend, cache: nil, logger: logger)
    }

    /// The wallet of the account logged in at the current backend when it has a cache; `nil`
    /// when nobody is logged in or no cache can be had.
    public func cachedWallet() async -> CachedWallet? {
        let backend = self.backend
        guard hasCache, let account = await backend.status().account?.email else { return nil }
        let server = backend.server
        await settleEarly(backend: backend, server: server, account: account)
        if let wallet = opened.withLock({
            $0.flatMap { $0.server == server && $0.account == account ? $0.wallet : nil }
        }) {
            return wallet
        }
        let (location, logger) = (cacheFolder(), self.logger)
        let task = opening.withLock { current -> Task<CachedWallet, Never> in
            if let current, current.server == server, current.account == account { return current.task }
            let task = Task<CachedWallet, Never> {
                await CachedWallet.open(backend: backend, location: location, logger: logger)
            }
            current = Opening(server: server, account: account, task: task)
            return task
        }
        let wallet = await task.value
        // Kept before the opening is forgotten, so a caller in between finds one or the other.
        if wallet.cache != nil { opened.withLock { $0 = Opened(server: server, account: account, wallet: wallet) } }
        opening.withLock { current in
            if let open = current, open.server == server, open.account == account { current = nil }
        }
        return wallet.cache == nil ? nil : wallet
    }

    /// The cache folder, when there is one; a folder that cannot be had is logged once per call.
    func cacheFolder() -> CacheLocation? {
        if let location { return location }
        guard let environment else { return nil }
        do {
            return try CacheLocation(environment: environment)
        } catch {
            logger.notice("Working without the card cache: \(CachedWallet.text(error))")
            return nil
        }
    }

    // MARK: The early read

    /// The cached wallet as one action, for the first frame of a restored session; `nil` when
    /// nothing is cached for the account logged in.
    public func firstFrame() async -> AppAction? {
        guard let wallet = await cachedWallet() else { return nil }
        if let cache = wallet.cache, let action = earlyFirstFrame(of: cache) { return action }
        guard let list = wallet.cachedListWithPendingChanges() else { return nil }
        return CachedWallet.firstFrame(list)
    }

    /// Closes the early read unless a wallet kept it already (the interface starts on the login
    /// screen: no restored session to show it for).
    public func discardEarly() async {
        guard let early else { return }
        let wallet = await early.value
        let close = earlyState.withLock { state -> Bool in
            guard case .waiting = state else { return false }
            state = .done
            return true
        }
        if close { wallet?.close() }
    }

    /// Keeps the early read as the wallet of `account` at `server` when it is theirs, else closes
    /// it; once, whoever asks first (every caller waits for the read, so none opens a second copy).
    private func settleEarly(backend: any CardBackend, server: String, account: String) async {
        guard let early, earlyState.withLock({ if case .waiting = $0 { true } else { false } }) else { return }
        guard let read = await early.value else {
            earlyState.withLock { $0 = .done }
            return
        }
        let mine = read.server == server && read.account == account
        let decided = earlyState.withLock { state -> Bool in
            guard case .waiting = state else { return false }
            if mine {
                let wallet = CachedWallet(backend: backend, cache: read.cache, logger: logger)
                opened.withLock { $0 = Opened(server: server, account: account, wallet: wallet) }
                state = .kept(cache: ObjectIdentifier(read.cache), firstFrame: read.firstFrame)
            } else {
                state = .done
            }
            return true
        }
        if decided, !mine { read.close() }
    }

    /// The early read's first frame, once, when `cache` is the early read's.
    private func earlyFirstFrame(of cache: CardCache) -> AppAction? {
        earlyState.withLock { state in
            guard case .kept(let kept, let action) = state, kept == ObjectIdentifier(cache) else { return nil }
            state = .done
            return action
        }
    }

    /// Waits for the background reads of whole cards under way, if any (tests, a clean quit).
    public func settleBackgroundReads() async {
        await filler.settle()
    }
}
