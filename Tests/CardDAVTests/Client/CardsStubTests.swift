import CardDAV
import Foundation
import Networking
import Synchronization
import Testing

/// Reading and writing cards through the client on a stub server: multiget batches and
/// partial answers, preconditions, conflicts, read-backs.
@Suite struct CardsStubTests {
    static func card(_ href: String, etag: String, text: String) -> String {
        "<d:response><d:href>\(href)</d:href><d:propstat><d:prop><d:getetag>\(etag)</d:getetag>"
            + "<c:address-data>\(text)</c:address-data></d:prop><d:status>HTTP/1.1 200 OK</d:status></d:propstat>"
            + "</d:response>"
    }

    @Test func multigetAsksInBatchesAndReportsWhatIsMissing() async throws {
        let transport = StubTransport { request in
            let asked = StubDAV.body(request).components(separatedBy: "<d:href>").dropFirst().map {
                String($0.prefix { $0 != "<" })
            }
            var inner = ""
            for href in asked {
                switch href {
                case "/alice/contacts/gone.vcf":
                    inner +=
                        "<d:response><d:href>\(href)</d:href><d:status>HTTP/1.1 404 Not Found</d:status></d:response>"
                case "/alice/contacts/silent.vcf":
                    break  // left out of the answer
                default:
                    inner += Self.card(href, etag: "\"e\"", text: "BEGIN:VCARD&#13;\nFN:\(href)&#13;\nEND:VCARD&#13;\n")
                }
            }
            return StubDAV.multistatus(inner)
        }
        let client = StubDAV.client(transport, batchSize: 2)
        let hrefs = [
            "/alice/contacts/1.vcf", "/alice/contacts/gone.vcf", "/alice/contacts/2.vcf",
            "/alice/contacts/silent.vcf", "/alice/contacts/3.vcf", "/alice/contacts/1.vcf",
        ]
        var batches: [MultigetResult] = []
        try await client.multiget(hrefs, in: StubDAV.book) { batches.append($0) }
        #expect(batches.count == 3)
        #expect(transport.requests.count == 3)
        #expect(transport.requests.allSatisfy { $0.method.rawValue == "REPORT" && $0.headers["Depth"] == "0" })
        let all = try await client.multiget(hrefs, in: StubDAV.book)
        #expect(all.found.map(\.href) == ["/alice/contacts/1.vcf", "/alice/contacts/2.vcf", "/alice/contacts/3.vcf"])
        #expect(all.found[0].vcard == "BEGIN:VCARD\r\nFN:/alice/contacts/1.vcf\r\nEND:VCARD\r\n")
        #expect(all.found[0].etag == "\"e\"")
        #expect(Set(all.missing) == ["/alice/contacts/gone.vcf", "/alice/contacts/silent.vcf"])
    }

    /// A stub that answers every multiget with each card it asks for, its FN the href; the
    /// request numbered `failing` (from 1) gets a 500 instead.
    static func echoingMultigets(failing: Int? = nil) -> StubTransport {
        let asked = Mutex(0)
        return StubTransport { request in
            let number = asked.withLock { count in
                count += 1
                return count
            }
            if number == failing { return StubResponse(statusCode: 500) }
            let hrefs = StubDAV.body(request).components(separatedBy: "<d:href>").dropFirst().map {
                String($0.prefix { $0 != "<" })
            }
            return StubDAV.multistatus(
                hrefs.map { Self.card($0, etag: "\"e\"", text: "BEGIN:VCARD&#13;\nFN:\($0)&#13;\nEND:VCARD&#13;\n") }
                    .joined())
        }
    }

    static let tenCards = (0..<10).map { "/alice/contacts/\($0).vcf" }

    @Test func batchesAreReadAtOnceAndHandedOverInOrder() async throws {
        let transport = Self.echoingMultigets()
        let client = StubDAV.client(transport, batchSize: 2)
        var handed: [[String]] = []
        try await client.multiget(
            Self.tenCards, in: StubDAV.book, reading: { result in result.found.map { $0.vcard } },
            batches: { handed.append($0) })
        #expect(handed.flatMap { $0 } == Self.tenCards.map { "BEGIN:VCARD\r\nFN:\($0)\r\nEND:VCARD\r\n" })
        #expect(handed.count == 5)
        #expect(transport.requests.count == 5)
    }

    @Test func whatTheHandlerThrowsStopsTheRequestsAndIsWhatTheCallerGets() async throws {
        struct Full: Error {}
        let transport = Self.echoingMultigets()
        let client = StubDAV.client(transport, batchSize: 1)
        var handed = 0
        await #expect(throws: Full.self) {
            try await client.multiget(Self.tenCards, in: StubDAV.book) { _ in
                handed += 1
                if handed == 2 { throw Full() }
            }
        }
        #expect(handed == 2)
        // The stages run at most a few batches ahead of the one that failed: never all ten.
        #expect(transport.requests.count <= 5, "\(transport.requests.count) requests")
    }

    @Test func aFailedRequestStopsTheBatchesAfterIt() async throws {
        let transport = Self.echoingMultigets(failing: 3)
        let client = StubDAV.client(transport, batchSize: 2)
        var handed: [String] = []
        let error = try await #require(throws: CardDAVError.self) {
            try await client.multiget(Self.tenCards, in: StubDAV.book) { batch in
                handed += batch.found.map(\.href)
            }
        }
        #expect(handed == Array(Self.tenCards.prefix(4)), "the batches before it, in order")
        #expect(transport.requests.count == 3)
        _ = error
    }

    @Test func whatTheReadingStepThrowsIsWhatTheCallerGets() async throws {
        struct Unreadable: Error {}
        let client = StubDAV.client(Self.echoingMultigets(), batchSize: 3)
        var handed = 0
        await #expect(throws: Unreadable.self) {
            try await client.multiget(
                Self.tenCards, in: StubDAV.book,
                reading: { result in
                    if result.found.contains(where: { $0.href.hasSuffix("/4.vcf") }) { throw Unreadable() }
                    return result.found.count
                }, batches: { handed += $0 })
        }
        #expect(handed == 3)
    }

    @Test func createPutsOnlyIfNothingIsThereAndTakesTheETag() async throws {
        let transport = StubTransport { _ in StubResponse(statusCode: 201, headers: ["ETag": "\"new\""]) }
        let stored = try await StubDAV.client(transport).create(
            "BEGIN:VCARD\r\nEND:VCARD\r\n", key: "uuid-1", in: StubDAV.book)
        #expect(stored == StoredCard(href: "/alice/contacts/uuid-1.vcf", etag: "\"new\""))
        let request = try #require(transport.requests.first)
        #expect(request.method == .put)
        #expect(request.url.absoluteString == "https://dav.example.com/alice/contacts/uuid-1.vcf")
        #expect(request.headers["If-None-Match"] == "*")
        #expect(request.headers["If-Match"] == nil)
        #expect(request.headers["Content-Type"] == "text/vcard; charset=utf-8")
    }

    @Test("a 412 is a conflict, for create, update and delete", arguments: [0, 1, 2])
    func preconditionFailed(operation: Int) async throws {
        let transport = StubTransport { _ in StubResponse(statusCode: 412) }
        let client = StubDAV.client(transport)
        let error = try await #require(throws: CardDAVError.self) {
            switch operation {
            case 0: _ = try await client.create("V", key: "taken", in: StubDAV.book)
            case 1: _ = try await client.update("/alice/contacts/a.vcf", vcard: "V", etag: "\"old\"")
            default: try await client.delete("/alice/contacts/a.vcf", etag: "\"old\"")
            }
        }
        #expect(error.isConflict)
        #expect(error.statusCode == 412)
        if operation > 0 { #expect(transport.requests.first?.headers["If-Match"] == "\"old\"") }
    }

    /// A server that rewrites a card on upload gives no ETag (RFC 6352 §6.3.2.3): the client
    /// reads back what it stores.
    @Test func aPutAnsweredWithoutAnETagIsReadBack() async throws {
        let transport = StubTransport { request in
            request.method == .put
                ? StubResponse(statusCode: 204)
                : StubResponse(
                    statusCode: 200, headers: ["ETag": "\"rewritten\""], body: Data("BEGIN:VCARD\nEND:VCARD\n".utf8))
        }
        let stored = try await StubDAV.client(transport).update("/alice/contacts/a.vcf", vcard: "X", etag: "\"1\"")
        #expect(
            stored
                == StoredCard(href: "/alice/contacts/a.vcf", etag: "\"rewritten\"", vcard: "BEGIN:VCARD\nEND:VCARD\n"))
        #expect(transport.requests.map(\.method) == [.put, .get])
    }

    @Test func deleteOfWhatIsGoneIsNotFound() async throws {
        let transport = StubTransport { _ in StubResponse(statusCode: 404) }
        let error = try await #require(throws: CardDAVError.self) {
            try await StubDAV.client(transport).delete("/alice/contacts/a.vcf", etag: nil)
        }
        #expect(error.isNotFound)
        #expect(transport.requests.first?.headers["If-Match"] == nil)
    }

    @Test(
        "names that cannot be a resource are refused before sending",
        arguments: ["", ".hidden", "a/b", "a b", "ü", "../x"])
    func badKeys(key: String) async throws {
        let transport = StubTransport { _ in StubResponse(statusCode: 201) }
        await #expect(throws: CardDAVError.self) {
            _ = try await StubDAV.client(transport).create("V", key: key, in: StubDAV.book)
        }
        #expect(transport.requests.isEmpty)
    }

    @Test func anHrefOnAnotherServerIsNeverSentTo() async throws {
        let transport = StubTransport { _ in StubResponse(statusCode: 200) }
        let client = StubDAV.client(transport)
        for href in ["https://evil.example/a.vcf", "http://dav.example.com/a.vcf", "//evil.example/a.vcf"] {
            let error = try await #require(throws: CardDAVError.self) { _ = try await client.get(href) }
            #expect(error.isBadServerAnswer, "\(href)")
        }
        #expect(transport.requests.isEmpty)
    }
}
