public import Foundation

/// Discovery (RFC 6764, RFC 5397, RFC 6352 §7) as a pure state machine: it says what to ask
/// next, is told what came back, and ends with the account's address books or an error.
/// ``CardDAVClient/discover()`` drives it; docs/CardDAV.md draws it.
///
/// 1. Inspect the given URL (`PROPFIND Depth: 0`). An address book is kept as the selected one;
///    a principal gives its `addressbook-home-set`; anything else may name the
///    `current-user-principal`, which is inspected next.
/// 2. Nothing there (404, 405, no DAV properties): try `/.well-known/carddav` once.
/// 3. Redirects are followed within the ``CredentialScope`` only (the server's origin, or
///    another `https` host of its registrable domain; at most 5, never in a loop); a redirect,
///    principal or home anywhere else ends discovery with
///    ``CardDAVError/foreignLocation(server:location:)``.
/// 4. List each home (`PROPFIND Depth: 1`): its address books are the account's books.
/// 5. Google's shape: `/.well-known/carddav` redirects straight to the one address book
///    (`/carddav/v1/principals/<email>/lists/default/`), which names no resource type, and the
///    principal and home-set it names answer 404. When discovery finds nothing else, the target
///    of a redirect from the well-known URL is taken as the one book, as vdirsyncer does.
public struct DiscoveryMachine: Sendable {
    /// The request to send next, or the end.
    public enum Action: Sendable, Hashable {
        /// `PROPFIND Depth: 0` of this URL for ``CardDAVClient/discoveryProperties``.
        case inspect(URL)
        /// `PROPFIND Depth: 1` of an address book home, for its address books.
        case listBooks(home: URL)
        /// Done.
        case finish(CardDAVAccount)
        /// Failed.
        case fail(CardDAVError)
    }

    /// What the inspected URL turned out to be.
    public struct Inspected: Sendable, Hashable {
        /// The address book it is, when it is one.
        public var book: AddressBook?
        /// Its `current-user-principal`.
        public var principal: URL?
        /// Its `addressbook-home-set` (a principal has one).
        public var homes: [URL]

        /// A finding.
        public init(book: AddressBook? = nil, principal: URL? = nil, homes: [URL] = []) {
            self.book = book
            self.principal = principal
            self.homes = homes
        }
    }

    /// What the last request brought.
    public enum Event: Sendable, Hashable {
        /// The inspected URL's properties.
        case inspected(Inspected)
        /// A redirect to this URL (resolved against the request's).
        case redirected(to: URL)
        /// Nothing DAV at the URL (this status: 404, 405, 403, an HTML page's 200…).
        case missing(status: Int)
        /// The address books in the home listed.
        case listed([AddressBook])
        /// The request failed.
        case failed(CardDAVError)
    }

    private enum Purpose: Sendable, Hashable {
        case given, wellKnown, principal
    }

    private let origin: ServerOrigin
    private let scope: CredentialScope
    private let start: URL
    private var purpose = Purpose.given
    private var visited: Set<String> = []
    private var redirects = 0
    private var steps = 0
    private var triedWellKnown = false
    private var principal: URL?
    private var homes: [URL] = []
    private var pending: [URL] = []
    private var books: [AddressBook] = []
    private var selected: AddressBook?
    private var finished = false
    /// The URL inspected last.
    private var current: URL?
    /// Where `/.well-known/carddav` redirected to: the one book of a server shaped like Google's.
    private var wellKnownTarget: URL?
    /// Whether that target answered with DAV properties (a multistatus), as a book does.
    private var wellKnownTargetAnswered = false
    /// The principal that target named, if any.
    private var wellKnownTargetPrincipal: URL?

    /// Discovery from `start` (a server root, a principal or an address book), within the scope
    /// of `start`'s own origin (with the system's Public Suffix List).
    public init(start: URL) {
        let origin = ServerOrigin(start) ?? ServerOrigin(URL(string: "http://invalid.invalid/")!)!
        self.init(start: start, scope: CredentialScope(server: origin))
    }

    /// Discovery from `start`, following redirects, principals and homes within `scope`.
    public init(start: URL, scope: CredentialScope) {
        self.start = start
        self.origin = ServerOrigin(start) ?? ServerOrigin(URL(string: "http://invalid.invalid/")!)!
        self.scope = scope
    }

    /// The first request.
    public mutating func begin() -> Action {
        guard ServerOrigin(start) != nil else { return end(.fail(.invalidServerURL(start.absoluteString))) }
        return inspect(start, for: .given)
    }

    /// The next request after `event`.
    public mutating func receive(_ event: Event) -> Action {
        guard !finished else { return .fail(.invalidRequest("Discovery is over.")) }
        steps += 1
        if steps > 24 { return end(.fail(.notCardDAV(server: origin.description))) }
        switch event {
        case .failed(let error):
            return end(.fail(error))
        case .redirected(let target):
            guard scope.admits(target) else {
                return end(.fail(.foreignLocation(server: scope.server.description, location: target.absoluteString)))
            }
            redirects += 1
            if let current, Self.isWellKnown(current), wellKnownTarget == nil { wellKnownTarget = target }
            guard redirects <= 5, !visited.contains(Self.place(of: target)) else { return nothingHere() }
            return inspect(target, for: purpose)
        case .missing:
            return nothingHere()
        case .inspected(let found):
            return inspected(found)
        case .listed(let found):
            for book in found where !books.contains(where: { $0.href == book.href }) { books.append(book) }
            return nextHome()
        }
    }

    private mutating func inspected(_ found: Inspected) -> Action {
        if let current, let target = wellKnownTarget, Self.place(of: current) == Self.place(of: target) {
            wellKnownTargetAnswered = true
            wellKnownTargetPrincipal = found.principal
        }
        for url in [found.principal].compactMap({ $0 }) + found.homes where !scope.admits(url) {
            return end(.fail(.foreignLocation(server: scope.server.description, location: url.absoluteString)))
        }
        if let book = found.book, purpose != .principal, selected == nil { selected = book }
        if !found.homes.isEmpty {
            principal = principal ?? found.principal
            homes = found.homes
            pending = found.homes
            return nextHome()
        }
        if let next = found.principal, !visited.contains(Self.place(of: next)) {
            principal = next
            return inspect(next, for: .principal)
        }
        return nothingHere()
    }

    /// The URL had nothing to go on: the well-known URL once, else what was found, else failure.
    private mutating func nothingHere() -> Action {
        if let selected { return end(.finish(account(books: [selected]))) }
        if let book = wellKnownBook() {
            selected = book
            return end(.finish(account(books: [book])))
        }
        if !triedWellKnown, purpose == .given, let wellKnown = origin.url(path: "/.well-known/carddav") {
            triedWellKnown = true
            return inspect(wellKnown, for: .wellKnown)
        }
        return end(.fail(.notCardDAV(server: origin.description)))
    }

    private mutating func nextHome() -> Action {
        guard !pending.isEmpty else {
            if books.isEmpty, selected == nil, let book = wellKnownBook() { selected = book }
            if let selected, !books.contains(where: { $0.href == selected.href }) { books.insert(selected, at: 0) }
            return end(.finish(account(books: books)))
        }
        return .listBooks(home: pending.removeFirst())
    }

    /// The book a redirect from the well-known URL led to, when there was one: a collection below
    /// the principal it names (Google's `…/principals/<email>/lists/default/`), never the root of a
    /// DAV tree that holds the principal (a server's `/remote.php/dav/` whose principal is gone).
    private func wellKnownBook() -> AddressBook? {
        guard let target = wellKnownTarget, wellKnownTargetAnswered, Href.path(of: target) != "/" else { return nil }
        if let principal = wellKnownTargetPrincipal {
            let (below, above) = (Href.path(of: target), Href.path(of: principal))
            guard below.hasPrefix(above.hasSuffix("/") ? above : above + "/"), below != above else { return nil }
        }
        return AddressBook(url: target, href: Href.path(of: target), supportsSyncCollection: true)
    }

    /// Whether `url` is a well-known CardDAV address (RFC 6764 §5).
    private static func isWellKnown(_ url: URL) -> Bool {
        Href.path(of: url).hasSuffix("/.well-known/carddav") || Href.path(of: url).hasSuffix("/.well-known/carddav/")
    }

    private mutating func inspect(_ url: URL, for purpose: Purpose) -> Action {
        current = url
        self.purpose = purpose
        visited.insert(Self.place(of: url))
        return .inspect(url)
    }

    /// A URL as discovery remembers it was there: its origin and canonical path.
    private static func place(of url: URL) -> String {
        (ServerOrigin(url)?.description ?? "") + Href.path(of: url)
    }

    private func account(books: [AddressBook]) -> CardDAVAccount {
        let chosen = selected.flatMap { selected in books.first { $0.href == selected.href } ?? selected }
        return CardDAVAccount(principal: principal, homes: homes, books: books, selected: chosen)
    }

    private mutating func end(_ action: Action) -> Action {
        finished = true
        return action
    }
}
