public import CardBackend
public import CardCache
public import CardModels
import CardVCard
public import Foundation
public import Logging

/// An answer, and whether it came from the cache because the server could not be reached.
public struct WalletAnswer<Value: Sendable>: Sendable {
    /// The cards (or card).
    public var value: Value
    /// `nil` when the server just answered; else when the server last confirmed what the cache
    /// gave (say `offline — cards as of <time>`).
    public var offlineAsOf: Date?
}

/// How a read reaches the cards.
public enum WalletReadMode: Sendable, Equatable {
    /// The server first, recording its answer in the cache; the cache when the server cannot
    /// be reached (refused, timed out, connection broken).
    case online
    /// The cache only, without trying the network (`--offline`).
    case offline
}

/// Why a read could not be answered from the cache.
public struct OfflineReadError: Error, Sendable, Equatable, CustomStringConvertible {
    /// One sentence (safe to print: no card text).
    public let description: String
    /// Whether the card asked for is not in the cached wallet at all (rather than not cached).
    public let isNotFound: Bool

    init(_ description: String, isNotFound: Bool = false) {
        self.description = description
        self.isNotFound = isNotFound
    }
}

/// The wallet of one account through the local cache (docs/Cache.md), on any backend: reads go
/// to the server and are recorded in the cache, and are answered from the cache when the server
/// cannot be reached; searches look at every field in the cache; and every change — the
/// scripting commands', the interface's, the outbox's — goes through its one write path
/// (`CachedWallet+Writes.swift`), so that after any write the cache holds the server's answer.
/// Without a cache (not logged in, no cache folder, a disk that refuses) every read and write
/// goes to the server as before.
///
/// ```swift
/// let wallet = await accounts.wallet()
/// let answer = try await wallet.list(.online)
/// if let time = answer.offlineAsOf { print("offline — cards as of \(time)") }
/// ```
public final class CachedWallet: Sendable {
    /// Where the cards live.
    public let backend: any CardBackend
    /// The cache of the logged-in account at the backend's server, when there is one.
    public let cache: CardCache?
    let logger: Logger

    /// A wallet on `backend` and `cache`.
    public init(backend: any CardBackend, cache: CardCache?, logger: Logger) {
        self.backend = backend
        self.cache = cache
        self.logger = logger
    }

    /// The wallet of the account logged in at `backend`'s server, with its cache under
    /// `location`. Never fails: a cache that cannot be had is logged at `notice` and the wallet
    /// goes on without it.
    public static func open(backend: any CardBackend, location: CacheLocation?, logger: Logger) async -> CachedWallet {
        guard let location, let account = await backend.status().account?.email else {
            return CachedWallet(backend: backend, cache: nil, logger: logger)
        }
        do {
            let cache = try CardCache.open(server: backend.server, account: account, location: location, logger: logger)
            return CachedWallet(backend: backend, cache: cache, logger: logger)
        } catch {
            logger.notice("Working without the card cache: \(text(error))")
            return CachedWallet(backend: backend, cache: nil, logger: logger)
        }
    }

    /// The wallet as the cache last had it, at once and without the network (the first frame).
    public func cachedList() -> CachedList? {
        guard let cache else { return nil }
        return attempt { try cache.list() } ?? nil
    }

    /// Every card's summary, in wallet order.
    public func list(_ mode: WalletReadMode) async throws -> WalletAnswer<[CardSummary]> {
        if mode == .offline { return try offlineList() }
        let cards: [CardSummary]
        do {
            cards = try await listWhole()
        } catch  where BackendFailures.isNetworkFailure(error) && cachedList() != nil {
            return try offlineList()
        }
        return WalletAnswer(value: cards, offlineAsOf: nil)
    }

    /// Every card's summary as the server lists it now (recorded), never from the cache: for a
    /// change that must start from the server's wallet (a new order).
    public func serverList() async throws -> [CardSummary] {
        try await listWhole()
    }

    /// Told how many whole cards a listing has handed over so far, as each batch is stored (a
    /// first sync of a large CardDAV book reads every card), and when the listing is over:
    /// what a command's progress line shows. Task-local, so that each command (or test) sets
    /// its own.
    @TaskLocal public static var listingProgress: ListingProgress?

    /// Told how many cards have been indexed for search so far, when a search first indexes
    /// the cards a sync stored without indexing them (a first sync of a large CardDAV book):
    /// what a command's progress line shows. Task-local, as ``listingProgress``.
    @TaskLocal public static var indexingProgress: ListingProgress?

    /// The whole list from the server, recorded: the changes since the cache's sync token
    /// where the backend syncs by token, else every card. Whole cards that come with the
    /// listing are recorded batch by batch as they arrive, never held all at once.
    func listWhole() async throws -> [CardSummary] {
        var token: SyncToken?
        var known: [String: CardRevision] = [:]
        if backend.capabilities.syncsByToken, let cache {
            token = (attempt { try cache.syncToken() } ?? nil).map(SyncToken.init(rawValue:))
            known = attempt { try cache.revisions() } ?? [:]
        }
        let request = ListingRequest.whole(since: token, known: known)
        var everyBatchKept = true
        var groups = Set<String>()
        var handed = 0
        let progress = Self.listingProgress
        defer { if handed > 0 { progress?.finish() } }
        let listing: CardListing
        if let cache {
            listing = try await backend.listing(request) { batch in
                handed += batch.cards.count
                progress?.update(handed)
                groups.formUnion(batch.groups.map(\.id))
                let kept = attempt { () throws -> Bool in
                    // Indexed for search afterwards (before the next search, or in the
                    // interface's background): the list is there sooner.
                    try cache.storeCards(batch.cards, confirmedAt: Date(), indexing: .later)
                    try cache.storeGroups(batch.groups)
                    return true
                }
                everyBatchKept = kept == true && everyBatchKept
            }
        } else {
            listing = try await backend.listing(request)
        }
        let now = Date()
        // A batch the cache could not keep: no token, so the next listing compares every card.
        let next = { (token: SyncToken?) in everyBatchKept ? token?.rawValue : nil }
        switch listing {
        case .page(let page):
            return page.cards
        case .whole(let summaries, let cards, let token):
            if let cache {
                attempt {
                    if !cards.isEmpty { try cache.storeCards(cards, confirmedAt: now) }
                    // Where the server keeps no order, the wallet's own order stays.
                    try cache.storeList(summaries, confirmedAt: now, keepingOrder: !backend.capabilities.keepsOrder)
                    try cache.keepOnlyGroups(groups)
                    try cache.storeSyncToken(next(token))
                }
            }
            return summaries
        case .changes(let changed, let removed, let token):
            guard let cache else { return try await listWholeIgnoringToken() }
            attempt {
                try cache.storeCards(changed, confirmedAt: now)
                for id in removed { try cache.removeCard(id: id) }
                try cache.confirmList(at: now)
                try cache.storeSyncToken(next(token))
            }
            return cachedList()?.cards ?? []
        }
    }

    /// The whole list without a token (a wallet with no cache to apply changes to).
    private func listWholeIgnoringToken() async throws -> [CardSummary] {
        switch try await backend.listing(.whole(since: nil)) {
        case .page(let page): page.cards
        case .whole(let summaries, _, _): summaries
        case .changes(let changed, _, _): changed.map(\.summary)
        }
    }

    /// One whole card.
    public func card(id: String, _ mode: WalletReadMode) async throws -> WalletAnswer<Card> {
        if mode == .offline { return try offlineCard(id: id) }
        let card: Card
        do {
            card = try await backend.card(id: id)
        } catch  where BackendFailures.isNetworkFailure(error) && cache != nil {
            return try offlineCard(id: id)
        }
        if let cache { attempt { try cache.storeCard(card, confirmedAt: Date()) } }
        return WalletAnswer(value: withGroups(card), offlineAsOf: nil)
    }

    /// `card` with the names of the groups it belongs to, as the cache last had the groups (a
    /// CardDAV book's group vCards name their members by `UID`).
    func withGroups(_ card: Card) -> Card {
        guard let cache, let source = card.source, let uid = (try? VCardResource(text: source))?.uid else {
            return card
        }
        var grouped = card
        grouped.groups = attempt { try cache.groupNames(containing: VCardGroup.bareUID(uid)) } ?? []
        return grouped
    }

    /// The cards matching `text` in any field (name, company, department, title, email,
    /// phone digits, website, address, bio, TMI, tags), each with the first field that
    /// matched, in wallet order.
    ///
    /// Online, the list is refreshed and every card whose whole card the cache lacks (or holds
    /// another revision of) is read first, in batches, so that every field is searched; later
    /// searches read only the cards that changed. Without a cache, the server's own search
    /// (name, company, title, email) answers.
    public func search(_ text: String, _ mode: WalletReadMode) async throws -> WalletAnswer<[(CardSummary, CardField)]>
    {
        guard let cache else {
            let cards = try await backend.search(text)
            return WalletAnswer(value: cards.map { ($0, CardField.name) }, offlineAsOf: nil)
        }
        let listed = try await list(mode)
        if listed.offlineAsOf == nil {
            do {
                try await fillWholeCards(listed.value, cache)
            } catch  where BackendFailures.isNetworkFailure(error) {
                return try searchCache(text, in: listed.value, asOf: cachedList()?.confirmedAt ?? Date())
            }
        }
        return try searchCache(text, in: listed.value, asOf: listed.offlineAsOf)
    }

    /// The ids of `cards` whose whole card the cache lacks or has another revision of.
    func lackingWholeCards(_ cards: [CardSummary], _ cache: CardCache) -> [String] {
        let kept = attempt { try cache.cards(ids: cards.map(\.id)) } ?? []
        return zip(cards, kept.count == cards.count ? kept : Array(repeating: nil, count: cards.count))
            .filter { (summary: CardSummary, cached: CachedCard?) in
                cached.map { !$0.isCurrent || $0.card.revision != summary.revision } ?? true
            }
            .map(\.0.id)
    }

    /// Reads, in the backend's batches, the cards whose whole card the cache lacks or has another
    /// revision of, and records them.
    public func fillWholeCards(_ cards: [CardSummary]) async throws {
        guard let cache else { return }
        try await fillWholeCards(cards, cache)
    }

    func fillWholeCards(_ cards: [CardSummary], _ cache: CardCache) async throws {
        let missing = lackingWholeCards(cards, cache)
        guard !missing.isEmpty else { return }
        let fetched = try await backend.cards(ids: missing, progress: nil)
        let now = Date()
        attempt { try cache.storeCards(fetched, confirmedAt: now) }
    }

    private func searchCache(_ text: String, in cards: [CardSummary], asOf: Date?) throws -> WalletAnswer<
        [(CardSummary, CardField)]
    > {
        guard let cache else { return WalletAnswer(value: [], offlineAsOf: asOf) }
        let byID = Dictionary(cards.map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
        let hits: CardSearchResult
        do {
            let progress = Self.indexingProgress
            var indexed = 0
            defer { if indexed > 0 { progress?.finish() } }
            try cache.indexBacklog { count in
                indexed = count
                progress?.update(count)
            }
            hits = try cache.search(text, limit: nil)
        } catch {
            throw OfflineReadError("The card cache cannot be searched: \(Self.text(error))")
        }
        return WalletAnswer(
            value: hits.hits.compactMap { hit in byID[hit.cardID].map { ($0, hit.field) } }, offlineAsOf: asOf)
    }

    func offlineList() throws -> WalletAnswer<[CardSummary]> {
        guard let list = cachedList() else {
            throw OfflineReadError(
                "offline, and no cards are cached for this account yet: run a command once while the server can be reached"
            )
        }
        return WalletAnswer(value: list.cards, offlineAsOf: list.confirmedAt)
    }

    private func offlineCard(id: String) throws -> WalletAnswer<Card> {
        let list = try offlineList()
        guard let cached = cache.flatMap({ cache in attempt { try cache.card(id: id) } ?? nil }) else {
            if !list.value.contains(where: { $0.id == id }) {
                throw OfflineReadError(
                    "offline, and there is no card with this id in the cached wallet", isNotFound: true)
            }
            throw OfflineReadError("offline, and this card was never shown in full while online, so it is not cached")
        }
        return WalletAnswer(value: withGroups(cached.card), offlineAsOf: cached.confirmedAt)
    }

    /// Runs a cache call; a failure is logged (the cache is only a copy) and gives `nil`.
    @discardableResult
    func attempt<T>(_ body: () throws -> T) -> T? {
        Self.attempt(logger, body)
    }

    /// ``attempt(_:)`` with `logger`, for reads without a wallet (the interface's early read).
    @discardableResult
    static func attempt<T>(_ logger: Logger, _ body: () throws -> T) -> T? {
        do {
            return try body()
        } catch {
            logger.notice("The card cache: \(text(error))")
            return nil
        }
    }

    /// A cache error's message, or any other error's description.
    static func text(_ error: any Error) -> String {
        (error as? CacheError)?.message ?? String(describing: error)
    }
}

extension Card {
    /// The address of the card's picture when its vCard links to one that is not shown (a
    /// `PHOTO` given by URI on another origin than the server's, never requested); `nil`
    /// otherwise.
    public var pictureLinkNotLoaded: String? {
        guard !hasImage, let source, case .uri(let link) = (try? VCardResource(text: source))?.picture else {
            return nil
        }
        return link
    }
}

/// What a listing tells as it stores cards: how many so far, and that it is over.
public struct ListingProgress: Sendable {
    /// How many whole cards have been stored so far.
    public var update: @Sendable (Int) -> Void
    /// The listing is over (done or failed).
    public var finish: @Sendable () -> Void

    /// A progress.
    public init(update: @escaping @Sendable (Int) -> Void, finish: @escaping @Sendable () -> Void) {
        self.update = update
        self.finish = finish
    }
}
