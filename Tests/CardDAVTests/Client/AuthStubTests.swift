import CardDAV
import Foundation
import Logging
import Networking
import Testing

/// Where the password goes, and where it never appears.
@Suite struct AuthStubTests {
    @Test func basicCredentialsGoWithEveryRequestAndTheLogShowsThemAsPrivate() async throws {
        let transport = StubTransport { _ in StubResponse(statusCode: 207, body: Data(#"<m xmlns="DAV:"/>"#.utf8)) }
        let log = LoggerPlugin()
        let client = StubDAV.client(transport, plugins: [log])
        _ = try? await client.listETags(StubDAV.book)
        let request = try #require(transport.requests.first)
        let expected = "Basic " + Data("alice:\(StubDAV.password)".utf8).base64EncodedString()
        #expect(request.headers["Authorization"] == expected)
        let events = log.recent()
        #expect(!events.isEmpty)
        for event in events {
            if let header = event.headers["Authorization"] { #expect(header == "<private>") }
            let line = NetworkEventFormatter().line(event)
            #expect(!line.contains(StubDAV.password))
        }
        #expect(events.contains { $0.method.rawValue == "PROPFIND" })
    }

    @Test func aRefusedPasswordRequiresLoginAndIsNeverEchoed() async throws {
        let echoed = "Wrong password \(StubDAV.password) for alice"
        let transport = StubTransport { _ in
            StubResponse(statusCode: 401, headers: ["WWW-Authenticate": "Basic realm=x"], body: Data(echoed.utf8))
        }
        let error = try await #require(throws: CardDAVError.self) { try await StubDAV.client(transport).discover() }
        #expect(error == .credentialRefused(server: "https://dav.example.com", user: "alice"))
        #expect(error.requiresLogin)
        #expect(!error.description.contains(StubDAV.password))
    }

    @Test func aServerThatEchoesThePasswordInAnErrorHasItScrubbed() async throws {
        let transport = StubTransport { _ in StubResponse(statusCode: 500, body: Data("oops \(StubDAV.password)".utf8))
        }
        let error = try await #require(throws: CardDAVError.self) {
            _ = try await StubDAV.client(transport).get("/alice/contacts/a.vcf")
        }
        #expect(error.statusCode == 500)
        #expect(!error.description.contains(StubDAV.password))
        #expect(error.description.contains("<private>"))
    }

    @Test func plainHTTPToAnotherComputerSendsNothing() async throws {
        let transport = StubTransport { _ in StubResponse(statusCode: 207) }
        let client = StubDAV.client(transport, server: URL(string: "http://dav.example.com/")!)
        let error = try await #require(throws: CardDAVError.self) { try await client.discover() }
        #expect(error.isInsecureServer)
        #expect(transport.requests.isEmpty)
        #expect(throws: CardDAVError.insecureServer("http://dav.example.com/")) {
            try CardDAVConfiguration.serverURL("http://dav.example.com/")
        }
        #expect(try CardDAVConfiguration.serverURL("http://dav.example.com", allowingInsecureHTTP: true).path == "/")
    }

    @Test(
        "loopback hosts may be plain http",
        arguments: [
            "http://127.0.0.1:5232/", "http://localhost/", "http://[::1]:8080/", "http://127.9.8.7/",
            "http://[::ffff:127.0.0.1]/",
        ])
    func loopback(address: String) throws {
        #expect(try CardDAVConfiguration.serverURL(address).absoluteString.hasPrefix("http://"))
    }

    @Test func anAddressWithAPasswordInItIsRefusedWithoutEchoingIt() {
        let error = #expect(throws: CardDAVError.self) {
            try CardDAVConfiguration.serverURL("https://alice:s3cret-pass@dav.example.com/")
        }
        #expect(error == .invalidServerURL("https://<private>@dav.example.com/"))
        #expect(error.map { !$0.description.contains("s3cret") } == true)
    }

    @Test func aPasswordThatCannotBeReadSendsNothing() async throws {
        struct Locked: Error {}
        let transport = StubTransport { _ in StubResponse(statusCode: 207) }
        let client = StubDAV.client(transport) { throw Locked() }
        let error = try await #require(throws: CardDAVError.self) { try await client.discover() }
        guard case .credentialUnavailable = error else {
            Issue.record("\(error)")
            return
        }
        #expect(transport.requests.isEmpty)
    }

    @Test func aRedirectToAnotherServerIsNotFollowedAndGetsNoPassword() async throws {
        let transport = StubTransport { request in
            request.url.path == "/"
                ? StubResponse(statusCode: 404)
                : StubResponse(statusCode: 301, headers: ["Location": "https://carddav.example.net/dav/"])
        }
        let error = try await #require(throws: CardDAVError.self) { try await StubDAV.client(transport).discover() }
        #expect(
            error == .foreignLocation(server: "https://dav.example.com", location: "https://carddav.example.net/dav/"))
        #expect(error.description.contains("https://carddav.example.net/dav/"))
        #expect(transport.requests.allSatisfy { $0.url.host() == "dav.example.com" })
        #expect(transport.requests.map(\.url.path) == ["/", "/.well-known/carddav"])
    }
}
