import CardDAV
import Foundation
import Networking
import Testing

/// Discovery and server-kind detection through the client on a stub server.
@Suite struct DiscoveryStubTests {
    /// A Nextcloud-like server: nothing DAV at `/`, the well-known URL redirects to the DAV
    /// root, which names the principal, which names the home.
    static let nextcloud = StubTransport { request in
        let path = request.url.path(percentEncoded: true)
        switch (request.method.rawValue, path) {
        case ("PROPFIND", "/"):
            return StubResponse(statusCode: 405)
        case ("PROPFIND", "/.well-known/carddav"):
            return StubResponse(statusCode: 301, headers: ["Location": "/remote.php/dav/"])
        case ("PROPFIND", "/remote.php/dav/"):
            return StubDAV.multistatus(
                "<d:response><d:href>/remote.php/dav/</d:href><d:propstat><d:prop><d:current-user-principal>"
                    + "<d:href>/remote.php/dav/principals/users/alice/</d:href></d:current-user-principal></d:prop>"
                    + "<d:status>HTTP/1.1 200 OK</d:status></d:propstat></d:response>")
        case ("PROPFIND", "/remote.php/dav/principals/users/alice/"):
            return StubDAV.multistatus(
                "<d:response><d:href>/remote.php/dav/principals/users/alice/</d:href><d:propstat><d:prop>"
                    + "<c:addressbook-home-set><d:href>/remote.php/dav/addressbooks/users/alice/</d:href>"
                    + "</c:addressbook-home-set></d:prop><d:status>HTTP/1.1 200 OK</d:status></d:propstat></d:response>"
            )
        case ("PROPFIND", "/remote.php/dav/addressbooks/users/alice/"):
            return StubDAV.multistatus(
                "<d:response><d:href>/remote.php/dav/addressbooks/users/alice/</d:href><d:propstat><d:prop>"
                    + "<d:resourcetype><d:collection/></d:resourcetype></d:prop><d:status>HTTP/1.1 200 OK</d:status>"
                    + "</d:propstat></d:response>"
                    + "<d:response><d:href>/remote.php/dav/addressbooks/users/alice/contacts/</d:href><d:propstat><d:prop>"
                    + "<d:resourcetype><d:collection/><c:addressbook/></d:resourcetype>"
                    + "<d:displayname>Contacts</d:displayname><d:sync-token>http://sabre.io/ns/sync/7</d:sync-token>"
                    + #"<x:getctag xmlns:x="http://calendarserver.org/ns/">7</x:getctag>"#
                    + "</d:prop><d:status>HTTP/1.1 200 OK</d:status></d:propstat>"
                    + "<d:propstat><d:prop><c:addressbook-description/></d:prop>"
                    + "<d:status>HTTP/1.1 404 Not Found</d:status></d:propstat></d:response>"
                    + "<d:response><d:href>/remote.php/dav/addressbooks/users/alice/z-app-generated--contactsinteraction--recent/"
                    + "</d:href><d:propstat><d:prop><d:resourcetype><d:collection/><c:addressbook/></d:resourcetype>"
                    + "<d:displayname>Recently contacted</d:displayname><d:supported-report-set><d:supported-report>"
                    + "<d:report><d:sync-collection/></d:report></d:supported-report></d:supported-report-set>"
                    + "</d:prop><d:status>HTTP/1.1 200 OK</d:status></d:propstat></d:response>")
        case ("OPTIONS", _):
            return StubResponse(
                statusCode: 200,
                headers: ["DAV": "1, 3, extended-mkcol, access-control", "DAV": "addressbook, calendar-access"])
        default:
            return StubResponse(statusCode: 404)
        }
    }

    @Test func aNextcloudLikeServerIsFoundThroughTheWellKnownURL() async throws {
        let account = try await StubDAV.client(Self.nextcloud).discover()
        #expect(account.principal?.path(percentEncoded: true) == "/remote.php/dav/principals/users/alice/")
        #expect(account.homes.map { $0.path(percentEncoded: true) } == ["/remote.php/dav/addressbooks/users/alice/"])
        #expect(
            account.books.map(\.href) == [
                "/remote.php/dav/addressbooks/users/alice/contacts/",
                "/remote.php/dav/addressbooks/users/alice/z-app-generated--contactsinteraction--recent/",
            ])
        let contacts = account.books[0]
        #expect(contacts.displayName == "Contacts")
        #expect(contacts.syncToken == "http://sabre.io/ns/sync/7")
        #expect(contacts.ctag == "7")
        #expect(contacts.summary == nil)
        #expect(contacts.supportsSyncCollection)
        #expect(
            contacts.url.absoluteString == "https://dav.example.com/remote.php/dav/addressbooks/users/alice/contacts/")
        #expect(account.books[1].supportsSyncCollection)
        #expect(account.selected == nil)
    }

    @Test func theDAVHeaderTellsACardDAVServer() async throws {
        #expect(try await StubDAV.client(Self.nextcloud).isCardDAVServer())
        let api = StubTransport { _ in StubResponse.json(#"{"errorCode":"E01"}"#, statusCode: 404) }
        #expect(try await StubDAV.client(api).isCardDAVServer() == false)
        #expect(api.requests.map(\.url.path) == ["/", "/.well-known/carddav"])
    }

    @Test func aServerThatIsNotCardDAVSaysSo() async throws {
        let html = StubTransport { _ in StubResponse(statusCode: 200, body: Data("<html>hello</html>".utf8)) }
        let error = try await #require(throws: CardDAVError.self) { try await StubDAV.client(html).discover() }
        #expect(error == .notCardDAV(server: "https://dav.example.com"))
        #expect(error.isBadServerAnswer)
    }

    @Test func aPrincipalOnAnotherDomainIsNamedNotFollowed() async throws {
        let transport = StubTransport { request in
            StubDAV.multistatus(
                "<d:response><d:href>/</d:href><d:propstat><d:prop><d:current-user-principal>"
                    + "<d:href>https://p42-contacts.example.net/123/principal/</d:href></d:current-user-principal>"
                    + "</d:prop><d:status>HTTP/1.1 200 OK</d:status></d:propstat></d:response>")
        }
        let error = try await #require(throws: CardDAVError.self) { try await StubDAV.client(transport).discover() }
        #expect(
            error
                == .foreignLocation(
                    server: "https://dav.example.com", location: "https://p42-contacts.example.net/123/principal/"))
        #expect(transport.requests.count == 1)
    }
}
