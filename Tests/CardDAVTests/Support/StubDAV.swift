import CardDAV
import Foundation
import Networking
import Synchronization

/// A fake DAV server on Networking's stub transport: answers from a closure, every request
/// recorded (with its body as text) for the test to check.
enum StubDAV {
    static let server = URL(string: "https://dav.example.com/")!
    static let password = "hunter2-app-password"
    static let book = AddressBook(
        url: URL(string: "https://dav.example.com/alice/contacts/")!, href: "/alice/contacts/",
        displayName: "Contacts", syncToken: "t0", supportsSyncCollection: true)

    /// A 207 multistatus around `inner`, with `DAV:` as prefix `d`.
    static func multistatus(_ inner: String, prefix: String = "d") -> StubResponse {
        let body =
            #"<?xml version="1.0" encoding="utf-8"?><\#(prefix):multistatus xmlns:\#(prefix)="DAV:" "#
            + #"xmlns:c="urn:ietf:params:xml:ns:carddav">\#(inner)</\#(prefix):multistatus>"#
        return StubResponse(
            statusCode: 207, headers: ["Content-Type": "application/xml; charset=utf-8"], body: Data(body.utf8))
    }

    /// A `DAV:error` body with `condition`, at `status`.
    static func error(_ condition: String, status: Int) -> StubResponse {
        StubResponse(
            statusCode: status, headers: ["Content-Type": "application/xml"],
            body: Data(#"<?xml version="1.0"?><D:error xmlns:D="DAV:"><D:\#(condition)/></D:error>"#.utf8))
    }

    /// One member in a sync or listing answer.
    static func member(_ href: String, etag: String) -> String {
        "<d:response><d:href>\(href)</d:href><d:propstat><d:prop><d:getetag>\(etag)</d:getetag></d:prop>"
            + "<d:status>HTTP/1.1 200 OK</d:status></d:propstat></d:response>"
    }

    /// The body of a request as text.
    static func body(_ request: Request) -> String {
        request.body.data.map { String(decoding: $0, as: UTF8.self) } ?? ""
    }

    /// A client of `transport` with the test password.
    static func client(
        _ transport: StubTransport, server: URL = server, plugins: [any Plugin] = [], batchSize: Int = 100,
        password: (@Sendable () async throws -> String)? = nil
    ) -> CardDAVClient {
        CardDAVClient(
            configuration: CardDAVConfiguration(server: server, multigetBatchSize: batchSize),
            credentials: CardDAVCredentials(user: "alice", password: password ?? { Self.password }),
            transport: transport, plugins: plugins)
    }
}

/// Counts the requests a provider sends (every attempt).
final class SendCounter: Plugin {
    private let count = Mutex(0)
    var sent: Int { count.withLock { $0 } }
    func willSend(_ request: Request, target: any TargetType) { count.withLock { $0 += 1 } }
}
