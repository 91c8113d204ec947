import CardBackend
import CardCache
import CardDAV
import CardModels
import CardWalletLive
import Foundation
import Logging
import Networking
import TestSupport
import Testing
import TokenStore

/// The rule on other hosts against real servers over real TLS: `scripts/carddav-server.py
/// --front` serves Radicale or Xandikos over https under several host names, which the client
/// maps to 127.0.0.1 (AsyncHTTPClient's DNS override; each name's certificate is checked, signed
/// by an authority made for the run). Two names of one registrable domain (`example.com`) are
/// followed; a name of another (`example.net`) and an https → http redirect are not, and never
/// see the password (the front writes down every request that carries one).
@Suite(.serialized) struct RedirectRealServerTests {
    static let books = "p42-contacts.example.com"
    static let home = "contacts.example.com"
    static let redirect = "www.example.com"
    static let otherDomain = "dav.example.net"
    static let plain = "plain.example.com"
    static let hosts = [books, home, redirect, otherDomain, plain]
    static let front = [
        "books=\(books)", "home=\(home)", "redirect=\(redirect)", "redirect=\(otherDomain)", "plain=\(plain)",
    ]

    private static func withFront(
        _ kind: DAVServerProcess.Kind, _ body: (DAVServerProcess, LiveTransport) async throws -> Void
    ) async throws {
        try await DAVServerProcess.with(kind, front: front) { server in
            try await FrontTransport.with(server, hosts: hosts) { transport in try await body(server, transport) }
        }
    }

    @Test(
        "a home on another host of the domain (iCloud's partition hosts): the wallet works there, and says so once",
        arguments: DAVServerProcess.Kind.allCases)
    func partitionHost(kind: DAVServerProcess.Kind) async throws {
        try await Self.withFront(kind) { server, transport in
            let folder = try TemporaryFolder("dav-redirect")
            defer { folder.remove() }
            let store = TokenStore(path: folder.path("state/tokens.json"))
            let given = server.frontURL(Self.home)
            let backend = CardDAVBackend(
                setup: CardDAVBackend.Setup(server: given), tokenStore: store, transport: transport)
            let outcome = try await backend.logIn(.password(user: server.user, password: server.password))
            #expect(backend.passwordHosts == [Self.books])
            let note = try #require(backend.passwordHostNote)
            #expect(note.contains(Self.books) && note.contains("example.com"), "\(note)")
            #expect(outcome.note?.contains(note) == true)
            #expect(Set(server.authorizedHosts()) == [Self.home, Self.books])
            let place = try #require(outcome.book?.path)
            #expect(place == server.frontURL(Self.books, server.bookPath).absoluteString, "the book's whole URL")

            // The wallet on it: a card made, listed, edited; every request on the books' host.
            let before = server.authorizedHosts().count
            let wallet = await CachedWallet.open(
                backend: backend, location: CacheLocation(folder: folder.path("cache")),
                logger: Logger(label: "test.redirect"))
            let made = try await wallet.create(CardFields(name: "Ada Lovelace", email: "ada@example.com")).value
            #expect(try await wallet.list(.online).value.map(\.name) == ["Ada Lovelace"])
            var fields = made.fields
            fields.title = "Countess"
            _ = try await wallet.update(id: made.id, fields: fields, revision: made.revision)
            #expect(server.authorizedHosts().dropFirst(before).allSatisfy { $0 == Self.books })

            // The next start (a new backend on the stored account) goes straight to the books' host.
            let record = AccountRecord(
                name: "a", kind: "cardDAV", server: given.absoluteString, user: server.user, book: place,
                secret: .keyring)
            let password = server.password
            let next = CardDAVBackend(
                setup: CardDAVBackend.Setup(server: given), account: record, password: { password }, tokenStore: store,
                transport: transport)
            let mark = server.authorizedHosts().count
            let card = try await next.card(id: made.id)
            #expect(card.fields.title == "Countess")
            #expect(server.authorizedHosts().dropFirst(mark).allSatisfy { $0 == Self.books })
            #expect(next.passwordHosts.isEmpty, "told at the login, not at every start")
        }
    }

    @Test("a well-known redirect to another host of the domain (fastmail.com → carddav.fastmail.com) is followed")
    func wellKnownRedirect() async throws {
        try await Self.withFront(.radicale) { server, transport in
            let client = CardDAVClient(
                configuration: CardDAVConfiguration(server: server.frontURL(Self.redirect)),
                credentials: CardDAVCredentials(user: server.user, password: server.password), transport: transport)
            #expect(try await client.isCardDAVServer())
            let account = try await client.discover()
            #expect(account.books.map(\.url) == [server.frontURL(Self.books, server.bookPath)])
            #expect(client.passwordHosts == [Self.books])
        }
    }

    @Test("a redirect to another domain, or from https to http, is refused and gets no password")
    func refused() async throws {
        try await Self.withFront(.radicale) { server, transport in
            let counter = SendCounter()
            let other = CardDAVClient(
                configuration: CardDAVConfiguration(server: server.frontURL(Self.otherDomain)),
                credentials: CardDAVCredentials(user: server.user, password: server.password), transport: transport,
                plugins: [counter])
            let error = try await #require(throws: CardDAVError.self) { try await other.discover() }
            #expect(
                error
                    == .foreignLocation(
                        server: "https://\(Self.otherDomain):\(server.front!.port)",
                        location: server.frontURL(Self.books, "/.well-known/carddav").absoluteString))
            #expect(counter.sent == 2, "PROPFIND / and /.well-known/carddav on the address given, nothing more")
            #expect(other.passwordHosts.isEmpty)

            let plain = CardDAVClient(
                configuration: CardDAVConfiguration(server: server.frontURL(Self.plain)),
                credentials: CardDAVCredentials(user: server.user, password: server.password), transport: transport,
                plugins: [counter])
            let insecure = try await #require(throws: CardDAVError.self) { try await plain.discover() }
            guard case .foreignLocation(_, let location) = insecure else {
                Issue.record("\(insecure)")
                return
            }
            #expect(location.hasPrefix("http://\(Self.books):"))
            #expect(counter.sent == 4)
            #expect(Set(server.authorizedHosts()) == [Self.otherDomain, Self.plain], "never the books' host")
        }
    }
}
