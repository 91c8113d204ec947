import CardDAV
import Foundation
import Networking
import Testing

/// The one rule on other hosts (``CredentialScope``), case by case, and the client that follows
/// it: discovery, every request and the password's interceptor.
@Suite struct CredentialScopeTests {
    static let icloud = CredentialScope(server: ServerOrigin(URL(string: "https://contacts.icloud.com/")!)!)

    static func verdict(_ scope: CredentialScope, _ url: String) -> CredentialScope.Verdict {
        scope.verdict(for: URL(string: url)!)
    }

    @Test("the address's own origin, and other https hosts of its registrable domain, are within")
    func within() {
        #expect(Self.verdict(Self.icloud, "https://contacts.icloud.com/123/principal/") == .server)
        #expect(Self.verdict(Self.icloud, "https://CONTACTS.icloud.com:443/") == .server)
        #expect(
            Self.verdict(Self.icloud, "https://p42-contacts.icloud.com/123/carddavhome/")
                == .sameDomain(host: "p42-contacts.icloud.com", domain: "icloud.com"))
        #expect(
            Self.verdict(Self.icloud, "https://icloud.com:8443/")
                == .sameDomain(host: "icloud.com", domain: "icloud.com"), "another port of the domain")
        let fastmail = CredentialScope(server: ServerOrigin(URL(string: "https://fastmail.com/")!)!)
        #expect(
            Self.verdict(fastmail, "https://carddav.fastmail.com/dav/")
                == .sameDomain(host: "carddav.fastmail.com", domain: "fastmail.com"))
        let british = CredentialScope(server: ServerOrigin(URL(string: "https://dav.example.co.uk/")!)!)
        #expect(Self.verdict(british, "https://books.example.co.uk/") != .refused)
    }

    @Test(
        "anything else is refused",
        arguments: [
            // Another registrable domain.
            ("https://contacts.icloud.com/", "https://evil.example/"),
            ("https://contacts.icloud.com/", "https://icloud.com.evil.example/"),
            ("https://contacts.icloud.com/", "https://p42-contacts.icloud.com.evil.example/"),
            // https → http, also on the address's own host.
            ("https://contacts.icloud.com/", "http://p42-contacts.icloud.com/"),
            ("https://contacts.icloud.com/", "http://contacts.icloud.com/"),
            // An address given over http leads nowhere else, not even to https.
            ("http://127.0.0.1:5232/", "https://127.0.0.1:5233/"),
            ("http://localhost/", "https://dav.localhost/"),
            // A private ending: each name under it is a domain of its own.
            ("https://alice.github.io/", "https://bob.github.io/"),
            // Endings, IP addresses and names the list does not know have no registrable domain.
            ("https://example.co.uk/", "https://other.co.uk/"),
            ("https://dav.internal/", "https://books.internal/"),
            ("https://192.168.1.10/", "https://192.168.1.11/"),
            // Not http at all.
            ("https://contacts.icloud.com/", "ftp://p42-contacts.icloud.com/"),
        ])
    func refused(given: String, target: String) {
        let scope = CredentialScope(server: ServerOrigin(URL(string: given)!)!)
        #expect(Self.verdict(scope, target) == .refused, "\(given) → \(target)")
    }

    @Test("without a Public Suffix List only the address's own origin is within")
    func withoutTheList() {
        let scope = CredentialScope(server: ServerOrigin(URL(string: "https://contacts.icloud.com/")!)!, domains: nil)
        #expect(Self.verdict(scope, "https://p42-contacts.icloud.com/") == .refused)
        #expect(Self.verdict(scope, "https://contacts.icloud.com/x/") == .server)
    }

    // MARK: The client

    /// An iCloud-like server: the given host names the principal, whose home is on a partition
    /// host of the same domain, which lists the book. The password goes with every request.
    static let partitioned = StubTransport { request in
        let host = request.url.host() ?? ""
        let path = request.url.path(percentEncoded: true)
        switch (host, request.method.rawValue, path) {
        case ("contacts.icloud.com", "PROPFIND", "/"):
            return StubDAV.multistatus(
                "<d:response><d:href>/</d:href><d:propstat><d:prop><d:current-user-principal>"
                    + "<d:href>/123/principal/</d:href></d:current-user-principal>"
                    + "</d:prop><d:status>HTTP/1.1 200 OK</d:status></d:propstat></d:response>")
        case ("contacts.icloud.com", "PROPFIND", "/123/principal/"):
            return StubDAV.multistatus(
                "<d:response><d:href>/123/principal/</d:href><d:propstat><d:prop><c:addressbook-home-set>"
                    + "<d:href>https://p42-contacts.icloud.com:443/123/carddavhome/</d:href></c:addressbook-home-set>"
                    + "</d:prop><d:status>HTTP/1.1 200 OK</d:status></d:propstat></d:response>")
        case ("p42-contacts.icloud.com", "PROPFIND", "/123/carddavhome/"):
            return StubDAV.multistatus(
                "<d:response><d:href>/123/carddavhome/card/</d:href><d:propstat><d:prop>"
                    + "<d:resourcetype><d:collection/><c:addressbook/></d:resourcetype>"
                    + "<d:displayname>Contacts</d:displayname></d:prop><d:status>HTTP/1.1 200 OK</d:status>"
                    + "</d:propstat></d:response>")
        case ("p42-contacts.icloud.com", "REPORT", "/123/carddavhome/card/"):
            return StubDAV.multistatus("<d:sync-token>t1</d:sync-token>")
        default:
            return StubResponse(statusCode: 404)
        }
    }

    static func client(
        _ transport: StubTransport, server: String = "https://contacts.icloud.com/", given: String? = nil
    ) -> CardDAVClient {
        CardDAVClient(
            configuration: CardDAVConfiguration(
                server: URL(string: server)!, givenAddress: given.map { URL(string: $0)! }),
            credentials: CardDAVCredentials(user: "alice", password: StubDAV.password), transport: transport)
    }

    @Test("a home on a partition host of the same domain is followed, and the client says it sent the password there")
    func partitionHost() async throws {
        let transport = Self.partitioned
        let client = Self.client(transport)
        #expect(client.passwordHosts.isEmpty)
        let account = try await client.discover()
        #expect(account.homes.map(\.absoluteString) == ["https://p42-contacts.icloud.com:443/123/carddavhome/"])
        let book = try #require(account.books.first)
        #expect(book.url.absoluteString == "https://p42-contacts.icloud.com/123/carddavhome/card/")
        #expect(book.href == "/123/carddavhome/card/")
        #expect(client.passwordHosts == ["p42-contacts.icloud.com"])
        #expect(transport.requests.allSatisfy { $0.headers["Authorization"] != nil })
        // The book's requests go to its host, with the password.
        let requests = transport.requests.count
        _ = try? await client.sync(book, since: nil)
        let sync = try #require(transport.requests.dropFirst(requests).first)
        #expect(sync.url.host() == "p42-contacts.icloud.com")
        #expect(sync.headers["Authorization"] != nil)
    }

    @Test("a client working on the partition host resolves paths there, within the scope of the address given")
    func workingOnThePartitionHost() async throws {
        let transport = StubTransport { _ in StubResponse(statusCode: 200, headers: ["ETag": "\"1\""], body: Data()) }
        let client = Self.client(
            transport, server: "https://p42-contacts.icloud.com/", given: "https://contacts.icloud.com/")
        _ = try await client.get("/123/carddavhome/card/a.vcf")
        #expect(
            transport.requests.last?.url.absoluteString == "https://p42-contacts.icloud.com/123/carddavhome/card/a.vcf")
        #expect(client.passwordHosts == ["p42-contacts.icloud.com"])
        // A host the address given does not vouch for gets nothing.
        let elsewhere = Self.client(
            transport, server: "https://p42-contacts.evil.example/", given: "https://contacts.icloud.com/")
        let error = try await #require(throws: CardDAVError.self) { _ = try await elsewhere.get("/a.vcf") }
        #expect(
            error
                == .foreignLocation(
                    server: "https://contacts.icloud.com", location: "https://p42-contacts.evil.example/"))
        #expect(transport.requests.count == 1)
    }

    @Test("a principal or home on another domain is named, not followed, and gets no password")
    func anotherDomain() async throws {
        let transport = StubTransport { request in
            StubDAV.multistatus(
                "<d:response><d:href>/</d:href><d:propstat><d:prop><c:addressbook-home-set>"
                    + "<d:href>https://p42-contacts.icloud.com.evil.example/123/</d:href></c:addressbook-home-set>"
                    + "</d:prop><d:status>HTTP/1.1 200 OK</d:status></d:propstat></d:response>")
        }
        let client = Self.client(transport)
        let error = try await #require(throws: CardDAVError.self) { try await client.discover() }
        #expect(
            error
                == .foreignLocation(
                    server: "https://contacts.icloud.com", location: "https://p42-contacts.icloud.com.evil.example/123/"
                ))
        #expect(transport.requests.count == 1)
        #expect(client.passwordHosts.isEmpty)
    }

    @Test("a redirect from https to http is refused, even to the same domain")
    func httpsToHTTP() async throws {
        let transport = StubTransport { request in
            request.url.path == "/"
                ? StubResponse(statusCode: 404)
                : StubResponse(statusCode: 301, headers: ["Location": "http://carddav.fastmail.com/dav/"])
        }
        let client = Self.client(transport, server: "https://fastmail.com/")
        let error = try await #require(throws: CardDAVError.self) { try await client.discover() }
        #expect(error == .foreignLocation(server: "https://fastmail.com", location: "http://carddav.fastmail.com/dav/"))
        #expect(transport.requests.allSatisfy { $0.url.host() == "fastmail.com" })
        #expect(client.passwordHosts.isEmpty)
    }

    @Test("a well-known redirect to another host of the domain is followed, by discovery and by the server probe")
    func wellKnownRedirect() async throws {
        let transport = StubTransport { request in
            switch (request.url.host() ?? "", request.url.path(percentEncoded: true)) {
            case ("fastmail.com", "/.well-known/carddav"):
                return StubResponse(statusCode: 301, headers: ["Location": "https://carddav.fastmail.com/dav/"])
            case ("carddav.fastmail.com", "/dav/") where request.method.rawValue == "OPTIONS":
                return StubResponse(statusCode: 200, headers: ["DAV": "1, 3, addressbook"])
            case ("carddav.fastmail.com", "/dav/"):
                return StubDAV.multistatus(
                    "<d:response><d:href>/dav/</d:href><d:propstat><d:prop><c:addressbook-home-set>"
                        + "<d:href>/dav/addressbooks/user/alice@fastmail.com/</d:href></c:addressbook-home-set>"
                        + "</d:prop><d:status>HTTP/1.1 200 OK</d:status></d:propstat></d:response>")
            case ("carddav.fastmail.com", "/dav/addressbooks/user/alice@fastmail.com/"):
                return StubDAV.multistatus(
                    "<d:response><d:href>/dav/addressbooks/user/alice@fastmail.com/Default/</d:href><d:propstat><d:prop>"
                        + "<d:resourcetype><d:collection/><c:addressbook/></d:resourcetype></d:prop>"
                        + "<d:status>HTTP/1.1 200 OK</d:status></d:propstat></d:response>")
            default:
                return StubResponse(statusCode: 404)
            }
        }
        let client = Self.client(transport, server: "https://fastmail.com/")
        #expect(try await client.isCardDAVServer())
        let account = try await client.discover()
        #expect(
            account.books.map(\.url.absoluteString) == [
                "https://carddav.fastmail.com/dav/addressbooks/user/alice@fastmail.com/Default/"
            ])
        #expect(client.passwordHosts == ["carddav.fastmail.com"])
    }
}

/// The same rule for an OAuth 2.0 bearer token (Google Contacts, issue 39): it goes to the
/// origin it was issued for and the hosts of its registrable domain over https, nowhere else,
/// and never shows in an error.
@Suite struct BearerScopeTests {
    static let token = "ya29.a0-secret-access-token"

    static func client(_ transport: StubTransport, server: String, given: String? = nil) -> CardDAVClient {
        CardDAVClient(
            configuration: CardDAVConfiguration(
                server: URL(string: server)!, givenAddress: given.map { URL(string: $0)! }),
            credentials: CardDAVCredentials(user: "ann@example.com", bearer: .token(token)), transport: transport)
    }

    @Test("the token goes with the address's own requests, as Bearer")
    func ownOrigin() async throws {
        let transport = StubTransport { _ in StubResponse(statusCode: 200, headers: ["ETag": "\"1\""], body: Data()) }
        let client = Self.client(transport, server: "https://www.googleapis.com/")
        _ = try await client.get("/carddav/v1/principals/ann@example.com/lists/default/a.vcf")
        #expect(transport.requests.last?.headers["Authorization"] == "Bearer \(Self.token)")
    }

    @Test("a principal or home on another domain is named, not followed, and gets no token")
    func anotherDomain() async throws {
        let transport = StubTransport { _ in
            StubDAV.multistatus(
                "<d:response><d:href>/</d:href><d:propstat><d:prop><c:addressbook-home-set>"
                    + "<d:href>https://www.googleapis.com.evil.example/123/</d:href></c:addressbook-home-set>"
                    + "</d:prop><d:status>HTTP/1.1 200 OK</d:status></d:propstat></d:response>")
        }
        let client = Self.client(transport, server: "https://www.googleapis.com/")
        let error = try await #require(throws: CardDAVError.self) { try await client.discover() }
        #expect(
            error
                == .foreignLocation(
                    server: "https://www.googleapis.com", location: "https://www.googleapis.com.evil.example/123/"))
        #expect(transport.requests.allSatisfy { $0.url.host() == "www.googleapis.com" })
        #expect(!error.description.contains(Self.token))
    }

    @Test("a redirect from https to http is refused: the token never goes in clear")
    func httpsToHTTP() async throws {
        let transport = StubTransport { request in
            request.url.path == "/"
                ? StubResponse(statusCode: 404)
                : StubResponse(statusCode: 301, headers: ["Location": "http://www.googleapis.com/carddav/v1/"])
        }
        let client = Self.client(transport, server: "https://www.googleapis.com/")
        _ = try await #require(throws: CardDAVError.self) { try await client.discover() }
        #expect(transport.requests.allSatisfy { $0.url.scheme == "https" })
    }

    @Test("a client pointed at a host the address does not vouch for sends nothing")
    func unvouchedHost() async throws {
        let transport = StubTransport { _ in StubResponse(statusCode: 200, body: Data()) }
        let client = Self.client(
            transport, server: "https://carddav.evil.example/", given: "https://www.googleapis.com/")
        let error = try await #require(throws: CardDAVError.self) { _ = try await client.get("/a.vcf") }
        #expect(
            error == .foreignLocation(server: "https://www.googleapis.com", location: "https://carddav.evil.example/"))
        #expect(transport.requests.isEmpty)
    }
}
