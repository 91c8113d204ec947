public import CardBackend
public import CardModels
import CardVCard
public import Foundation
public import Logging
public import Networking
public import OAuth
public import SessionCore
import Synchronization
public import TokenStore

/// A CardDAV address book as a ``CardBackend/CardBackend``: the wallet on the address book people
/// already have (Radicale, Nextcloud, Fastmail, iCloud…; docs/CardDAV.md).
///
/// - The credential is a user name and an (app) password. The account's record (``TokenStore/AccountRecord``)
///   names the user and the address book; the password comes from where the record says it lives
///   (the keyring, a command, the token file), asked through the provider's context at each
///   request. It is sent as HTTP Basic, only to the server's own origin, only over https or to
///   this computer. A login hands the password back (``CardBackend/LoginOutcome/keepsPassword``)
///   for the account's secret store; the backend keeps it only in memory, for its own session.
/// - A card is a vCard resource: its id is the resource's name, its revision the `ETag`, its
///   ``CardModels/Card/source`` the vCard as the server stores it, so that an edit rewrites only
///   the properties that changed (``CardVCard/VCardResource``). Group vCards are not cards.
/// - Listings sync by token (RFC 6578) into the cache, with a full listing of `ETag`s and a
///   multiget of only what differs when the server refuses the token or has none.
/// - No order of its own (the wallet keeps it here) and no search (the cache answers).
public final class CardDAVBackend: CardBackend, AddressBooks, Sendable {
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
    /// The account stored for this backend (user, book, where its password lives); `nil` before
    /// the first login.
    public let account: AccountRecord?
    /// Gives the stored account's password, from where its record says it lives (an OAuth
    /// account's secret: its refresh token and client secret, ``OAuth/OAuthSecret``).
    let storedPassword: (@Sendable () async throws -> String)?
    /// The OAuth 2.0 session whose bearer token the requests carry, for an account that logs in
    /// with OAuth (Google); `nil` for a password.
    let tokenSession: TokenSession<OAuthTokenExchange>?
    let tokenStore: TokenStore
    let transport: any Transport
    let plugins: [any Plugin]
    let logger: Logger
    let state: Mutex<State>
    /// The gate of requests per host that every client of this backend shares: at most the
    /// transport's connections per host go out at once, and a bearer token's refresh after a
    /// 401 holds the requests in line (they take the new token when admitted), as the card
    /// API's client does.
    let admission: Admission

    struct State {
        var sink: (any SessionStateSink)?
        var book: AddressBook?
        /// Card id → resource path, for the ids that are not the resource's own name.
        var hrefs: [String: String] = [:]
        /// The credential of a login made through this backend, in memory only.
        var session: (user: String, password: String)?
        /// The access token of an OAuth login made through this backend, in memory only.
        var bearerLogin: (user: String, token: String)?
        /// The server refused the stored password: logged out until the next login.
        var refused = false
        /// The hosts besides the address's own that the last login sent the password to.
        var passwordHosts: [String] = []
    }

    /// The backend of `setup`'s server for `account` (`nil` before its first login), its password
    /// given by `password` at each request.
    ///
    /// - Parameters:
    ///   - setup: the server and how to talk to it.
    ///   - account: the account stored, or `nil` before the first login.
    ///   - password: gives the stored account's password (the keyring, a command, the token file).
    ///   - tokenStore: the token file (for `status`'s summary of where things are kept).
    ///   - transport: the HTTP transport.
    ///   - plugins: the plugins every request goes through.
    ///   - logger: where the backend reports (never a password).
    ///   - tokenSession: for an account that logs in with OAuth 2.0, the session whose bearer
    ///     token the requests carry (its refresh token is the account's secret, `password`).
    public init(
        setup: Setup, account: AccountRecord? = nil, password: (@Sendable () async throws -> String)? = nil,
        tokenStore: TokenStore, transport: any Transport, plugins: [any Plugin] = [],
        logger: Logger = Logger(label: "cardwallet.carddav", factory: { _ in SwiftLogNoOpLogHandler() }),
        tokenSession: TokenSession<OAuthTokenExchange>? = nil
    ) {
        self.tokenSession = tokenSession
        self.setup = setup
        self.loginServer = ServerAddress.key(setup.server.absoluteString)
        self.account = account
        self.storedPassword = password
        self.tokenStore = tokenStore
        self.transport = transport
        self.plugins = plugins
        self.logger = logger
        self.state = Mutex(State())
        self.admission = Admission(limit: transport.connectionsPerHost)
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
        server(forBook: bookID ?? "")
    }

    /// The id of the book in use: the one asked for, else the one of the login or the record.
    var bookID: String? {
        setup.book ?? state.withLock { $0.book }.flatMap { Self.bookID(ofPath: $0.href) }
            ?? Self.bookID(ofPath: account?.book)
    }

    /// The wallet's identity when the book `id` is in use.
    public func server(forBook id: String) -> String {
        ServerAddress.walletKey(server: loginServer, book: id)
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

    /// The hosts other than the address's own that the last login sent the password to, in the
    /// order first sent: another `https` host of the address's registrable domain that the
    /// server led discovery to (`fastmail.com` → `carddav.fastmail.com`; iCloud's
    /// `p42-contacts.icloud.com`). Empty when the password went to the address's host only.
    public var passwordHosts: [String] { state.withLock { $0.passwordHosts } }

    /// The sentence that tells the person which host the password went to, when the last login
    /// sent it beyond the address's own host (``passwordHosts``); `nil` otherwise. The login's
    /// outcome carries it in its note, said once.
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

    /// The user whose credential this backend sends: the one of a login made here, else the
    /// account stored; `nil` when there is neither (or the server refused the stored one).
    var user: String? {
        state.withLock { state in
            if let session = state.session { return session.user }
            if let login = state.bearerLogin { return login.user }
            if state.refused { return nil }
            if let tokenSession {
                switch tokenSession.state {
                case .loggedIn, .refreshing: return account?.user
                case .loggedOut, .expired: return nil
                }
            }
            return storedPassword == nil ? nil : account?.user
        }
    }

    /// Where the requests of the address book in use go: the address given, or — when the book
    /// is on another host the address led to (its URL kept as the token file's `place`) — that
    /// host's root, with the address given still deciding where the password may go.
    func workingServer() -> URL {
        if let url = state.withLock({ $0.book?.url }) {
            return ServerOrigin(url) == ServerOrigin(setup.server) ? setup.server : Self.root(of: url)
        }
        if let place = account?.book, setup.book == nil || setup.book == Self.bookID(ofPath: place),
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

    /// What the account's record keeps of `book`: its path on the address's origin, else its
    /// whole URL (a book on another host of the same domain).
    func place(of book: AddressBook) -> String {
        ServerOrigin(book.url) == ServerOrigin(setup.server) ? book.href : book.url.absoluteString
    }

    /// A client with the session's credential (or `user` and `password` when given), for the
    /// address book in use (``workingServer()``), or for the address given (`discovery`).
    func client(user: String? = nil, password: String? = nil, discovery: Bool = false)
        throws(CardDAVBackendFailure) -> CardDAVClient
    {
        let credentials: CardDAVCredentials
        if let user, let password {
            credentials = CardDAVCredentials(user: user, password: password)
        } else if let session = state.withLock({ $0.session }) {
            credentials = CardDAVCredentials(user: session.user, password: session.password)
        } else if let login = state.withLock({ $0.bearerLogin }) {
            credentials = CardDAVCredentials(user: login.user, bearer: .token(login.token))
        } else if let tokenSession {
            guard let user = account?.user, !state.withLock({ $0.refused }) else { throw .notLoggedIn(loginServer) }
            credentials = CardDAVCredentials(user: user, bearer: .session(tokenSession))
        } else {
            guard let user = self.user, let storedPassword else { throw .notLoggedIn(loginServer) }
            // Read at every request: a password changed by a login elsewhere is the one sent.
            credentials = CardDAVCredentials(user: user, password: storedPassword)
        }
        let server = discovery || user != nil ? setup.server : workingServer()
        let configuration = CardDAVConfiguration(
            server: server, requestTimeout: setup.requestTimeout, allowsInsecureHTTP: setup.allowsInsecureHTTP,
            multigetBatchSize: setup.multigetBatchSize, givenAddress: server == setup.server ? nil : setup.server)
        return CardDAVClient(
            configuration: configuration, credentials: credentials, transport: transport, plugins: plugins,
            logger: logger, admission: admission)
    }

    /// Runs `body` with a client of the session's credential; a refused password is CardDAV's
    /// "session ended": this backend is logged out, the failure says so (the account's secret
    /// store forgets the password: `WalletAccounts`).
    func withClient<T: Sendable>(discovery: Bool = false, _ body: (CardDAVClient) async throws -> T) async throws -> T {
        let client = try client(discovery: discovery)
        do {
            return try await body(client)
        } catch let error as CardDAVError where error.requiresLogin {
            let account = client.user
            if tokenSession != nil || state.withLock({ $0.bearerLogin }) != nil {
                throw oauthSessionEnded(account, because: error)
            }
            state.withLock {
                $0.session = nil
                $0.refused = true
            }
            publish(.expired(server: loginServer, account: sessionAccount(account)))
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

    /// `user`'s session account, with the book in use as its place (its display name).
    func sessionAccount(_ user: String) -> SessionAccount {
        SessionAccount(server: loginServer, email: user, place: bookInUse?.shownName)
    }

    // MARK: Session

    public func logIn(_ credential: LoginCredential) async throws -> LoginOutcome {
        if case .bearer(let grant) = credential { return try await logIn(grant) }
        guard case .password(let account, let password) = credential else {
            throw CardDAVBackendFailure(.other, "A CardDAV server takes a user name and a password.")
        }
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
        let (book, note) = try choose(from: found)
        state.withLock {
            $0.book = book
            $0.session = (account, password)
            $0.refused = false
            $0.passwordHosts = client.passwordHosts
        }
        let session = sessionAccount(account)
        let notes = [note, passwordHostNote].compactMap { $0 }
        publish(.loggedIn(session))
        return LoginOutcome(
            account: session, keepsPassword: true, book: info(book),
            note: notes.isEmpty ? nil : notes.joined(separator: "; "))
    }

    /// The book to use: the one the address named, else the one asked for, else the only one,
    /// else the first (and a note naming the others).
    func choose(from found: CardDAVAccount) throws(CardDAVBackendFailure) -> (AddressBook, String?) {
        if let selected = found.selected { return (selected, nil) }
        if let wanted = setup.book {
            guard let book = found.books.first(where: { Self.bookID(ofPath: $0.href) == wanted }) else {
                throw Self.noSuchBook(wanted, in: found.books)
            }
            return (book, nil)
        }
        guard let first = found.books.first else {
            throw CardDAVBackendFailure(
                .wrongAddress,
                "\(TerminalText.escaped(loginServer)) answers as a CardDAV server, but the account has no address "
                    + "book there. Make one (in the server's web interface) and log in again.")
        }
        let others = found.books.dropFirst().map { info($0).shownName }
        let note =
            others.isEmpty
            ? nil
            : "using the address book “\(TerminalText.escaped(info(first).shownName))”; the others: "
                + others.map { "“\(TerminalText.escaped($0))”" }.joined(separator: ", ")
                + " (choose one with --book ID, or CARDWALLET_BOOK; `cardwallet books` lists them)"
        return (first, note)
    }

    static func noSuchBook(_ wanted: String, in books: [AddressBook]) -> CardDAVBackendFailure {
        let names = books.compactMap { bookID(ofPath: $0.href) }.map(TerminalText.escaped)
        return CardDAVBackendFailure(
            .notFound,
            "There is no address book “\(TerminalText.escaped(wanted))” for this account. Its books: "
                + (names.isEmpty ? "none" : names.joined(separator: ", ")) + " (see `cardwallet books`).")
    }

    /// Basic credentials have no session on the server to end: forgetting them is all, and the
    /// account's secret store does that (`WalletAccounts`).
    public func logOut(everyAccount: Bool) async throws -> [LogoutReport] {
        if tokenSession != nil { return [try await logOutOfOAuth()] }
        guard let user else { return [LogoutReport(account: nil, serverTold: false, serverProblem: nil)] }
        state.withLock {
            $0.session = nil
            $0.refused = true
        }
        publish(.loggedOut(server: loginServer))
        return [LogoutReport(account: user, serverTold: true, serverProblem: nil)]
    }

    public func status() async -> SessionStatusReport {
        if tokenSession != nil { return await oauthStatus() }
        // The token file keeps the account; its password lives where the record says.
        let storage = tokenStore.storageSummary(holding: "the account")
        let shownBook = bookInUse?.shownName ?? setup.book
        guard let user else {
            return SessionStatusReport(
                server: loginServer, state: .loggedOut(server: loginServer), storage: storage, kind: .cardDAV,
                addressBook: shownBook)
        }
        let account = sessionAccount(user)
        return SessionStatusReport(
            server: loginServer, state: .loggedIn(account), account: account, storage: storage, kind: .cardDAV,
            addressBook: shownBook)
    }

    public var sessionState: SessionState {
        if let tokenSession, state.withLock({ $0.bearerLogin == nil && !$0.refused }) {
            return shown(tokenSession.state)
        }
        guard let user else { return .loggedOut(server: loginServer) }
        return .loggedIn(sessionAccount(user))
    }

    public func reportSession(to sink: (any SessionStateSink)?) {
        state.withLock { $0.sink = sink }
        tokenSession?.report(to: sink.map { ShownSessionSink(backend: self, sink: $0) })
    }

    func publish(_ session: SessionState) {
        state.withLock { $0.sink }?.sessionChanged(session)
    }

    public func finishSessionWork() async {
        await tokenSession?.finishRefreshInFlight()
    }
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

    /// The address books of the account, in the server's order (found from the address given,
    /// as at the login).
    public func addressBooks() async throws -> [AddressBook] {
        try await withClient(discovery: true) { client in try await client.books() }
    }

    /// The address books of the account, as the wallet names them.
    public func books() async throws -> [AddressBookInfo] {
        try await addressBooks().map { info($0) }
    }

    /// The same account on `book` (each book has a cache of its own). The account's record is
    /// pointed at it by the caller (`WalletAccounts`), so the next start opens it too.
    ///
    /// - Throws: ``CardDAVBackendFailure`` when nobody is logged in.
    public func switching(to book: AddressBookInfo) async throws -> any CardBackend {
        guard user != nil else {
            throw CardDAVBackendFailure(.notLoggedIn, "Not logged in at \(TerminalText.escaped(loginServer)).")
        }
        var setup = self.setup
        setup.book = book.id
        var account = self.account
        account?.book = book.path
        account?.bookName = book.displayName
        let switched = CardDAVBackend(
            setup: setup, account: account, password: storedPassword, tokenStore: tokenStore, transport: transport,
            plugins: plugins, logger: logger, tokenSession: tokenSession)
        let session = state.withLock { $0.session }
        let bearerLogin = state.withLock { $0.bearerLogin }
        switched.state.withLock {
            $0.bearerLogin = bearerLogin
            $0.book = AddressBook(
                url: URL(string: book.url) ?? setup.server, href: book.path, displayName: book.displayName,
                summary: book.summary, supportsSyncCollection: book.syncsByToken)
            $0.session = session
        }
        return switched
    }

    /// The address book in use, as the wallet names it: the one of the login, else the record's
    /// (its id, path and display name); `nil` before either is known.
    public var bookInUse: AddressBookInfo? {
        if let book = state.withLock({ $0.book }) {
            var shown = info(book)
            if shown.displayName == nil, account?.book == shown.path { shown.displayName = account?.bookName }
            return shown
        }
        guard let path = account?.book, let id = Self.bookID(ofPath: path),
            setup.book == nil || setup.book == id
        else { return setup.book.map { AddressBookInfo(id: $0, path: $0, url: "") } }
        let url = URL(string: path, relativeTo: setup.server)?.absoluteURL.absoluteString ?? path
        return AddressBookInfo(id: id, path: path, url: url, displayName: account?.bookName)
    }

    /// A book as the wallet names it; its path is what the account's record keeps (``place(of:)``).
    func info(_ book: AddressBook) -> AddressBookInfo {
        AddressBookInfo(
            id: Self.bookID(ofPath: book.href) ?? book.href, path: place(of: book), url: book.url.absoluteString,
            displayName: book.displayName, summary: book.summary, syncsByToken: book.supportsSyncCollection)
    }

    /// The address book in use: the one the login chose (or `setup.book`), found again on the
    /// server only when it is not the one remembered.
    func currentBook(_ client: CardDAVClient) async throws -> AddressBook {
        if let book = state.withLock({ $0.book }) { return book }
        let stored = account?.book
        if let stored, setup.book == nil || setup.book == Self.bookID(ofPath: stored),
            let url = Self.absoluteURL(stored) ?? URL(string: stored, relativeTo: setup.server)?.absoluteURL
        {
            // A book on another host (its whole URL kept) is reached only within the scope of the
            // address given: the client refuses any other place before sending anything.
            let href = Self.absoluteURL(stored).map { Href.path(of: $0) } ?? stored
            let book = AddressBook(
                url: url, href: href, displayName: account?.bookName, supportsSyncCollection: true)
            state.withLock { $0.book = book }
            return book
        }
        let found = try await (client.origin == ServerOrigin(setup.server) ? client : self.client(discovery: true))
            .discover()
        let (book, _) = try choose(from: found)
        state.withLock { $0.book = book }
        return book
    }
}
