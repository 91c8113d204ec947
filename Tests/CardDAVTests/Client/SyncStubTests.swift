import CardDAV
import Foundation
import Networking
import Testing

/// Sync through the client on a stub server: refused tokens, truncation, servers without sync
/// tokens, answers in unusual orders, hostile answers.
@Suite struct SyncStubTests {
    @Test func aTokenRadicaleRefusesFallsBackToTheETagListing() async throws {
        let transport = StubTransport { request in
            switch request.method.rawValue {
            case "REPORT": StubDAV.error("valid-sync-token", status: 403)
            default:
                StubDAV.multistatus(
                    "<d:response><d:href>/alice/contacts/</d:href><d:propstat><d:prop><d:sync-token>t9</d:sync-token>"
                        + "<d:resourcetype><d:collection/><c:addressbook/></d:resourcetype></d:prop>"
                        + "<d:status>HTTP/1.1 200 OK</d:status></d:propstat></d:response>"
                        + StubDAV.member("/alice/contacts/a.vcf", etag: "\"1\""))
            }
        }
        let delta = try await StubDAV.client(transport).sync(StubDAV.book, since: .sync("stale & <old>"))
        #expect(delta.kind == .fullListing)
        #expect(delta.fallback == .tokenRefused)
        #expect(delta.changed == [ResourceVersion(href: "/alice/contacts/a.vcf", etag: "\"1\"")])
        #expect(delta.token == .sync("t9"))
        let requests = transport.requests
        #expect(requests.map(\.method.rawValue) == ["REPORT", "PROPFIND"])
        #expect(StubDAV.body(requests[0]).contains("<d:sync-token>stale &amp; &lt;old&gt;</d:sync-token>"))
        #expect(requests[0].headers["Depth"] == "0")
        #expect(requests[1].headers["Depth"] == "1")
    }

    @Test func aTokenXandikosRefusesWith412FallsBackToo() async throws {
        let transport = StubTransport { request in
            request.method.rawValue == "REPORT"
                ? StubDAV.error("valid-sync-token", status: 412)
                : StubDAV.multistatus(StubDAV.member("/alice/contacts/a.vcf", etag: "\"1\""))
        }
        let delta = try await StubDAV.client(transport).sync(StubDAV.book, since: .sync("gone"))
        #expect(delta.fallback == .tokenRefused)
        #expect(delta.changed.map(\.href) == ["/alice/contacts/a.vcf"])
    }

    /// RFC 6578 §3.6: a 507 for the collection inside the multistatus means "ask again from
    /// this token"; the second request carries it, and the changes of both answers merge.
    @Test func aTruncatedAnswerIsContinuedFromItsToken() async throws {
        let transport = StubTransport { request in
            if StubDAV.body(request).contains("<d:sync-token>t1</d:sync-token>") {
                return StubDAV.multistatus(
                    StubDAV.member("/alice/contacts/b.vcf", etag: "\"2\"")
                        + "<d:sync-token>t2</d:sync-token>")
            }
            return StubDAV.multistatus(
                "<d:sync-token>t1</d:sync-token>" + StubDAV.member("/alice/contacts/a.vcf", etag: "\"1\"")
                    + "<d:response><d:href>/alice/contacts/</d:href><d:status>HTTP/1.1 507 Insufficient Storage"
                    + "</d:status><d:error><d:number-of-matches-within-limits/></d:error></d:response>")
        }
        let delta = try await StubDAV.client(transport).sync(StubDAV.book, since: .sync("t0"))
        #expect(delta.kind == .changes)
        #expect(delta.changed.map(\.href) == ["/alice/contacts/a.vcf", "/alice/contacts/b.vcf"])
        #expect(delta.token == .sync("t2"))
        #expect(delta.requests == 2)
        #expect(transport.requests.count == 2)
    }

    @Test func aServerWithoutTheReportListsETagsAndKeepsItsCtag() async throws {
        let transport = StubTransport { request in
            if request.method.rawValue == "REPORT" { return StubResponse(statusCode: 501) }
            if request.headers["Depth"] == "0" {
                return StubDAV.multistatus(
                    "<d:response><d:href>/alice/contacts/</d:href><d:propstat><d:prop>"
                        + #"<x:getctag xmlns:x="http://calendarserver.org/ns/">c1</x:getctag></d:prop>"#
                        + "<d:status>HTTP/1.1 200 OK</d:status></d:propstat></d:response>")
            }
            return StubDAV.multistatus(
                "<d:response><d:href>/alice/contacts/</d:href><d:propstat><d:prop>"
                    + #"<x:getctag xmlns:x="http://calendarserver.org/ns/">c1</x:getctag></d:prop>"#
                    + "<d:status>HTTP/1.1 200 OK</d:status></d:propstat></d:response>"
                    + StubDAV.member("/alice/contacts/a.vcf", etag: "\"1\""))
        }
        let client = StubDAV.client(transport)
        let first = try await client.sync(StubDAV.book, since: .sync("t0"))
        #expect(first.fallback == .syncUnsupported(status: 501))
        #expect(first.token == .ctag("c1"))
        transport.clearRequests()
        // The next sync asks only for the ctag: one request when nothing changed.
        var plain = StubDAV.book
        plain.supportsSyncCollection = false
        plain.syncToken = nil
        let second = try await client.sync(plain, since: first.token)
        #expect(second.kind == .changes && second.changed.isEmpty && second.requests == 1)
        #expect(transport.requests.map(\.method.rawValue) == ["PROPFIND"])
    }

    /// A server that writes the parts of a response in another order, with other prefixes and
    /// white space, and the token before the responses, reads the same.
    @Test func aServerThatReordersEverythingReadsTheSame() async throws {
        let transport = StubTransport { _ in
            StubDAV.multistatus(
                """
                <D:sync-token>
                    t5
                </D:sync-token>
                <D:response>
                    <D:propstat>
                        <D:status>HTTP/1.1 200 OK</D:status>
                        <D:prop><D:getetag>"e1"</D:getetag></D:prop>
                    </D:propstat>
                    <D:href>https://dav.example.com:443/alice/contacts/%61%40b.vcf</D:href>
                </D:response>
                <D:response><D:status>HTTP/1.1 404 Not Found</D:status><D:href>c.vcf</D:href></D:response>
                <D:responsedescription>fine</D:responsedescription>
                """, prefix: "D")
        }
        let delta = try await StubDAV.client(transport).sync(StubDAV.book, since: .sync("t4"))
        #expect(delta.changed == [ResourceVersion(href: "/alice/contacts/a@b.vcf", etag: "\"e1\"")])
        #expect(delta.removed == ["/alice/contacts/c.vcf"])
        #expect(delta.token == .sync("t5"))
    }

    @Test func aResponseNamingSeveralRemovedCardsRemovesEach() async throws {
        let transport = StubTransport { _ in
            StubDAV.multistatus(
                "<d:response><d:href>x.vcf</d:href><d:href>/alice/contacts/y.vcf</d:href>"
                    + "<d:status>HTTP/1.1 404 Not Found</d:status></d:response><d:sync-token>t2</d:sync-token>")
        }
        let delta = try await StubDAV.client(transport).sync(StubDAV.book, since: .sync("t1"))
        #expect(delta.removed == ["/alice/contacts/x.vcf", "/alice/contacts/y.vcf"])
        #expect(delta.changed.isEmpty)
    }

    @Test func aMemberOnAnotherOriginIsRefused() async throws {
        let transport = StubTransport { _ in
            StubDAV.multistatus(
                StubDAV.member("https://evil.example/alice/contacts/a.vcf", etag: "1")
                    + "<d:sync-token>t</d:sync-token>")
        }
        let error = try await #require(throws: CardDAVError.self) {
            try await StubDAV.client(transport).sync(StubDAV.book, since: .sync("t0"))
        }
        #expect(
            error
                == .foreignLocation(
                    server: "https://dav.example.com", location: "https://evil.example/alice/contacts/a.vcf"))
        #expect(error.isBadServerAnswer)
        #expect(transport.requests.count == 1)
    }

    @Test func aMemberOutsideTheBookIsRefused() async throws {
        let transport = StubTransport { _ in
            StubDAV.multistatus(StubDAV.member("/bob/contacts/a.vcf", etag: "1") + "<d:sync-token>t</d:sync-token>")
        }
        let error = try await #require(throws: CardDAVError.self) {
            try await StubDAV.client(transport).sync(StubDAV.book, since: .sync("t0"))
        }
        #expect(error.isBadServerAnswer)
        #expect(error.description.contains("/bob/contacts/a.vcf"))
    }

    @Test func aBillionLaughsAnswerIsABadAnswerInBoundedTime() async throws {
        var body = "<?xml version=\"1.0\"?><!DOCTYPE m [<!ENTITY a \"aaaaaaaaaa\">"
        for level in 1...20 {
            body += "<!ENTITY a\(level) \"" + String(repeating: "&a\(level - 1);", count: 10) + "\">"
        }
        body += "]><d:multistatus xmlns:d=\"DAV:\">&a20;</d:multistatus>"
        let bytes = Data(body.replacingOccurrences(of: "&a0;", with: "&a;").utf8)
        let transport = StubTransport { _ in StubResponse(statusCode: 207, body: bytes) }
        let error = try await #require(throws: CardDAVError.self) {
            try await StubDAV.client(transport).sync(StubDAV.book, since: .sync("t0"))
        }
        #expect(error.isBadServerAnswer)
        #expect(error.description.contains("document type declaration"))
    }

    @Test func aSyncTheServerFailsIsAServerFailure() async throws {
        let transport = StubTransport { _ in
            StubResponse(statusCode: 500, body: Data("<html>  Internal\n error </html>".utf8))
        }
        let error = try await #require(throws: CardDAVError.self) {
            try await StubDAV.client(transport).sync(StubDAV.book, since: .sync("t0"))
        }
        #expect(
            error
                == .serverFailure(
                    request: "REPORT /alice/contacts/", status: 500, detail: "<html> Internal error </html>"))
    }
}
