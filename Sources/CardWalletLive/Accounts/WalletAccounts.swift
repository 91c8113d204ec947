public import CardBackend
public import CardCache
import CardModels
import CardProviders
public import CardWalletUI
public import Foundation
public import Logging
public import Secrets
import Synchronization
public import TokenStore

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
    /// On a server with address books, the one the login chose (its display name, else its id).
    public var addressBook: String?
    /// What the login chose and why, for the person (the address books it did not choose).
    public var note: String?
    /// The account as stored, when accounts are remembered (its name, kind, where its secret lives).
    public var record: AccountRecord?
    /// What the person should know about where the password went (plain text, no keyring).
    public var secretNote: String?
}

/// What a login is given.
public struct LoginRequest: Sendable {
    /// The address typed (`--server`, the login form); `nil` for the account's or the program's.
    public var server: String?
    /// The user name (the email on the card API).
    public var user: String
    /// The password (typed, piped, or printed by ``passwordCommand``).
    public var password: String
    /// The command that printed the password, to run again each time it is needed.
    public var passwordCommand: PasswordCommand?
    /// The kind of server, when the person said (`--kind`): nothing is probed then.
    public var kind: String?
    /// The account's name (`--name`); derived when `nil`.
    public var name: String?
    /// An OAuth 2.0 login (`--oauth`) instead of a password: ``password`` is not used, ``user``
    /// only when the authorization server does not say who logged in.
    public var oauth: OAuthLoginRequest?

    /// A request.
    public init(
        server: String? = nil, user: String, password: String, passwordCommand: PasswordCommand? = nil,
        kind: String? = nil, name: String? = nil, oauth: OAuthLoginRequest? = nil
    ) {
        self.oauth = oauth
        self.server = server
        self.user = user
        self.password = password
        self.passwordCommand = passwordCommand
        self.kind = kind
        self.name = name
    }
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
        /// Kept as the wallet of its account; its cards not handed out yet.
        case kept(cache: ObjectIdentifier, list: CachedList?, tag: String?)
        case done
    }

    private let current: Mutex<any CardBackend>
    /// The stored account of the backend in use, when accounts are remembered.
    private let currentRecord: Mutex<AccountRecord?>
    /// The accounts, their providers and secrets; `nil` for a wallet on one backend (tests).
    public let directory: AccountDirectory?
    private let makeBackend: BackendFactory
    private let detect: BackendDetector?
    /// The server the program was started on (where a login without an address goes).
    let home: URL?
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
        self.currentRecord = Mutex(nil)
        self.directory = nil
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

    /// The accounts the composition root remembers, starting on `account` (its backend `backend`,
    /// or `backend` of the settings' server when no account is stored there).
    ///
    /// - Parameters:
    ///   - directory: the accounts, their providers and secrets.
    ///   - account: the account in use at the start.
    ///   - backend: its backend.
    ///   - sessionSink: where the backend in use reports its session's changes.
    ///   - cacheEnvironment: the environment whose XDG cache folder holds the caches.
    ///   - cacheLocation: the cache folder, overriding the environment's.
    ///   - logger: where cache problems go (never a card's text).
    ///   - allowsInsecureHTTP: whether the login form may name plain `http://` to another computer.
    ///   - early: the interface's cache read at its very start.
    ///   - home: the server the program was started on; a login without an address goes there.
    public convenience init(
        directory: AccountDirectory, account: AccountRecord?, backend: any CardBackend,
        sessionSink: (any SessionStateSink)? = nil, cacheEnvironment: [String: String]?,
        cacheLocation: CacheLocation? = nil, logger: Logger, allowsInsecureHTTP: Bool = false,
        early: Task<EarlyWallet?, Never>? = nil, home: URL? = nil
    ) {
        self.init(
            backend: backend, directory: directory, account: account, sessionSink: sessionSink,
            cacheEnvironment: cacheEnvironment, cacheLocation: cacheLocation, logger: logger,
            allowsInsecureHTTP: allowsInsecureHTTP, early: early, home: home)
    }

    private init(
        backend: any CardBackend, directory: AccountDirectory, account: AccountRecord?,
        sessionSink: (any SessionStateSink)?, cacheEnvironment: [String: String]?, cacheLocation: CacheLocation?,
        logger: Logger, allowsInsecureHTTP: Bool, early: Task<EarlyWallet?, Never>?, home: URL?
    ) {
        self.current = Mutex(backend)
        self.currentRecord = Mutex(account)
        self.directory = directory
        self.makeBackend = { url in (try? directory.backend(at: url)) ?? backend }
        self.detect = nil
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

    /// The stored account in use, when accounts are remembered and one is stored for it.
    public var account: AccountRecord? { currentRecord.withLock { $0 } }

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
    func use(_ backend: any CardBackend, record: AccountRecord? = nil) {
        current.withLock { current in
            current.reportSession(to: nil)
            backend.reportSession(to: sessionSink)
            current = backend
            currentRecord.withLock { $0 = record }
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
        try await logIn(LoginRequest(server: server, user: account, password: password))
    }

    /// Logs in as the request says. With remembered accounts, the kind of server is the one
    /// asked for, else the stored account's, else found by asking the server once; the password
    /// goes where ``Secrets/AccountSecrets/keep(_:for:command:)`` decides when the server needs it
    /// on every request; the account is stored and becomes the default. Other accounts stay
    /// logged in.
    ///
    /// - Throws: the backend's failure, ``AccountProblem`` for a name or kind that cannot be
    ///   used, ``Secrets/SecretError`` for a keyring that refused the password (nothing stored),
    ///   or ``CardBackend/ServerAddressError`` for an address that cannot be used.
    public func logIn(_ request: LoginRequest) async throws -> LoginReport {
        guard let directory else { return try await logInWithoutRecords(request) }
        if let oauth = request.oauth { return try await logIn(request, oauth: oauth, directory: directory) }
        let url: URL
        if let server = request.server {
            url = try ServerAddress.url(server, allowingInsecureHTTP: allowsInsecureHTTP)
        } else if let record = account, let stored = URL(string: record.server) {
            url = stored
        } else if let home {
            url = home
        } else {
            url = try ServerAddress.url(backend.server, allowingInsecureHTTP: allowsInsecureHTTP)
        }
        // A damaged token file: a login may replace it (as the card API's does), nothing else.
        let records = try Self.recordsForLogin(directory)
        let existing = records.first { $0.matches(server: url.absoluteString, user: request.user) }
        if let name = request.name, let taken = records.first(where: { $0.isNamed(name) }), taken != existing {
            throw AccountProblem(
                "There is already an account called “\(TerminalText.escaped(taken.name))” "
                    + "(\(TerminalText.escaped(taken.user)) at \(TerminalText.escaped(taken.server))): choose another --name."
            )
        }
        let provider: any BackendProvider
        if let kind = request.kind {
            provider = try directory.provider(forKind: kind)
        } else if let known = existing
            ?? records.first(where: { ServerAddress.sameServer($0.server, url.absoluteString) })
        {
            // Asked once per address: another account there says already what kind it is.
            provider = try directory.provider(for: known)
        } else {
            provider = try await directory.detect(url)
        }
        guard provider.logins.contains(.password) else {
            throw AccountProblem("A \(provider.kind.name) server does not take a password login.")
        }
        let loginBackend = try provider.makeBackend(
            BackendTarget(
                server: url, book: directory.book ?? AccountDirectory.bookID(ofPath: existing?.book)),
            context: directory.context)
        use(loginBackend, record: nil)
        let outcome = try await loginBackend.logIn(.password(user: request.user, password: request.password))
        var record = AccountRecord(
            name: request.name ?? existing?.name
                ?? AccountRecord.derivedName(user: outcome.account.email, server: url.absoluteString, taken: records),
            kind: provider.kind.id, server: url.absoluteString, user: outcome.account.email,
            book: outcome.book?.path, bookName: outcome.book?.displayName)
        var secretNote: String?
        if outcome.keepsPassword {
            let kept = try await directory.secrets.keep(request.password, for: record, command: request.passwordCommand)
            record.secret = kept.location
            secretNote = kept.note
        }
        try await directory.tokenStore.saveAccount(record, makeDefault: true, replacingCorrupt: true)
        // From now on the account's backend is built from its record, as the next process builds it.
        let stored = (try? directory.backend(for: record)) ?? loginBackend
        use(stored, record: record)
        let others = cacheFolder().map { CardCache.waitingOutboxes(server: stored.server, location: $0) } ?? []
        return LoginReport(
            account: outcome.account, kind: provider.kind,
            othersWaiting: others.filter { $0.account.lowercased() != outcome.account.email.lowercased() }.map {
                ($0.account, $0.changes)
            }, server: record.server, addressBook: outcome.book?.shownName, note: outcome.note, record: record,
            secretNote: secretNote)
    }

    /// The records a login sees: none in a damaged (unreadable) token file, which the login
    /// replaces; an unsafe one is refused before anything is sent.
    static func recordsForLogin(_ directory: AccountDirectory) throws(TokenStoreError) -> [AccountRecord] {
        do {
            return try directory.records()
        } catch {
            if case .unreadable = error { return [] }
            throw error
        }
    }

    /// A login on one backend, nothing remembered (a wallet built for one backend: tests).
    private func logInWithoutRecords(_ request: LoginRequest) async throws -> LoginReport {
        var backend = self.backend
        let server = request.server
        let url: URL? =
            if let server, ServerAddress.key(server) != backend.server {
                try ServerAddress.url(server, allowingInsecureHTTP: allowsInsecureHTTP)
            } else if let server, detect != nil, backend.sessionState.account == nil {
                try ServerAddress.url(server, allowingInsecureHTTP: allowsInsecureHTTP)
            } else {
                server == nil ? home : nil
            }
        if let url {
            if let detect {
                backend = await detect(url)
                use(backend)
            } else {
                backend = self.backend(for: url)
            }
        }
        let outcome = try await backend.logIn(.password(user: request.user, password: request.password))
        let others = cacheFolder().map { CardCache.waitingOutboxes(server: backend.server, location: $0) } ?? []
        return LoginReport(
            account: outcome.account, kind: backend.kind,
            othersWaiting: others.filter { $0.account.lowercased() != outcome.account.email.lowercased() }.map {
                ($0.account, $0.changes)
            }, server: outcome.account.server, addressBook: outcome.book?.shownName, note: outcome.note)
    }

    /// Logs out the account in use (every account stored for the server when `everyAccount`, on
    /// a wallet that remembers none); the cached cards of each go with its session, its outbox
    /// stays. A remembered account is forgotten: its tokens, its password (keyring or file) and
    /// its record.
    public func logOut(everyAccount: Bool = false) async throws -> [LogoutReport] {
        if directory != nil, let record = account { return [try await logOut(record)] }
        // No account remembered here: the backend logs out whoever its server's tokens name (and
        // says why it cannot when the token file cannot be used).
        let backend = self.backend
        let reports = try await backend.logOut(everyAccount: everyAccount)
        for report in reports {
            if let account = report.account { wipe(server: backend.server, account: account) }
        }
        return reports
    }

    /// Logs out `record`: the server is told where it has a session, the tokens and password kept
    /// here go, its cached cards are wiped (its outbox kept), and the account is forgotten. When
    /// it was the account in use, the new default one (if any) is used from now on.
    ///
    /// - Returns: what the logout did.
    public func logOut(_ record: AccountRecord) async throws -> LogoutReport {
        guard let directory else { throw AccountProblem("This wallet remembers no accounts.") }
        let inUse = account?.isNamed(record.name) == true
        let backend = inUse ? self.backend : ((try? directory.backend(for: record)) ?? self.backend)
        var report =
            (try? await backend.logOut(everyAccount: false).first)
            ?? LogoutReport(account: record.user, serverTold: false, serverProblem: nil)
        if report.account == nil { report = LogoutReport(account: record.user, serverTold: true, serverProblem: nil) }
        if let problem = await directory.secrets.forget(record) {
            logger.warning("The keyring could not be told to forget the password: \(problem.description)")
        }
        let (_, newDefault) = try await directory.tokenStore.removeAccount(named: record.name)
        wipe(server: backend.server, account: record.user)
        if inUse, let name = newDefault, let next = try? directory.tokenStore.accountRecord(named: name),
            let nextBackend = try? directory.backend(for: next)
        {
            use(nextBackend, record: next)
        } else if inUse {
            currentRecord.withLock { $0 = nil }
        }
        return report
    }

    /// Uses the stored account `record` from now on (its backend, its cache, its outbox).
    ///
    /// - Throws: ``AccountProblem`` when its backend cannot be built.
    public func switchAccount(to record: AccountRecord) throws {
        guard let directory else { throw AccountProblem("This wallet remembers no accounts.") }
        let backend = try directory.backend(for: record)
        use(backend, record: record)
    }

    /// The accounts stored, sorted by name (empty when none are remembered).
    public func records() -> [AccountRecord] {
        (try? directory?.records()) ?? []
    }

    /// The server ended the session of `account` at `server` (E06, a refused password): its
    /// cached cards go, its outbox stays for the next login as the same account.
    public func sessionEnded(server: String, account: String?) async {
        guard let account else { return }
        await discardEarly()  // an early read not kept yet must not be kept after the wipe
        wipe(server: server, account: account)
    }

    /// Handles `error` when it says the session ended; `true` when it did. A password the
    /// server refused is forgotten where it was kept (the keyring, the token file); the account
    /// stays remembered, to log in again.
    @discardableResult
    public func handleSessionEnd(_ error: any Error) async -> Bool {
        guard let ended = (error as? any BackendFailure)?.endedSession else { return false }
        await sessionEnded(server: ended.server, account: ended.account)
        if let directory, var record = account, let user = ended.account,
            record.matches(server: record.server, user: user),
            record.secret == .keyring || record.secret == .file
        {
            await directory.secrets.forget(record)
            record.secret = nil
            try? await directory.tokenStore.saveAccount(record, makeDefault: false)
            currentRecord.withLock { $0 = record }
        }
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
        guard let list = cachedList(of: wallet) else { return nil }
        return CachedWallet.firstFrame(list)
    }

    /// `wallet`'s cards as its cache has them, the outbox's waiting changes applied: the early
    /// read's, once, when `wallet` kept it; else read now.
    ///
    /// - Parameter tag: the book tag the ids are to name (the All view's); `nil`: their own ids.
    func cachedList(of wallet: CachedWallet, tag: String? = nil) -> CachedList? {
        if let cache = wallet.cache, let (list, listTag) = earlyList(of: cache) {
            guard var list else { return nil }
            list.cards.retag(from: listTag, to: tag)
            return list
        }
        guard var list = wallet.cachedListWithPendingChanges() else { return nil }
        list.cards.retag(from: nil, to: tag)
        return list
    }

    /// The All view's other books read at the start (``EarlyShelf``), once the early read is
    /// done; `nil` when none were read. Whoever takes a read owns its cache; the rest are closed
    /// by ``discardEarly()`` or ``EarlyShelf/closeRest()``.
    func earlyShelf() async -> EarlyShelf? {
        await early?.value?.shelf
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
        if close { wallet?.close() } else { wallet?.shelf?.closeRest() }
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
                state = .kept(cache: ObjectIdentifier(read.cache), list: read.list, tag: read.listTag)
            } else {
                state = .done
            }
            return true
        }
        if decided, !mine { read.close() }
    }

    /// The early read's cards and the tag their ids name, once, when `cache` is the early read's.
    private func earlyList(of cache: CardCache) -> (CachedList?, String?)? {
        earlyState.withLock { state in
            guard case .kept(let kept, let list, let tag) = state, kept == ObjectIdentifier(cache) else { return nil }
            state = .done
            return (list, tag)
        }
    }

    /// Waits for the background reads of whole cards under way, if any (tests, a clean quit).
    public func settleBackgroundReads() async {
        await filler.settle()
    }
}
