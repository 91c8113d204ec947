import Foundation
import Logging
import Networking

extension CardDAVClient {
    /// Finds the account's address books from the configured address (a server root, a
    /// principal or an address book), as ``DiscoveryMachine`` describes.
    ///
    /// - Returns: the principal, homes and books (possibly none), and the book the address
    ///   named, if it named one.
    /// - Throws: ``CardDAVError``: ``CardDAVError/notCardDAV(server:)`` when nothing was found,
    ///   ``CardDAVError/requiresLogin`` for a refused password.
    public func discover() async throws(CardDAVError) -> CardDAVAccount {
        var machine = DiscoveryMachine(start: configuration.server, scope: scope)
        var action = machine.begin()
        while true {
            let event: DiscoveryMachine.Event
            switch action {
            case .finish(let account):
                logger.debug(
                    "CardDAV discovery done",
                    metadata: ["books": "\(account.books.count)", "principal": "\(account.principal?.path ?? "-")"])
                return account
            case .fail(let error):
                throw error
            case .inspect(let url):
                event = try await inspect(url)
            case .listBooks(let home):
                event = try await listBooks(in: home)
            }
            action = machine.receive(event)
        }
    }

    /// The account's address books (``discover()``'s books).
    ///
    /// - Throws: ``CardDAVError``.
    public func books() async throws(CardDAVError) -> [AddressBook] {
        try await discover().books
    }

    /// Whether the configured address is a CardDAV server: its `OPTIONS` answer (or that of
    /// `/.well-known/carddav` and where it redirects, within the ``CredentialScope``) has a `DAV` header
    /// naming `addressbook` (RFC 6352 §6.1). For telling a CardDAV server from the card API.
    ///
    /// - Throws: ``CardDAVError`` when the server cannot be reached or refuses the password.
    public func isCardDAVServer() async throws(CardDAVError) -> Bool {
        var url = configuration.server
        var triedWellKnown = false
        for _ in 0..<6 {
            let response = try await exchange(.options, to: url)
            if response.statusCode == 401 { throw DAVErrors.status(response) }
            if (200..<300).contains(response.statusCode), Self.offersAddressBooks(response.headers.values(for: "DAV")) {
                return true
            }
            if (300..<400).contains(response.statusCode), let location = response.headers["Location"],
                let target = Href.resolve(location, against: response.request.url), scope.admits(target)
            {
                url = target
                continue
            }
            guard !triedWellKnown, let wellKnown = origin.url(path: "/.well-known/carddav") else { return false }
            triedWellKnown = true
            url = wellKnown
        }
        return false
    }

    /// Whether `DAV` header values name the `addressbook` compliance class.
    static func offersAddressBooks(_ values: [String]) -> Bool {
        values.contains { value in
            value.split(separator: ",").contains {
                $0.trimmingCharacters(in: .whitespaces).lowercased() == "addressbook"
            }
        }
    }

    /// What discovery asks of every URL it inspects. Not a book's `sync-token` or `getctag`:
    /// a server works them out from every card of the book (Radicale takes seconds on a large
    /// one), and `supported-report-set` says already whether the book syncs by token (RFC 6578
    /// §3.1: a server offering `sync-collection` lists it there). The sync asks for the one book
    /// it syncs.
    public static let discoveryProperties: [XMLName] = [
        .dav("resourcetype"), .dav("current-user-principal"), .cardDAV("addressbook-home-set"), .dav("displayname"),
        .cardDAV("addressbook-description"), .dav("supported-report-set"),
    ]

    private func inspect(_ url: URL) async throws(CardDAVError) -> DiscoveryMachine.Event {
        let response = try await exchange(.propfind(depth: 0, properties: Self.discoveryProperties), to: url)
        switch response.statusCode {
        case 207:
            var found = DiscoveryMachine.Inspected()
            var seen = false
            do {
                _ = try MultistatusReader.read(response.body, limits: configuration.xmlLimits) { entry in
                    // Depth 0: the first response is the resource itself (whatever href it gives).
                    guard !seen else { return }
                    seen = true
                    let base = response.request.url
                    found.principal = entry.hrefs(in: .dav("current-user-principal")).first.flatMap {
                        Href.resolve($0, against: base)
                    }
                    found.homes = entry.hrefs(in: .cardDAV("addressbook-home-set")).compactMap {
                        Href.resolve($0, against: base)
                    }
                    if entry.resourceTypes.contains(.cardDAV("addressbook")), let place = ServerOrigin(url) {
                        found.book = book(from: entry, at: Href.path(of: url), on: place)
                    }
                }
            } catch {
                throw DAVErrors.reading(error, in: response)
            }
            return .inspected(found)
        case 300..<400:
            guard let location = response.headers["Location"],
                let target = Href.resolve(location, against: response.request.url)
            else { return .missing(status: response.statusCode) }
            return .redirected(to: target)
        case 401:
            throw DAVErrors.status(response)
        case 200..<300, 400..<500, 501:
            return .missing(status: response.statusCode)
        default:
            throw DAVErrors.status(response)
        }
    }

    private func listBooks(in home: URL) async throws(CardDAVError) -> DiscoveryMachine.Event {
        let response = try await exchange(.propfind(depth: 1, properties: Self.discoveryProperties), to: home)
        switch response.statusCode {
        case 207:
            var books: [AddressBook] = []
            do {
                _ = try MultistatusReader.read(response.body, limits: configuration.xmlLimits) { entry in
                    let path = try path(ofHref: entry.hrefs[0], in: response)
                    guard entry.resourceTypes.contains(.cardDAV("addressbook")), let place = ServerOrigin(home) else {
                        return
                    }
                    books.append(book(from: entry, at: path, on: place))
                }
            } catch {
                throw DAVErrors.reading(error, in: response)
            }
            return .listed(books)
        case 401:
            throw DAVErrors.status(response)
        case 400..<500:
            return .listed([])
        default:
            throw DAVErrors.status(response)
        }
    }

    /// The address book a response describes, at `path` on `place` (the origin that answered:
    /// the server's, or another host of its domain that discovery was led to).
    private func book(from entry: DAVResponse, at path: String, on place: ServerOrigin) -> AddressBook {
        let folder = path.hasSuffix("/") ? path : path + "/"
        let syncToken = entry.text(.dav("sync-token")).flatMap { $0.isEmpty ? nil : $0 }
        let reports = entry.property(.dav("supported-report-set"))
        return AddressBook(
            url: place.url(path: folder) ?? configuration.server, href: folder,
            displayName: entry.text(.dav("displayname")).flatMap { $0.isEmpty ? nil : $0 },
            summary: entry.text(.cardDAV("addressbook-description")).flatMap { $0.isEmpty ? nil : $0 },
            syncToken: syncToken, ctag: entry.text(.calendarServer("getctag")).flatMap { $0.isEmpty ? nil : $0 },
            supportsSyncCollection: syncToken != nil
                || reports.map { Self.contains(.dav("sync-collection"), in: $0) }
                    ?? false
        )
    }

    private static func contains(_ name: XMLName, in element: XMLTree) -> Bool {
        element.name == name || element.children.contains { contains(name, in: $0) }
    }
}
