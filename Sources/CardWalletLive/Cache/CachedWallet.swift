public import CardAPI
public import CardCache
public import CardModels
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

/// The wallet through the local cache (docs/Cache.md): reads go to the server and are recorded
/// in the cache, and are answered from the cache when the server cannot be reached; searches
/// look at every field in the cache. Without a cache (not logged in, no cache folder, a disk
/// that refuses) every read goes to the server as before.
///
/// ```swift
/// let wallet = await CachedWallet.open(client: live.client, environment: environment, logger: logger)
/// let answer = try await wallet.list(.online)
/// if let time = answer.offlineAsOf { print("offline — cards as of \(time)") }
/// ```
public final class CachedWallet: Sendable {
    /// The card API client.
    public let client: CardAPIClient
    /// The cache of the logged-in account at the client's server, when there is one.
    public let cache: CardCache?
    let logger: Logger

    /// A wallet on `client` and `cache`.
    public init(client: CardAPIClient, cache: CardCache?, logger: Logger) {
        self.client = client
        self.cache = cache
        self.logger = logger
    }

    /// The wallet of the account logged in at `client`'s server, with its cache under
    /// `location` (the XDG cache folder of `environment` when `nil`). Never fails: a cache that
    /// cannot be had is logged at `notice` and the wallet goes on without it.
    public static func open(
        client: CardAPIClient, environment: [String: String], location: CacheLocation? = nil, logger: Logger
    ) async -> CachedWallet {
        guard let account = await client.status().account?.email else {
            return CachedWallet(client: client, cache: nil, logger: logger)
        }
        do {
            let location = try location ?? CacheLocation(environment: environment)
            let cache = try CardCache.open(
                server: client.configuration.serverKey, account: account, location: location, logger: logger)
            return CachedWallet(client: client, cache: cache, logger: logger)
        } catch {
            logger.notice("Working without the card cache: \(text(error))")
            return CachedWallet(client: client, cache: nil, logger: logger)
        }
    }

    /// Forgets the cache of `account` at `server` (logout, E06). Logged, never thrown.
    public static func wipe(
        server: String, account: String, environment: [String: String], location: CacheLocation? = nil, logger: Logger
    ) {
        do {
            try CardCache.wipe(
                server: server, account: account, location: location ?? CacheLocation(environment: environment),
                logger: logger)
        } catch {
            logger.warning("The card cache could not be removed: \(text(error))")
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
            cards = try await client.allCards()
        } catch {
            guard error.isNetworkFailure, cachedList() != nil else { throw error }
            return try offlineList()
        }
        if let cache { attempt { try cache.storeList(cards, confirmedAt: Date()) } }
        return WalletAnswer(value: cards, offlineAsOf: nil)
    }

    /// One whole card.
    public func card(id: String, _ mode: WalletReadMode) async throws -> WalletAnswer<Card> {
        if mode == .offline { return try offlineCard(id: id) }
        let card: Card
        do {
            card = try await client.card(id: id)
        } catch {
            guard error.isNetworkFailure, cache != nil else { throw error }
            return try offlineCard(id: id)
        }
        if let cache { attempt { try cache.storeCard(card, confirmedAt: Date()) } }
        return WalletAnswer(value: card, offlineAsOf: nil)
    }

    /// The cards matching `text` in any field (name, company, department, title, email,
    /// phone digits, website, address, bio, TMI, tags), each with the first field that
    /// matched, in wallet order.
    ///
    /// Online, the list is refreshed and every card whose whole card the cache lacks (or holds
    /// an older version of) is read first, a few at a time, so that every field is searched;
    /// later searches read only the cards that changed. Without a cache, the server's own
    /// query (name, company, title, email) answers.
    public func search(_ text: String, _ mode: WalletReadMode) async throws -> WalletAnswer<[(CardSummary, CardField)]>
    {
        guard let cache else {
            let cards = try await client.allCards(query: text)
            return WalletAnswer(value: cards.map { ($0, CardField.name) }, offlineAsOf: nil)
        }
        let listed = try await list(mode)
        if listed.offlineAsOf == nil {
            do {
                try await fillWholeCards(listed.value, cache)
            } catch let error as CardAPIError where error.isNetworkFailure {
                return try searchCache(text, in: listed.value, asOf: cachedList()?.confirmedAt ?? Date())
            }
        }
        return try searchCache(text, in: listed.value, asOf: listed.offlineAsOf)
    }

    /// The ids of `cards` whose whole card the cache lacks or has an older version of.
    func lackingWholeCards(_ cards: [CardSummary], _ cache: CardCache) -> [String] {
        let kept = attempt { try cache.cards(ids: cards.map(\.id)) } ?? []
        return zip(cards, kept.count == cards.count ? kept : Array(repeating: nil, count: cards.count))
            .filter { (summary: CardSummary, cached: CachedCard?) in
                cached.map { !$0.isCurrent || $0.card.version != summary.version } ?? true
            }
            .map(\.0.id)
    }

    /// Reads, 8 at a time, the cards whose whole card the cache lacks or has an older version of.
    public func fillWholeCards(_ cards: [CardSummary]) async throws {
        guard let cache else { return }
        try await fillWholeCards(cards, cache)
    }

    /// Reads, 8 at a time, the cards whose whole card the cache lacks or has an older version of.
    func fillWholeCards(_ cards: [CardSummary], _ cache: CardCache) async throws {
        let missing = lackingWholeCards(cards, cache)
        guard !missing.isEmpty else { return }
        let client = self.client
        let fetched = try await withThrowingTaskGroup(of: Card?.self) { group in
            var next = 0
            var fetched: [Card] = []
            while next < missing.count || !group.isEmpty {
                while next < missing.count && next - fetched.count < 8 {
                    let id = missing[next]
                    next += 1
                    group.addTask {
                        do { return try await client.card(id: id) } catch let error as CardAPIError
                            where error.isNotFound
                        { return nil }
                    }
                }
                guard let card = try await group.next() else { break }
                fetched.append(card ?? Card.placeholder)
            }
            return fetched
        }
        let now = Date()
        attempt { try cache.storeCards(fetched.filter { $0.id != Card.placeholder.id }, confirmedAt: now) }
    }

    private func searchCache(_ text: String, in cards: [CardSummary], asOf: Date?) throws -> WalletAnswer<
        [(CardSummary, CardField)]
    > {
        guard let cache else { return WalletAnswer(value: [], offlineAsOf: asOf) }
        let byID = Dictionary(cards.map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
        let hits: CardSearchResult
        do {
            hits = try cache.search(text, limit: nil)
        } catch {
            throw OfflineReadError("The card cache cannot be searched: \(Self.text(error))")
        }
        return WalletAnswer(
            value: hits.hits.compactMap { hit in byID[hit.cardID].map { ($0, hit.field) } }, offlineAsOf: asOf)
    }

    private func offlineList() throws -> WalletAnswer<[CardSummary]> {
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
        return WalletAnswer(value: cached.card, offlineAsOf: cached.confirmedAt)
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
    /// Stands for a card that went away between the list and its reading (counted, not stored).
    fileprivate static let placeholder = Card(
        id: "", fields: CardFields(name: ""), createdAt: Date(timeIntervalSince1970: 0),
        updatedAt: Date(timeIntervalSince1970: 0),
        version: 0)
}
