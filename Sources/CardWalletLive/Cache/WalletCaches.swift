public import CardAPI
public import CardCache
import CardModels
public import CardWalletUI
import Foundation
public import Logging
import Synchronization

/// The interface's way to the local cache (docs/Cache.md): opens the cache of the account
/// logged in at the performer's current client, records what the server answers, and answers
/// the list and cards from the cache when the server cannot be reached.
///
/// Pages of `GET /cards` are gathered until the whole wallet has come, then stored as the
/// cached wallet (a partial list is never stored: it would lose the other cards' order).
public final class WalletCaches: Sendable {
    private struct Opened {
        var server: String
        var account: String
        var wallet: CachedWallet
    }

    private struct Opening {
        var server: String
        var account: String
        var task: Task<CachedWallet?, Never>
    }

    private let environment: [String: String]
    private let location: CacheLocation?
    private let logger: Logger
    private let opened = Mutex<Opened?>(nil)
    /// The one opening under way, so that calls arriving together (the first frame, the list,
    /// a search) share it: two opens of a new file at once made the second see a half-made
    /// database and move it aside as damaged.
    private let opening = Mutex<Opening?>(nil)
    private let gathered = Mutex<[CardSummary]>([])
    /// One replay at a time in this process, so a second does not wait on the first's claims:
    /// an optimisation only. The claims in the cache keep each change from going twice, between
    /// processes too (docs/Cache.md, *The claim and the lease*).
    private let replaying = Mutex(false)
    /// Outbox entries already handed to the interface as conflicts, or found to need no
    /// choice, in this process: not looked up on the server again.
    private let reported = Mutex<Set<Int64>>([])
    /// Fills the cache with whole cards in the background, behind the person's own calls.
    let filler: WholeCardFiller
    /// The cache read before the client existed (``EarlyWallet``), until the first call that
    /// needs a wallet has kept it (the account's) or closed it (another's).
    private let early: Task<EarlyWallet?, Never>?
    private let earlyState: Mutex<EarlyState>

    private enum EarlyState {
        case waiting
        /// Kept as the wallet of its account; its first frame not handed out yet.
        case kept(cache: ObjectIdentifier, firstFrame: AppAction?)
        case done
    }

    /// Caches under `location` (the XDG cache folder of `environment` when `nil`); `early`, the
    /// interface's read at its very start, becomes the wallet of its account when that account
    /// is the one logged in (its cache is not opened again), and is closed otherwise.
    public init(
        environment: [String: String], location: CacheLocation? = nil, logger: Logger,
        early: Task<EarlyWallet?, Never>? = nil
    ) {
        self.environment = environment
        self.location = location
        self.logger = logger
        self.filler = WholeCardFiller(logger: logger)
        self.early = early
        self.earlyState = Mutex(early == nil ? .done : .waiting)
    }

    /// The wallet of the account logged in at `client`'s server, `nil` when nobody is (or no cache can be had).
    public func wallet(for client: CardAPIClient) async -> CachedWallet? {
        guard let account = await client.status().account?.email else { return nil }
        let server = client.configuration.serverKey
        await settleEarly(client: client, server: server, account: account)
        if let wallet = opened.withLock({
            $0.flatMap { $0.server == server && $0.account == account ? $0.wallet : nil }
        }) {
            return wallet
        }
        let (environment, location, logger) = (self.environment, self.location, self.logger)
        let task = opening.withLock { current -> Task<CachedWallet?, Never> in
            if let current, current.server == server, current.account == account { return current.task }
            let task = Task<CachedWallet?, Never> {
                let wallet = await CachedWallet.open(
                    client: client, environment: environment, location: location, logger: logger)
                return wallet.cache != nil ? wallet : nil
            }
            current = Opening(server: server, account: account, task: task)
            return task
        }
        let wallet = await task.value
        // Kept before the opening is forgotten, so a caller in between finds one or the other.
        if let wallet { opened.withLock { $0 = Opened(server: server, account: account, wallet: wallet) } }
        opening.withLock { current in
            if let open = current, open.server == server, open.account == account { current = nil }
        }
        return wallet
    }

    /// Waits for the background reads of whole cards under way, if any (tests, a clean quit).
    public func settleBackgroundReads() async {
        await filler.settle()
    }

    /// The cached wallet as one action, for the first frame of a restored session; `nil` when
    /// nothing is cached for the account logged in at `client`.
    public func firstFrame(_ client: CardAPIClient) async -> AppAction? {
        guard let wallet = await wallet(for: client) else { return nil }
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
    private func settleEarly(client: CardAPIClient, server: String, account: String) async {
        guard let early, earlyState.withLock({ if case .waiting = $0 { true } else { false } }) else { return }
        guard let read = await early.value else {
            earlyState.withLock { $0 = .done }
            return
        }
        let mine = read.server == server && read.account == account
        let decided = earlyState.withLock { state -> Bool in
            guard case .waiting = state else { return false }
            if mine {
                let wallet = CachedWallet(client: client, cache: read.cache, logger: logger)
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

    /// Sends the changes waiting in the outbox (made while offline), before the list is read so
    /// that it shows them; each claimed in the cache first, so no change goes twice (another
    /// process's replay takes turns with this one). Unreachable, they stay for the next try.
    ///
    /// - Returns: the edits made offline that the server refused because their card changed
    ///   meanwhile (this time or at an earlier start), not yet handed to the interface: hand
    ///   them over with ``delivered(_:)``.
    func sendOutbox(_ client: CardAPIClient) async -> [OfflineConflict] {
        guard let wallet = await wallet(for: client), let cache = wallet.cache else { return [] }
        guard
            replaying.withLock({ busy in
                defer { busy = true }
                return !busy
            })
        else { return [] }
        defer { replaying.withLock { $0 = false } }
        if let waiting = try? cache.pendingChanges(), !waiting.isEmpty {
            let report = await wallet.replayOutbox()
            logger.info("Outbox: \(report.sent) sent, \(report.refused.count) refused, \(report.pending) waiting")
            for reason in report.refused { logger.warning("Outbox: a change made offline was refused: \(reason)") }
            if report.stoppedOffline { return [] }
        }
        let found = await wallet.refusedEdits(excluding: reported.withLock { $0 })
        reported.withLock { $0.formUnion(found.settled) }
        return found.conflicts
    }

    /// The conflicts of ``sendOutbox(_:)`` reached the interface: not handed over again in this
    /// process (the entries stay in the outbox until the person chooses, and come back at the
    /// next start when they did not).
    func delivered(_ conflicts: [OfflineConflict]) {
        reported.withLock { $0.formUnion(conflicts.map(\.entry)) }
    }

    /// The person chose in the conflict view of an offline edit: the entry leaves the outbox
    /// (their fields were just saved over the server's version, or the server's stays).
    func resolve(entry: Int64, keptMine: Bool, _ client: CardAPIClient) async -> APIOutcome {
        guard let cache = await wallet(for: client)?.cache else {
            return .failure(UIFailure(.other, message: "no card cache"))
        }
        do {
            try cache.discard(entry)
        } catch {
            return .failure(UIFailure(.other, message: "the card cache: \(CachedWallet.text(error))"))
        }
        logger.info(
            "Outbox: the offline edit \(entry) resolved, \(keptMine ? "sent over the server's version" : "dropped for the server's version")"
        )
        return .success(.resolvedOfflineEdit)
    }

    /// Hits per keystroke that come with the field they matched: a tall terminal's list.
    static let searchHitsWithFields = 100

    /// The cached cards matching `query` in any field (the FTS5 indexes), without the network:
    /// every match's id in wallet order, and for the first ``searchHitsWithFields`` the field
    /// that matched with its excerpt (docs/Cache.md, *Search*).
    func search(_ query: String, _ client: CardAPIClient) async -> APIOutcome {
        guard let cache = await wallet(for: client)?.cache else {
            return .failure(UIFailure(.other, message: "no card cache"))
        }
        do {
            let result = try cache.search(query, limit: Self.searchHitsWithFields, allIDs: true, excerpts: true)
            var fields: [String: FieldMatch] = [:]
            // A name match is the list's first column: nothing to add.
            for hit in result.hits where hit.field != .name {
                fields[hit.cardID] = FieldMatch(field: hit.field, excerpt: hit.excerpt ?? "")
            }
            return .success(.cacheMatches(query: query, ids: result.allIDs, fields: fields))
        } catch {
            return .failure(
                UIFailure(.other, message: "the card cache cannot be searched: \(CachedWallet.text(error))"))
        }
    }

    /// What `call` answered, kept in the cache.
    func record(_ call: APICall, _ result: APIResult, _ client: CardAPIClient) async {
        guard let cache = await wallet(for: client)?.cache else { return }
        let now = Date()
        switch (call, result) {
        case (.loadCards(let offset, _, nil), .cards(let page)):
            let whole: [CardSummary]? = gathered.withLock { cards in
                if offset == 0 { cards = [] }
                guard offset == cards.count else { return nil }
                cards += page.cards
                return cards.count >= page.total ? cards : nil
            }
            if let whole {
                note { try cache.storeList(whole, confirmedAt: now) }
                // Whole cards for offline export, QR and search, behind the person's own calls.
                if let wallet = await wallet(for: client) { filler.fill(whole, in: wallet) }
            }
        case (.loadCard, .card(let card)), (.updateCard, .card(let card)):
            note { try cache.storeCard(card, confirmedAt: now) }
        default:
            break
        }
    }

    /// The answer to `call` from the cache after `error`, when the server could not be reached
    /// and the cache has it; `nil` otherwise. An ended session (E06) wipes the account's cache.
    /// A create is queued with `idempotencyKey`, the key of the attempt whose answer was lost.
    func answer(
        _ call: APICall, after error: CardAPIError, _ client: CardAPIClient, idempotencyKey: IdempotencyKey? = nil
    ) async -> APIOutcome? {
        if case .sessionExpired(let server, let account?) = error {
            await discardEarly()  // an early read not kept yet must not be kept after the wipe
            opened.withLock { $0 = nil }
            CachedWallet.wipe(
                server: server, account: account, environment: environment, location: location, logger: logger)
            return nil
        }
        guard error.isNetworkFailure, let wallet = await wallet(for: client) else {
            // No cache could be had for the account: say so, and let the interface keep trying.
            if error.isNetworkFailure, case .loadCards(0, _, nil) = call { return .success(.offlineNothingCached) }
            return nil
        }
        switch call {
        case .loadCards(let offset, let limit, nil):
            guard let list = wallet.cachedListWithPendingChanges() else {
                return offset == 0 ? .success(.offlineNothingCached) : nil
            }
            let slice = Array(list.cards.dropFirst(offset).prefix(offset == 0 ? list.cards.count : limit))
            let page = CardPage(cards: slice, total: list.cards.count, offset: offset, limit: max(1, slice.count))
            return .success(.cachedCards(page, asOf: list.confirmedAt))
        case .loadCard(let id):
            guard let answer = try? await wallet.card(id: id, .offline) else { return nil }
            return .success(.card(answer.value))
        case .createCard, .updateCard, .deleteCard, .reorderCards:
            return queue(call, in: wallet, idempotencyKey: idempotencyKey)
        default:
            return nil
        }
    }

    /// A change made offline, into the outbox (sent when the server is back), and what the
    /// interface shows meanwhile; `nil` when it cannot be kept (a picture to upload, a card
    /// the cache does not know).
    private func queue(_ call: APICall, in wallet: CachedWallet, idempotencyKey: IdempotencyKey?) -> APIOutcome? {
        guard let cache = wallet.cache, let list = wallet.cachedList() else { return nil }
        let now = Date()
        let change: OutboxChange
        let shown: APIResult
        switch call {
        case .createCard(let fields, let imagePath):
            // A picture is read when the card is sent: not kept offline (it would go silently).
            guard CardAPIPerformer.imagePath(imagePath) == nil else {
                return .failure(
                    UIFailure(.other, message: "offline: a card with a picture can be added once the server is back"))
            }
            let id = CardCache.localIDPrefix + String(Int(now.timeIntervalSince1970 * 1_000_000))
            change = .add(localID: id, fields: fields, image: nil)
            shown = .card(Card(id: id, fields: fields, createdAt: now, updatedAt: now, version: 0))
        case .updateCard(let id, let fields, let version):
            guard let cached = try? cache.card(id: id) else { return nil }
            var card = cached.card
            card.fields = fields
            change = .edit(cardID: id, fields: fields, baseVersion: version)
            shown = .card(card)
        case .deleteCard(let id):
            guard let summary = list.cards.first(where: { $0.id == id }) else { return nil }
            change = .delete(cardID: id, baseVersion: summary.version)
            shown = .deleted(id: id, backup: nil)
        case .reorderCards(let order):
            change = .reorder(order)
            shown = .reordered
        default:
            return nil
        }
        do {
            _ = try cache.enqueue(change, idempotencyKey: idempotencyKey)
        } catch {
            logger.warning("The change could not be kept offline: \(CachedWallet.text(error))")
            return nil
        }
        return .success(.queued(shown))
    }

    private func note(_ body: () throws -> Void) {
        do { try body() } catch { logger.notice("The card cache: \(CachedWallet.text(error))") }
    }
}
