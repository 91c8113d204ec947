public import CardBackend
public import CardModels
import Foundation
import Synchronization

/// A place where cards live, in memory: the test double of the backend seam, shaped like a
/// server that is not the card API — string revisions (`"m-<n>"`, opaque), listings by sync token
/// (the changes since, or the whole list when the token is unknown), whole cards in its
/// listings, pictures inside the cards, no order of its own and no search.
///
/// Tests switch it offline (every call fails as a network failure), end the session (every call
/// fails as the server ending it, until the next login), and count what reached it.
public final class MemoryBackend: CardBackend {
    /// What reached the backend, for the tests' assertions.
    public struct Calls: Sendable, Equatable {
        /// Creates that made a card (a repeated key made none).
        public var creates = 0
        /// Creates answered with the card an earlier create with the same key made.
        public var repeatedCreates = 0
        /// Updates applied.
        public var updates = 0
        /// Deletes applied.
        public var deletes = 0
        /// Listings answered with only the changes since a token.
        public var changeListings = 0
        /// Listings answered with every card.
        public var wholeListings = 0
        /// Whole cards read one by one or in batches.
        public var cardReads = 0
    }

    private struct State {
        var passwords: [String: String]
        var account: String?
        var ended = false
        var offline = false
        var cards: [String: Card] = [:]
        var order: [String] = []
        var images: [String: CardImage] = [:]
        /// Per card, the generation of its last change; removed cards keep theirs here.
        var changed: [String: Int] = [:]
        var removed: [String: Int] = [:]
        var generation = 0
        var nextID = 0
        var keys: [IdempotencyKey: String] = [:]
        var calls = Calls()
        var sink: (any SessionStateSink)?
    }

    private let state: Mutex<State>
    public let server: String

    /// A backend at `server` where `passwords` (account → password) can log in.
    /// Hands a listing's whole cards over in batches of this many (as CardDAV does), or `nil`
    /// to carry them in the answer.
    public let batchSize: Int?

    public init(
        server: String = "https://cards.memory.test/book", passwords: [String: String] = ["ann@example.com": "secret"],
        batchSize: Int? = nil
    ) {
        self.server = server
        self.batchSize = batchSize
        self.state = Mutex(State(passwords: passwords))
    }

    public var kind: BackendKind { MemoryProvider.kind }
    public var maximumImageBytes: Int { CardLimits.imageMaxBytes }

    public var capabilities: BackendCapabilities {
        BackendCapabilities(
            keepsOrder: false, searchesOnServer: false, pagesListings: false, listsWholeCards: true,
            syncsByToken: true, storesImagesApart: false)
    }

    // MARK: What the tests do

    /// What reached the backend so far.
    public var calls: Calls { state.withLock { $0.calls } }

    /// The cards as the backend holds them, in the order they were made.
    public var cards: [Card] { state.withLock { state in state.order.compactMap { state.cards[$0] } } }

    /// Whether every call fails as a network failure.
    public func setOffline(_ offline: Bool) { state.withLock { $0.offline = offline } }

    /// The server ends the session: every call fails so until the next login.
    public func endSession() { state.withLock { $0.ended = true } }

    /// Someone else changes a card on the server (a new revision).
    public func changeElsewhere(id: String, _ change: (inout CardFields) -> Void) {
        state.withLock { state in
            guard var card = state.cards[id] else { return }
            change(&card.fields)
            Self.touch(&card, &state)
            state.cards[id] = card
        }
    }

    /// Adds a card as if made elsewhere; returns it.
    @discardableResult
    public func add(_ fields: CardFields) -> Card {
        state.withLock { state in Self.make(fields, &state) }
    }

    // MARK: Session

    public func logIn(_ credential: LoginCredential) async throws -> LoginOutcome {
        guard case .password(let account, let password) = credential else { throw MemoryFailure(.other) }
        return try state.withLock { state in
            guard !state.offline else { throw MemoryFailure.offline(server) }
            guard state.passwords[account.lowercased()] == password else { throw MemoryFailure(.loginFailed) }
            state.account = account.lowercased()
            state.ended = false
            state.sink?.sessionChanged(.loggedIn(SessionAccount(server: server, email: account.lowercased())))
            return LoginOutcome(account: SessionAccount(server: server, email: account.lowercased()))
        }
    }

    public func logOut(everyAccount: Bool) async throws -> [LogoutReport] {
        state.withLock { state in
            let account = state.account
            state.account = nil
            state.sink?.sessionChanged(.loggedOut(server: server))
            return [LogoutReport(account: account, serverTold: !state.offline, serverProblem: nil)]
        }
    }

    public func status() async -> SessionStatusReport {
        let state = sessionState
        return SessionStatusReport(server: server, state: state, account: state.account, storage: "in memory")
    }

    public var sessionState: SessionState {
        state.withLock { state in
            guard let account = state.account else { return .loggedOut(server: server) }
            let session = SessionAccount(server: server, email: account)
            return state.ended ? .expired(server: server, account: session) : .loggedIn(session)
        }
    }

    public func reportSession(to sink: (any SessionStateSink)?) { state.withLock { $0.sink = sink } }
    public func finishSessionWork() async {}
    public var sessionWorkTimeout: Duration { .seconds(1) }
    public func serverProblem() async -> (any BackendFailure)? {
        state.withLock { $0.offline } ? MemoryFailure.offline(server) : nil
    }

    // MARK: Reads

    public func listing(_ request: ListingRequest) async throws -> CardListing {
        try withSession { state in
            let token = SyncToken(rawValue: "gen-\(state.generation)")
            if case .whole(let since?, _) = request, since.rawValue.hasPrefix("gen-"),
                let from = Int(since.rawValue.dropFirst(4)), from <= state.generation
            {
                state.calls.changeListings += 1
                let changed = state.order.filter { (state.changed[$0] ?? 0) > from }.compactMap { state.cards[$0] }
                let removed = state.removed.filter { $0.value > from }.map(\.key).sorted()
                return .changes(changed: changed, removed: removed, token: token)
            }
            state.calls.wholeListings += 1
            let cards = state.order.compactMap { state.cards[$0] }
            return .whole(cards.map(\.summary), cards: cards, token: token)
        }
    }

    public func listing(_ request: ListingRequest, receiving receive: (ListingBatch) async throws -> Void)
        async throws -> CardListing
    {
        let listing = try await listing(request)
        guard let batchSize else { return listing }
        func hand(_ cards: [Card]) async throws {
            for start in stride(from: 0, to: cards.count, by: batchSize) {
                try await receive(ListingBatch(cards: Array(cards[start..<min(start + batchSize, cards.count)])))
            }
        }
        switch listing {
        case .whole(let summaries, let cards, let token):
            try await hand(cards)
            return .whole(summaries, cards: [], token: token)
        case .changes(let changed, let removed, let token):
            try await hand(changed)
            return .changes(changed: [], removed: removed, token: token)
        case .page:
            return listing
        }
    }

    public func search(_ query: String) async throws -> [CardSummary] {
        try withSession { state in
            state.order.compactMap { state.cards[$0] }.filter {
                $0.fields.name.localizedCaseInsensitiveContains(query)
            }.map(\.summary)
        }
    }

    public func card(id: String) async throws -> Card {
        try withSession { state in
            guard let card = state.cards[id] else { throw MemoryFailure(.notFound) }
            state.calls.cardReads += 1
            return card
        }
    }

    public func cards(ids: [String], progress: (@Sendable (Int) -> Void)?) async throws -> [Card] {
        let cards = try withSession { state in
            state.calls.cardReads += ids.count
            return ids.compactMap { state.cards[$0] }
        }
        progress?(ids.count)
        return cards
    }

    public func image(of id: String) async throws -> CardImage {
        try withSession { state in
            guard let image = state.images[id] else { throw MemoryFailure(.notFound) }
            return image
        }
    }

    // MARK: Writes

    public func create(_ fields: CardFields, image: ImageUpload?, key: IdempotencyKey) async throws -> Card {
        let picture = try image.map { try Self.picture($0) }
        return try withSession { state in
            if let id = state.keys[key], let card = state.cards[id] {
                state.calls.repeatedCreates += 1
                return card
            }
            state.calls.creates += 1
            var card = Self.make(fields, &state)
            state.keys[key] = card.id
            if let picture {
                card.hasImage = true
                state.images[card.id] = picture
                state.cards[card.id] = card
            }
            return card
        }
    }

    public func update(_ base: Card, to fields: CardFields) async throws -> Card {
        try withSession { state in
            guard var card = state.cards[base.id] else { throw MemoryFailure(.notFound) }
            guard card.revision == base.revision else { throw MemoryFailure(.conflict) }
            card.fields = fields
            Self.touch(&card, &state)
            state.cards[base.id] = card
            state.calls.updates += 1
            return card
        }
    }

    public func delete(id: String, revision: CardRevision?) async throws {
        try withSession { state in
            guard let card = state.cards[id] else { throw MemoryFailure(.notFound) }
            if let revision, card.revision != revision { throw MemoryFailure(.conflict) }
            state.generation += 1
            state.cards[id] = nil
            state.order.removeAll { $0 == id }
            state.removed[id] = state.generation
            state.changed[id] = nil
            state.calls.deletes += 1
        }
    }

    public func setImage(of base: Card, to image: ImageUpload?) async throws -> Card {
        let picture = try image.map { try Self.picture($0) }
        return try withSession { state in
            let id = base.id
            guard var card = state.cards[id] else { throw MemoryFailure(.notFound) }
            guard card.revision == base.revision else { throw MemoryFailure(.conflict) }
            state.images[id] = picture
            card.hasImage = picture != nil
            Self.touch(&card, &state)
            state.cards[id] = card
            return card
        }
    }

    public func reorder(_ ids: [String]) async throws -> [String] {
        throw MemoryFailure(.other)
    }

    // MARK: Inside

    private func withSession<T>(_ body: (inout State) throws -> T) throws -> T {
        try state.withLock { state in
            guard !state.offline else { throw MemoryFailure.offline(server) }
            guard let account = state.account else { throw MemoryFailure(.notLoggedIn) }
            guard !state.ended else { throw MemoryFailure(.sessionEnded(server: server, account: account)) }
            return try body(&state)
        }
    }

    private static func make(_ fields: CardFields, _ state: inout State) -> Card {
        state.nextID += 1
        state.generation += 1
        let id = "m\(state.nextID)"
        let now = Date()
        let card = Card(
            id: id, fields: fields, createdAt: now, updatedAt: now, revision: CardRevision(rawValue: "m-\(UUID())"))
        state.cards[id] = card
        state.order.append(id)
        state.changed[id] = state.generation
        return card
    }

    private static func touch(_ card: inout Card, _ state: inout State) {
        state.generation += 1
        card.revision = CardRevision(rawValue: "m-\(UUID())")
        card.updatedAt = Date()
        state.changed[card.id] = state.generation
    }

    private static func picture(_ image: ImageUpload) throws -> CardImage {
        let data = try Data(contentsOf: image.url)
        return CardImage(data: data, contentType: image.format.contentType, format: image.format, revision: nil)
    }
}

/// A failure of the memory backend.
public struct MemoryFailure: BackendFailure, Equatable {
    public let failureKind: BackendFailureKind

    public init(_ kind: BackendFailureKind) { self.failureKind = kind }

    /// The server cannot be reached.
    public static func offline(_ server: String) -> MemoryFailure {
        MemoryFailure(.cannotConnect(server: server, reason: "connection refused"))
    }

    public var description: String { "memory backend: \(failureKind)" }
}
