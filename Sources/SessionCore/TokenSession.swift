public import CardBackend
public import Foundation
public import Logging
import Networking
import Synchronization
public import TokenStore

/// The tokens of one account at one server, and the rules that keep them fresh — for any server
/// whose access tokens are refreshed with a grant: the card API's (`CardSession` is
/// `TokenSession<CardTokenExchange>`) and an OAuth 2.0 authorization server's for a CardDAV server
/// behind it. What differs between them is the ``TokenExchange``; the rest is here, once:
///
/// - Every request gets `Authorization: Bearer <access token>` from the session (see
///   ``BearerInterceptor``); the token is cached here, so the hot path reads no file.
/// - An access token that expires within the margin (a tenth of its lifetime, at most 30 s) is
///   refreshed before sending; an answer that rejects the token refreshes and retries once; one
///   for a token already replaced retries with the current one. Only **one refresh is in flight**
///   for any number of requests, and only one process refreshes: the refresh runs inside the
///   token store's exclusive lock, after re-reading the stored pair (another process may already
///   have refreshed it).
/// - A dead grant (the card API's E06, OAuth's `invalid_grant`) wipes the stored tokens, fails
///   every waiter with the failure's `sessionExpired`, publishes
///   ``CardBackend/SessionState/expired(server:account:)`` once, and makes every later call fail
///   fast until the next login.
///
/// `docs/Session.md` has the whole state diagram.
public actor TokenSession<Exchange: TokenExchange> {
    /// The errors of the exchange's kind of server.
    public typealias Failure = Exchange.Failure

    /// Where this session is, as loaded or logged in.
    package enum Phase {
        /// The store could not be read yet (it is read again on the next call).
        case unloaded
        /// No tokens.
        case loggedOut
        /// Tokens in hand.
        case active(TokenItem)
        /// Ended by the server (E06, `invalid_grant`) until the next login.
        case expired(SessionAccount?)
    }

    /// The server's base URL (the card API's, or the CardDAV address the tokens are for).
    public nonisolated let server: URL
    /// The base URL as the token store keys it (no trailing slash).
    public nonisolated let serverKey: String
    /// Where the tokens are kept.
    public nonisolated let tokenStore: TokenStore
    /// The token rules.
    public nonisolated let policy: SessionPolicy
    /// How this kind of server refreshes and judges tokens.
    public nonisolated let exchange: Exchange

    package nonisolated let wallClock: any SessionClock
    package nonisolated let logger: Logger
    /// The state as last published, and where changes are reported: read without entering the
    /// actor (the status line, signal handlers), written only by ``publish(_:)``.
    nonisolated let published: Mutex<Published>

    /// The published state and the sink it is reported to.
    struct Published: Sendable {
        var state: SessionState
        var sink: (any SessionStateSink)?
    }

    /// The access token requests may use without entering the actor, and until when: the hot
    /// path. Kept in step with ``phase`` and ``flight``.
    nonisolated let fastPath: Mutex<FastPath?>

    package var phase: Phase { didSet { publishFastPath() } }
    /// The account asked for, or the one last logged in.
    package var preferredAccount: String?
    /// The refresh in flight, if any.
    package var flight: RefreshFlight<Failure>? { didSet { publishFastPath() } }
    /// The save of the pair the last refresh got, while it runs (requests already use its
    /// access token; see ``PendingSave``).
    package var pendingSave: PendingSave<Failure>? { didSet { publishFastPath() } }
    /// For tests: awaited after a refresh has handed out the new pair, before saving it.
    var beforeSavingRefreshedPair: (@Sendable () async -> Void)?
    /// How many refresh flights this session started (each may or may not reach the network).
    package var flightsStarted = 0
    /// Bumped by login, logout and expiry, so a refresh that started before does not undo them.
    package var generation = 0
    /// The refresh-loop guard. Under a lock rather than in the actor: the server's verdicts on
    /// tokens arrive from the requests' own tasks (``BearerInterceptor``'s `didReceive`).
    nonisolated let loopGuard: Mutex<RefreshGuard>

    /// A cached access token and the moment it enters the refresh margin.
    struct FastPath: Sendable {
        let accessToken: String
        let refreshAfter: Date
        /// The save of the pair this token belongs to, while it runs.
        let save: PendingSave<Failure>?
    }

    /// A session for the tokens of `account` (the only one stored for `server` when `nil`),
    /// read from `tokenStore` once now so that the first published state is true.
    ///
    /// - Parameters:
    ///   - server: the server's base URL; the token file keys the tokens by it.
    ///   - account: the account, or `nil` for the only one stored for `server`.
    ///   - tokenStore: the token file, shared with every other process.
    ///   - policy: the margin, the loop guard, the deadlines.
    ///   - wallClock: the clock expiry dates are compared with.
    ///   - exchange: how this kind of server refreshes and judges tokens.
    ///   - logger: where refreshes, adoptions and expiry are reported (never a token).
    public init(
        server: URL, account: String?, tokenStore: TokenStore, policy: SessionPolicy, wallClock: any SessionClock,
        exchange: Exchange, logger: Logger
    ) {
        self.server = server
        self.serverKey = TokenItem.normalizedServer(server.absoluteString)
        self.tokenStore = tokenStore
        self.policy = policy
        self.wallClock = wallClock
        self.exchange = exchange
        self.logger = logger
        self.preferredAccount = account
        self.loopGuard = Mutex(RefreshGuard(limit: policy.maximumRejectedRefreshes))
        // One read at start, so the first published state is true; errors wait for the first call.
        let initial = Self.storedItem(in: tokenStore, server: serverKey, account: account)
        fastPath = Mutex(
            (try? initial.get())?.map {
                FastPath(accessToken: $0.accessToken, refreshAfter: policy.refreshDate(for: $0), save: nil)
            })
        switch initial {
        case .success(let item?):
            phase = .active(item)
            published = Mutex(Published(state: .loggedIn(Self.account(of: item)), sink: nil))
        case .success(nil):
            phase = .loggedOut
            published = Mutex(Published(state: .loggedOut(server: serverKey), sink: nil))
        case .failure:
            phase = .unloaded
            published = Mutex(Published(state: .loggedOut(server: serverKey), sink: nil))
        }
    }

    // MARK: State

    /// The state now (as last published).
    public nonisolated var state: SessionState { published.withLock { $0.state } }

    /// Reports every later state change to `sink` (replacing the previous sink), or to nobody.
    /// The current state is not replayed: read ``state`` for it.
    public nonisolated func report(to sink: (any SessionStateSink)?) {
        published.withLock { $0.sink = sink }
    }

    /// Makes `new` the state, and tells the sink, unless it equals the current state. The sink
    /// hears it under the same lock, so it hears changes in the order they were made.
    package nonisolated func publish(_ new: SessionState) {
        published.withLock { published in
            guard published.state != new else { return }
            published.state = new
            published.sink?.sessionChanged(new)
        }
    }

    /// Returns once no token refresh is in flight and the pair it got is saved (or its save has
    /// failed). A process that is about to end waits here so it does not leave the server with
    /// a rotated pair it never stored.
    public func finishRefreshInFlight() async {
        while flight != nil || pendingSave != nil {
            if let flight {
                _ = try? await flight.wait()
                if self.flight === flight { return }
            } else if let save = pendingSave {
                try? await save.wait()
                if pendingSave === save { return }
            }
        }
    }

    /// Reads the stored tokens again (another process may have logged in or out) and returns
    /// the state. An expired session stays expired until the next login.
    ///
    /// - Throws: the failure's `tokenStore` or `multipleAccounts`.
    @discardableResult
    public func restore() throws(Failure) -> SessionState {
        if case .expired = phase { return state }
        switch Self.storedItem(in: tokenStore, server: serverKey, account: preferredAccount) {
        case .success(let item?):
            phase = .active(item)
            publish(.loggedIn(Self.account(of: item)))
        case .success(nil):
            phase = .loggedOut
            publish(.loggedOut(server: serverKey))
        case .failure(let error):
            throw error
        }
        return state
    }

    /// For tests: makes every refresh await `hook` after handing out the new pair and before
    /// saving it, so a test can hold the save.
    package func setBeforeSavingRefreshedPair(_ hook: (@Sendable () async -> Void)?) {
        beforeSavingRefreshedPair = hook
    }

    // MARK: Login and logout (for the exchanges' own login code)

    /// Makes `item` — just obtained by a login and saved — the session's: ends an expired state,
    /// disregards any refresh that started before, starts the loop guard afresh, publishes
    /// `loggedIn`.
    package func begin(_ item: TokenItem) {
        generation += 1
        flight = nil
        preferredAccount = item.account
        resetLoopGuard()
        warnIfArrivedExpired(item)
        phase = .active(item)
        logger.info("Logged in", metadata: ["server": "\(serverKey)", "account": "\(item.account)"])
        publish(.loggedIn(Self.account(of: item)))
    }

    /// Marks the session logged out (a logout is under way): any refresh that started before is
    /// disregarded.
    package func end() {
        generation += 1
        flight = nil
        phase = .loggedOut
        publish(.loggedOut(server: serverKey))
    }

    // MARK: Helpers

    /// Whether `tokens`' access token is due for a refresh before sending: it expires within
    /// the margin (a tenth of its lifetime, at most 30 s) and was not received a moment ago
    /// (``SessionPolicy/refreshDate(for:)``).
    func isExpiring(_ tokens: TokenItem) -> Bool {
        wallClock.now >= policy.refreshDate(for: tokens)
    }

    private func publishFastPath() {
        var path: FastPath?
        if flight == nil, case .active(let tokens) = phase {
            path = FastPath(
                accessToken: tokens.accessToken, refreshAfter: policy.refreshDate(for: tokens),
                save: pendingSave(of: tokens))
        }
        fastPath.withLock { $0 = path }
    }

    /// Whether `tokens`' access token has expired by the wall clock.
    func isExpired(_ tokens: TokenItem) -> Bool {
        tokens.accessTokenExpiresAt <= wallClock.now
    }

    /// Whether two items hold the same pair: a pair another process stored differs in its
    /// access token (an OAuth refresh token that does not rotate stays the same).
    static func samePair(_ lhs: TokenItem, _ rhs: TokenItem) -> Bool {
        lhs.accessToken == rhs.accessToken && lhs.refreshToken == rhs.refreshToken
    }

    /// Reads this session's item from the store and makes it current.
    @discardableResult
    func loadStoredTokens() throws(Failure) -> TokenItem {
        switch Self.storedItem(in: tokenStore, server: serverKey, account: preferredAccount) {
        case .success(let item?):
            phase = .active(item)
            publish(.loggedIn(Self.account(of: item)))
            return item
        case .success(nil):
            phase = .loggedOut
            publish(.loggedOut(server: serverKey))
            throw .notLoggedIn(server: serverKey, account: preferredAccount)
        case .failure(let error):
            throw error
        }
    }

    /// Ends the session after a dead grant: once only, whatever the number of waiters.
    func expire(_ tokens: TokenItem?) {
        if case .expired = phase { return }
        let account = tokens.map(Self.account(of:))
        phase = .expired(account)
        generation += 1
        logger.warning(
            "\(exchange.sessionEndedMessage)",
            metadata: ["server": "\(serverKey)", "account": "\(account?.email ?? "-")"])
        publish(.expired(server: serverKey, account: account))
    }

    /// The session account an item names.
    package static func account(of item: TokenItem) -> SessionAccount {
        SessionAccount(server: item.server, email: item.account, name: item.displayName, userID: item.userID)
    }

    /// The item of `account` (the only one when `nil`) for `server` in `store`.
    package static func storedItem(
        in store: TokenStore, server: String, account: String?
    ) -> Result<TokenItem?, Failure> {
        do throws(TokenStoreError) {
            if let account { return .success(try store.read(server: server, account: account)) }
            let items = try store.items(server: server)
            if items.count > 1 { return .failure(.multipleAccounts(server: server, accounts: items.map(\.account))) }
            return .success(items.first)
        } catch {
            return .failure(.tokenStore(error))
        }
    }
}
