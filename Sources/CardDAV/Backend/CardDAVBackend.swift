public import CardBackend
public import CardModels
import CardVCard
public import Foundation
public import Logging
public import Networking
import Synchronization
public import TokenStore

/// A CardDAV address book as a ``CardBackend/CardBackend``: the wallet on the address book people
/// already have (Radicale, Nextcloud, Fastmail, iCloud…; docs/CardDAV.md).
///
/// - The credential is a user name and an (app) password kept in the token file beside the card
///   API's tokens (``TokenStore/PasswordItem``), with the address book the login chose; it is
///   sent as HTTP Basic, only to the server's own origin, only over https or to this computer.
/// - A card is a vCard resource: its id is the resource's name, its revision the `ETag`, its
///   ``CardModels/Card/source`` the vCard as the server stores it, so that an edit rewrites only
///   the properties that changed (``CardVCard/VCardResource``). Group vCards are not cards.
/// - Listings sync by token (RFC 6578) into the cache, with a full listing of `ETag`s and a
///   multiget of only what differs when the server refuses the token or has none.
/// - No order of its own (the wallet keeps it here) and no search (the cache answers).
public final class CardDAVBackend: CardBackend, Sendable {
    /// How the backend is set up.
    public struct Setup: Sendable {
        /// The address the person gave (a server root, a principal or an address book).
        public var server: URL
        /// The address book to use, by id (its path's last part); `nil` for the one the login
        /// chose (or the only one, or the first).
        public var book: String?
        /// Whether plain `http://` to another computer is allowed.
        public var allowsInsecureHTTP: Bool
        /// How long a request may take.
        public var requestTimeout: Duration?
        /// The largest picture a card may carry, in bytes.
        public var maximumImageBytes: Int
        /// The most cards one `addressbook-multiget` asks for.
        public var multigetBatchSize: Int

        /// A setup.
        public init(
            server: URL, book: String? = nil, allowsInsecureHTTP: Bool = false, requestTimeout: Duration? = nil,
            maximumImageBytes: Int = CardLimits.imageMaxBytes, multigetBatchSize: Int = 100
        ) {
            self.server = server
            self.book = book
            self.allowsInsecureHTTP = allowsInsecureHTTP
            self.requestTimeout = requestTimeout
            self.maximumImageBytes = maximumImageBytes
            self.multigetBatchSize = multigetBatchSize
        }
    }

    /// The setup.
    public let setup: Setup
    /// The address as the token file keys the credential.
    public let loginServer: String
    let tokenStore: TokenStore
    let transport: any Transport
    let plugins: [any Plugin]
    let logger: Logger
    let state: Mutex<State>

    struct State {
        var sink: (any SessionStateSink)?
        var book: AddressBook?
        /// Card id → resource path, for the ids that are not the resource's own name.
        var hrefs: [String: String] = [:]
        var loginNote: String?
        /// The hosts besides the address's own that the last login sent the password to.
        var passwordHosts: [String] = []
    }

    /// The backend of `setup`'s server, with the credential stored in `tokenStore`.
    public init(
        setup: Setup, tokenStore: TokenStore, transport: any Transport, plugins: [any Plugin] = [],
        logger: Logger = Logger(label: "cardwallet.carddav", factory: { _ in SwiftLogNoOpLogHandler() })
    ) {
        self.setup = setup
        self.loginServer = ServerAddress.key(setup.server.absoluteString)
        self.tokenStore = tokenStore
        self.transport = transport
        self.plugins = plugins
        self.logger = logger
        self.state = Mutex(State())
    }

    public var kind: BackendKind { .cardDAV }
    public var maximumImageBytes: Int { setup.maximumImageBytes }

    public var capabilities: BackendCapabilities {
        BackendCapabilities(
            keepsOrder: false, searchesOnServer: false, pagesListings: false, listsWholeCards: true,
            syncsByToken: true, storesImagesApart: false)
    }

    /// The wallet's identity (the cache's key): the address and the address book, so that each
    /// book has a cache of its own.
    public var server: String {
        server(forBook: setup.book ?? storedItem().flatMap { Self.bookID(ofPath: $0.place) } ?? "")
    }

    /// The wallet's identity when the book `id` is in use.
    public func server(forBook id: String) -> String {
        loginServer + "#book=" + id
    }

    /// The id of the book at `path` (its last part), or `nil`.
    public static func bookID(ofPath path: String?) -> String? {
        guard let path else { return nil }
        let last = path.split(separator: "/").last.map(String.init)
        return last.map { $0.removingPercentEncoding ?? $0 }
    }

    /// The origin of the address book in use: where its requests go (the server's, or another
    /// `https` host of its registrable domain that discovery was led to, as iCloud's partition
    /// hosts), and the only place a card's picture given by URI is loaded from.
    var origin: ServerOrigin? { ServerOrigin(workingServer()) }

    /// The address book in use, once known.
    public var book: AddressBook? { state.withLock { $0.book } }

    /// What the last login chose and why (the books it did not choose), for the person; with
    /// ``passwordHostNote`` after it when there is one, so that a login that prints this note
    /// says both.
    public var loginNote: String? {
        let (book, hosts) = state.withLock { ($0.loginNote, $0.passwordHosts) }
        let notes = [book, Self.passwordHostNote(hosts, server: setup.server)].compactMap { $0 }
        return notes.isEmpty ? nil : notes.joined(separator: "; ")
    }

    /// The hosts other than the address's own that the last login sent the password to, in the
    /// order first sent: another `https` host of the address's registrable domain that the
    /// server led discovery to (`fastmail.com` → `carddav.fastmail.com`; iCloud's
    /// `p42-contacts.icloud.com`). Empty when the password went to the address's host only.
    public var passwordHosts: [String] { state.withLock { $0.passwordHosts } }

    /// The sentence that tells the person which host the password went to, when the last login
    /// sent it beyond the address's own host (``passwordHosts``); `nil` otherwise. Say it once,
    /// in the login's output (``loginNote`` carries it too).
    public var passwordHostNote: String? { Self.passwordHostNote(passwordHosts, server: setup.server) }

    static func passwordHostNote(_ hosts: [String], server: URL) -> String? {
        guard !hosts.isEmpty else { return nil }
        let given = ServerOrigin(server)?.host ?? server.absoluteString
        let domain = ServerOrigin(server).flatMap { CredentialScope(server: $0).serverDomain }
        let named = hosts.map(TerminalText.escaped).joined(separator: ", ")
        return "the password also went to \(named) (over https, within \(TerminalText.escaped(domain ?? given))), "
            + "where \(TerminalText.escaped(given)) keeps the address books"
    }

    // MARK: The credential

    /// The password stored for this server: the one account's, or `nil`.
    func storedItem() -> PasswordItem? {
        guard let items = try? tokenStore.passwords(server: loginServer), items.count == 1 else { return nil }
        return items.first
    }

    /// Where the requests of the address book in use go: the address given, or — when the book
    /// is on another host the address led to (its URL kept as the token file's `place`) — that
    /// host's root, with the address given still deciding where the password may go.
    func workingServer() -> URL {
        if let url = state.withLock({ $0.book?.url }) {
            return ServerOrigin(url) == ServerOrigin(setup.server) ? setup.server : Self.root(of: url)
        }
        if let place = storedItem()?.place, setup.book == nil || setup.book == Self.bookID(ofPath: place),
            let url = Self.absoluteURL(place), ServerOrigin(url) != ServerOrigin(setup.server)
        {
            return Self.root(of: url)
        }
        return setup.server
    }

    /// `https://host:port/` of `url`.
    static func root(of url: URL) -> URL {
        ServerOrigin(url)?.url(path: "/") ?? url
    }

    /// `text` as a URL when it is an absolute one (a book kept on another host), else `nil` (a path).
    static func absoluteURL(_ text: String) -> URL? {
        guard !text.hasPrefix("/"), let url = URL(string: text), url.scheme != nil, url.host != nil else { return nil }
        return url
    }

    /// What the token file keeps of `book` as the `place`: its path on the address's origin,
    /// else its whole URL (a book on another host of the same domain).
    func place(of book: AddressBook) -> String {
        ServerOrigin(book.url) == ServerOrigin(setup.server) ? book.href : book.url.absoluteString
    }

    /// A client with the stored credential (or `user` and `password` when given), for the
    /// address book in use (``workingServer()``), or for the address given (`discovery`).
    func client(user: String? = nil, password: String? = nil, discovery: Bool = false)
        throws(CardDAVBackendFailure) -> CardDAVClient
    {
        let credentials: CardDAVCredentials
        if let user, let password {
            credentials = CardDAVCredentials(user: user, password: password)
        } else {
            guard let item = storedItem() else { throw .notLoggedIn(loginServer) }
            let (store, server, account) = (tokenStore, loginServer, item.account)
            credentials = CardDAVCredentials(user: item.account) {
                // Read at every request: a password changed by a login elsewhere is the one sent.
                guard let current = try store.password(server: server, account: account) else {
                    throw CardDAVBackendFailure.notLoggedIn(server)
                }
                return current.password
            }
        }
        let server = discovery || user != nil ? setup.server : workingServer()
        let configuration = CardDAVConfiguration(
            server: server, requestTimeout: setup.requestTimeout, allowsInsecureHTTP: setup.allowsInsecureHTTP,
            multigetBatchSize: setup.multigetBatchSize, givenAddress: server == setup.server ? nil : setup.server)
        return CardDAVClient(
            configuration: configuration, credentials: credentials, transport: transport, plugins: plugins,
            logger: logger)
    }

    /// Runs `body` with a client of the stored credential; a refused password is CardDAV's
    /// "session ended": it is removed here, and the failure says so.
    func withClient<T: Sendable>(discovery: Bool = false, _ body: (CardDAVClient) async throws -> T) async throws -> T {
        let client = try client(discovery: discovery)
        do {
            return try await body(client)
        } catch let error as CardDAVError where error.requiresLogin {
            let account = client.user
            _ = try? await tokenStore.deletePassword(server: loginServer, account: account)
            publish(
                .expired(
                    server: loginServer, account: SessionAccount(server: loginServer, email: account, place: bookInUse))
            )
            throw CardDAVBackendFailure.passwordRefused(server, account)
        }
    }

    /// Runs `body` with the address book in use and a client for it (``withClient(discovery:_:)``):
    /// a book found on another host of the address's domain gets a client of that host.
    func withBook<T: Sendable>(_ body: (CardDAVClient, AddressBook) async throws -> T) async throws -> T {
        try await withClient { client in
            let book = try await currentBook(client)
            guard ServerOrigin(book.url) != client.origin else { return try await body(client, book) }
            return try await body(try self.client(), book)
        }
    }

    // MARK: Session

    public func logIn(account: String, password: String) async throws -> SessionAccount {
        let client = try client(user: account, password: password)
        let found: CardDAVAccount
        do {
            found = try await client.discover()
        } catch {
            // Checked inside the catch-all: a typed catch clause with a `where` here crashed the
            // Swift 6.3.1 compiler (SILGen ownership verification).
            guard error.requiresLogin else { throw error }
            throw CardDAVBackendFailure(
                .loginFailed,
                "Wrong user name or password for \(TerminalText.escaped(loginServer)) (401). Many servers want an "
                    + "app password here, not the account's own password (docs/CardDAV.md).")
        }
        let book = try choose(from: found)
        try await tokenStore.save(
            PasswordItem(server: loginServer, account: account, password: password, place: place(of: book)))
        state.withLock {
            $0.book = book
            $0.passwordHosts = client.passwordHosts
        }
        let session = SessionAccount(server: loginServer, email: account, place: bookInUse)
        publish(.loggedIn(session))
        return session
    }

    /// The book to use: the one the address named, else the one asked for, else the only one,
    /// else the first (and a note naming the others).
    private func choose(from found: CardDAVAccount) throws(CardDAVBackendFailure) -> AddressBook {
        if let selected = found.selected {
            state.withLock { $0.loginNote = nil }
            return selected
        }
        if let wanted = setup.book {
            guard let book = found.books.first(where: { Self.bookID(ofPath: $0.href) == wanted }) else {
                throw Self.noSuchBook(wanted, in: found.books)
            }
            state.withLock { $0.loginNote = nil }
            return book
        }
        guard let first = found.books.first else {
            throw CardDAVBackendFailure(
                .wrongAddress,
                "\(TerminalText.escaped(loginServer)) answers as a CardDAV server, but the account has no address "
                    + "book there. Make one (in the server's web interface) and log in again.")
        }
        let others = found.books.dropFirst().compactMap { Self.bookID(ofPath: $0.href) }
        state.withLock {
            $0.loginNote =
                others.isEmpty
                ? nil
                : "using the address book \(TerminalText.escaped(Self.bookID(ofPath: first.href) ?? first.href)); "
                    + "the others: \(others.map(TerminalText.escaped).joined(separator: ", ")) (choose one with --book ID, "
                    + "or CARDWALLET_BOOK; `cardwallet books` lists them)"
        }
        return first
    }

    static func noSuchBook(_ wanted: String, in books: [AddressBook]) -> CardDAVBackendFailure {
        let names = books.compactMap { bookID(ofPath: $0.href) }.map(TerminalText.escaped)
        return CardDAVBackendFailure(
            .notFound,
            "There is no address book “\(TerminalText.escaped(wanted))” for this account. Its books: "
                + (names.isEmpty ? "none" : names.joined(separator: ", ")) + " (see `cardwallet books`).")
    }

    public func logOut(everyAccount: Bool) async throws -> [LogoutReport] {
        let items = (try? tokenStore.passwords(server: loginServer)) ?? []
        guard !items.isEmpty else { return [LogoutReport(account: nil, serverTold: false, serverProblem: nil)] }
        var reports: [LogoutReport] = []
        for item in items where everyAccount || items.count == 1 {
            try await tokenStore.deletePassword(server: loginServer, account: item.account)
            // Basic credentials have no session on the server to end: forgetting them is all.
            reports.append(LogoutReport(account: item.account, serverTold: true, serverProblem: nil))
        }
        publish(.loggedOut(server: loginServer))
        return reports
    }

    public func status() async -> SessionStatusReport {
        let storage = tokenStore.storageSummary()
        guard let item = storedItem() else {
            return SessionStatusReport(
                server: loginServer, state: .loggedOut(server: loginServer), storage: storage, kind: .cardDAV,
                addressBook: setup.book)
        }
        let account = SessionAccount(server: loginServer, email: item.account, place: bookInUse)
        return SessionStatusReport(
            server: loginServer, state: .loggedIn(account), account: account, storage: storage, kind: .cardDAV,
            addressBook: setup.book ?? Self.bookID(ofPath: item.place))
    }

    public var sessionState: SessionState {
        guard let item = storedItem() else { return .loggedOut(server: loginServer) }
        return .loggedIn(SessionAccount(server: loginServer, email: item.account, place: bookInUse))
    }

    public func reportSession(to sink: (any SessionStateSink)?) { state.withLock { $0.sink = sink } }

    private func publish(_ session: SessionState) {
        state.withLock { $0.sink }?.sessionChanged(session)
    }

    public func finishSessionWork() async {}
    public var sessionWorkTimeout: Duration { .seconds(1) }

    public func serverProblem() async -> (any BackendFailure)? {
        let probe: CardDAVClient
        do {
            probe = try client(user: "-", password: "-")
        } catch {
            return error
        }
        do {
            return try await probe.isCardDAVServer() ? nil : CardDAVError.notCardDAV(server: loginServer)
        } catch  where error.isNetworkFailure || error.isInsecureServer {
            return error
        } catch {
            return nil
        }
    }

    /// The address books of the account (found from the address given, as at the login).
    public func books() async throws -> [AddressBook] {
        try await withClient(discovery: true) { client in try await client.books() }
    }

    /// The same account on the address book `book`, remembered as the one to use (the token
    /// file's `place`), so that the next start opens it too.
    ///
    /// - Throws: ``CardDAVBackendFailure`` when nobody is logged in; the token store's error.
    public func switching(to book: AddressBook) async throws -> CardDAVBackend {
        guard let item = storedItem() else {
            throw CardDAVBackendFailure(.notLoggedIn, "Not logged in at \(TerminalText.escaped(loginServer)).")
        }
        try await tokenStore.save(
            PasswordItem(server: loginServer, account: item.account, password: item.password, place: place(of: book)))
        var setup = self.setup
        setup.book = Self.bookID(ofPath: book.href)
        let switched = CardDAVBackend(
            setup: setup, tokenStore: tokenStore, transport: transport, plugins: plugins, logger: logger)
        switched.state.withLock { $0.book = book }
        return switched
    }

    /// The id of the address book in use: the one asked for, else the one the login chose.
    public var bookInUse: String? {
        setup.book ?? storedItem().flatMap { Self.bookID(ofPath: $0.place) }
    }

    /// The address book in use: the one the login chose (or `setup.book`), found again on the
    /// server only when it is not the one remembered.
    func currentBook(_ client: CardDAVClient) async throws -> AddressBook {
        if let book = state.withLock({ $0.book }) { return book }
        let stored = storedItem()?.place
        if let stored, setup.book == nil || setup.book == Self.bookID(ofPath: stored),
            let url = Self.absoluteURL(stored) ?? URL(string: stored, relativeTo: setup.server)?.absoluteURL
        {
            // A book on another host (its whole URL kept) is reached only within the scope of the
            // address given: the client refuses any other place before sending anything.
            let href = Self.absoluteURL(stored).map { Href.path(of: $0) } ?? stored
            let book = AddressBook(url: url, href: href, supportsSyncCollection: true)
            state.withLock { $0.book = book }
            return book
        }
        let found = try await (client.origin == ServerOrigin(setup.server) ? client : self.client(discovery: true))
            .discover()
        let book = try choose(from: found)
        state.withLock { $0.book = book }
        return book
    }
}
