public import CardModels

/// A place where cards live: the card API, a CardDAV address book, or a test's memory.
///
/// Everything above this seam — the cached wallet, the outbox, the scripting commands and the
/// interface — holds an `any CardBackend` and never names the server it talks to; one
/// composition root picks the backend (docs/Architecture.md). What a backend can and cannot do
/// is told by ``capabilities``, never by asking which kind it is.
///
/// Every method throws errors that conform to ``BackendFailure``, so callers judge them through
/// its predicates (``BackendFailure/isNetworkFailure``, ``BackendFailure/isConflict`` …).
public protocol CardBackend: Sendable {
    /// Which kind of server this is, for `login` and `status` to name.
    var kind: BackendKind { get }
    /// The server as the token file and the cache key it: its base URL, trailing slashes removed.
    var server: String { get }
    /// What this backend can do.
    var capabilities: BackendCapabilities { get }
    /// The largest picture it takes, in bytes.
    var maximumImageBytes: Int { get }

    // MARK: Session

    /// Logs in with `credential`. Tokens a login earns are kept in the token file for the next
    /// process; a password the server needs on every request is handed back in the outcome
    /// (``LoginOutcome/keepsPassword``) for the account's secret store to keep — never kept here.
    ///
    /// - Throws: a failure whose kind is ``BackendFailureKind/loginFailed`` for refused
    ///   credentials, ``BackendFailureKind/other`` for a kind of login this server does not take.
    func logIn(_ credential: LoginCredential) async throws -> LoginOutcome
    /// Logs out the account in use — every account stored for the server when `everyAccount`
    /// (they are all forgotten here even when the server cannot be told).
    func logOut(everyAccount: Bool) async throws -> [LogoutReport]
    /// Who is logged in, from the token file only (nothing is sent).
    func status() async -> SessionStatusReport
    /// The session's state now.
    var sessionState: SessionState { get }
    /// Sends every change of ``sessionState`` to `sink` from now on (`nil`: to nobody).
    func reportSession(to sink: (any SessionStateSink)?)
    /// Waits until no session work that must not be cut short is on the wire (a token refresh
    /// whose new tokens are not saved yet), at most ``sessionWorkTimeout``.
    func finishSessionWork() async
    /// The longest session work may take (a refresh's own timeout).
    var sessionWorkTimeout: Duration { get }
    /// What keeps a login from working, found without credentials: the server cannot be reached,
    /// or the address is not this kind of server's. `nil` when none is found.
    func serverProblem() async -> (any BackendFailure)?

    // MARK: Reads

    /// The cards as the backend lists them: one page, or the whole list (or only what changed
    /// since `request`'s token, when ``BackendCapabilities/syncsByToken``).
    func listing(_ request: ListingRequest) async throws -> CardListing
    /// ``listing(_:)`` handing the whole cards over as they arrive, batch by batch, to `receive`
    /// (which records them), so that a long listing is never held whole: the answer then lists
    /// every summary but carries none of the cards `receive` was given. Groups of cards, which
    /// only this form hands over, come the same way; a group's id may be among the removed.
    /// A backend whose listings carry no whole cards answers as ``listing(_:)`` (the default).
    func listing(_ request: ListingRequest, receiving receive: (ListingBatch) async throws -> Void) async throws
        -> CardListing
    /// The cards whose name, company, title or email holds `query` (the server's own search,
    /// when ``BackendCapabilities/searchesOnServer``), in wallet order.
    func search(_ query: String) async throws -> [CardSummary]
    /// One whole card.
    /// - Throws: a failure that ``BackendFailure/isNotFound`` when there is no such card.
    func card(id: String) async throws -> Card
    /// Whole cards, read in batches as suits the backend, in the order of `ids`; cards gone
    /// meanwhile are left out. `progress` is told how many have come so far.
    func cards(ids: [String], progress: (@Sendable (Int) -> Void)?) async throws -> [Card]
    /// A card's picture.
    func image(of id: String) async throws -> CardImage

    // MARK: Writes

    /// Makes a card at the end of the wallet. `key`, made once when the person asked for the
    /// card, makes a repeated create (an answer lost on the way) make one card, not two.
    func create(_ fields: CardFields, image: ImageUpload?, key: IdempotencyKey) async throws -> Card
    /// Replaces the fields of `base` — the card as last read: its id, its revision, and its
    /// ``CardModels/Card/source`` when the server keeps more than the fields (else the backend
    /// reads it again) — only if the card is still at that revision.
    /// - Throws: a failure that ``BackendFailure/isConflict`` when it changed meanwhile.
    func update(_ base: Card, to fields: CardFields) async throws -> Card
    /// Deletes a card, only if it is still at `revision` when one is given.
    func delete(id: String, revision: CardRevision?) async throws
    /// Replaces the picture of `base` (the card as last read; `nil` removes it), only if the card
    /// is still at its revision.
    func setImage(of base: Card, to image: ImageUpload?) async throws -> Card
    /// Saves the wallet's order: every card once. Only when ``BackendCapabilities/keepsOrder``.
    /// - Returns: the order as stored.
    func reorder(_ ids: [String]) async throws -> [String]
}

/// A kind of server: what an account record stores (``id``) and what people read (``name``).
///
/// An open set: each backend module's provider declares its own, and nothing above the
/// composition root lists them.
public struct BackendKind: Sendable, Hashable, CustomStringConvertible {
    /// What account records store and `--kind` takes (`cardAPI`, `cardDAV`).
    public let id: String
    /// What people read (`card API`, `CardDAV`).
    public let name: String

    /// A kind.
    public init(id: String, name: String) {
        self.id = id
        self.name = name
    }

    /// CardWallet's own card server (docs/API.md).
    public static let cardAPI = BackendKind(id: "cardAPI", name: "card API")
    /// A CardDAV address book (RFC 6352).
    public static let cardDAV = BackendKind(id: "cardDAV", name: "CardDAV")

    public var description: String { name }

    public static func == (a: BackendKind, b: BackendKind) -> Bool { a.id == b.id }
    public func hash(into hasher: inout Hasher) { hasher.combine(id) }
}

/// What a backend can do; the wallet above it adapts, never asking for the kind.
public struct BackendCapabilities: Sendable, Hashable {
    /// The server keeps the wallet's order (`reorder`); else the order is kept here.
    public var keepsOrder: Bool
    /// The server searches (name, company, title, email); else the cache answers.
    public var searchesOnServer: Bool
    /// Listings come a page at a time (`ListingRequest.page`); else whole.
    public var pagesListings: Bool
    /// Listings carry whole cards (no card to read one by one afterwards).
    public var listsWholeCards: Bool
    /// Listings can be asked for only what changed since a token.
    public var syncsByToken: Bool
    /// Pictures are stored apart from the cards (read one by one), not inside them.
    public var storesImagesApart: Bool

    /// Capabilities.
    public init(
        keepsOrder: Bool, searchesOnServer: Bool, pagesListings: Bool, listsWholeCards: Bool, syncsByToken: Bool,
        storesImagesApart: Bool
    ) {
        self.keepsOrder = keepsOrder
        self.searchesOnServer = searchesOnServer
        self.pagesListings = pagesListings
        self.listsWholeCards = listsWholeCards
        self.syncsByToken = syncsByToken
        self.storesImagesApart = storesImagesApart
    }
}

extension CardBackend {
    /// Hands nothing over: the listing's answer carries all it has.
    public func listing(_ request: ListingRequest, receiving receive: (ListingBatch) async throws -> Void)
        async throws -> CardListing
    {
        try await listing(request)
    }
}

extension CardBackend {
    /// Logs in with a user name and password (``logIn(_:)`` with ``LoginCredential/password(user:password:)``).
    ///
    /// - Returns: who is logged in.
    @discardableResult
    public func logIn(account: String, password: String) async throws -> SessionAccount {
        try await logIn(.password(user: account, password: password)).account
    }
}
