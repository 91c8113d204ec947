import AsyncHTTPClient
public import Foundation
import NIOCore
public import NIOHTTP1
import TestSupport
import Testing

/// The real parts an OAuth test logs in at, started on loopback for the test: Authlib's
/// authorization server (`scripts/oauth-server.py`) and a Radicale that takes its tokens by
/// introspection, with a Google-shaped front (`scripts/carddav-server.py --bearer --google`).
public final class OAuthPeers: Sendable {
    /// The issuer, e.g. `http://127.0.0.1:40123`.
    public let issuer: URL
    /// Radicale's root, e.g. `http://127.0.0.1:40124/`.
    public let radicale: URL
    /// The Google-shaped front's root, e.g. `http://127.0.0.1:40125/`.
    public let google: URL
    /// The client registered at the authorization server.
    public let clientID = "cardwallet"
    /// Its secret.
    public let clientSecret = "cardwallet-secret"
    /// The user who consents.
    public let user = "alice"
    /// The user's email (what the ID token says).
    public let email = "alice@example.com"
    /// Radicale's Basic password for the user (to look at the book behind the test's back).
    public let password = "app-password-7f3e9b"
    private let authorization: PythonPeer
    private let dav: PythonPeer
    private let folder: TemporaryFolder

    /// Radicale's address book of the user.
    public var bookURL: URL { radicale.appending(path: "alice/contacts/") }

    /// Starts both, runs `body`, and always stops them.
    ///
    /// - Parameters:
    ///   - accessTTL: the access tokens' lifetime, in seconds.
    ///   - rotate: whether every refresh gives a new refresh token (revoking the old).
    ///   - metadata: which metadata the authorization server serves (`rfc8414`, `oidc`, `both`).
    public static func with<Result>(
        accessTTL: Int = 3600, rotate: Bool = false, metadata: String = "both",
        _ body: (OAuthPeers) async throws -> Result
    ) async throws -> Result {
        let peers = try await OAuthPeers(accessTTL: accessTTL, rotate: rotate, metadata: metadata)
        let outcome: Swift.Result<Result, any Error>
        do {
            outcome = .success(try await body(peers))
        } catch {
            outcome = .failure(error)
        }
        await peers.stop()
        return try outcome.get()
    }

    private init(accessTTL: Int, rotate: Bool, metadata: String) async throws {
        folder = try TemporaryFolder("oauth-peers")
        authorization = try await PythonPeer(
            "oauth-server.py",
            ["--access-ttl", String(accessTTL), "--metadata", metadata, "--user", "alice:alice@example.com"]
                + (rotate ? ["--rotate"] : []),
            requirements: ["requirements-oauth.txt"])
        guard let issuer = URL(string: authorization.lines[0]) else {
            throw TestFailure("oauth-server.py printed no issuer: \(authorization.lines)")
        }
        self.issuer = issuer
        do {
            dav = try await PythonPeer(
                "carddav-server.py",
                [
                    "radicale", "--data", folder.path("dav"), "--user", "alice:app-password-7f3e9b", "--bearer",
                    issuer.absoluteString, "--google", "alice@example.com",
                ], requirements: ["requirements-carddav.txt", "requirements-oauth.txt"], lines: 2)
        } catch {
            await authorization.stop()
            throw error
        }
        guard let radicale = URL(string: dav.lines[0]), dav.lines[1].hasPrefix("google-port "),
            let port = Int(dav.lines[1].dropFirst("google-port ".count)),
            let google = URL(string: "http://127.0.0.1:\(port)/")
        else {
            throw TestFailure("carddav-server.py printed \(dav.lines)")
        }
        self.radicale = radicale
        self.google = google
    }

    /// Stops both and removes their data.
    public func stop() async {
        await dav.stop()
        await authorization.stop()
        folder.remove()
    }

    // MARK: The authorization server's test controls

    /// The grants given and the calls made: `authorization_code`, `refresh_token`, `introspect`, `revoke`.
    public func stats() async throws -> [String: Int] {
        let (status, body) = try await TestHTTP.request(issuer.appending(path: "test/stats"))
        guard status == 200, let object = try JSONSerialization.jsonObject(with: body) as? [String: Int] else {
            throw TestFailure("GET /test/stats answered \(status)")
        }
        return object
    }

    /// How many refresh grants the server gave.
    public func refreshes() async throws -> Int { try await stats()["refresh_token"] ?? 0 }

    /// Every access token issued so far expires now.
    public func expireAccessTokens() async throws {
        _ = try await TestHTTP.request(issuer.appending(path: "test/expire-access"), method: .POST, form: [:])
    }

    /// Every token of the user is revoked (consent withdrawn): refresh tokens answer invalid_grant.
    public func revokeUser() async throws {
        _ = try await TestHTTP.request(issuer.appending(path: "test/revoke-user"), method: .POST, form: ["user": user])
    }

    /// The next `count` token requests answer `status`.
    public func failTokenRequests(status: Int, count: Int = 1, error: String = "invalid_request") async throws {
        _ = try await TestHTTP.request(
            issuer.appending(path: "test/fail-token"), method: .POST,
            form: ["status": String(status), "count": String(count), "error": error])
    }

    /// The Google-shaped front answers the next `count` requests `status` with `Retry-After: retry`.
    public func throttleGoogle(count: Int, status: Int = 503, retry: Int = 1) async throws {
        _ = try await TestHTTP.request(
            google.appending(path: "test/throttle"), method: .POST,
            form: ["count": String(count), "status": String(status), "retry": String(retry)])
    }

    /// The requests the Google-shaped front saw, `METHOD PATH STATUS` each.
    public func googleRequests() async throws -> [String] {
        let (_, body) = try await TestHTTP.request(google.appending(path: "test/requests"))
        return String(decoding: body, as: UTF8.self).split(separator: "\n").map(String.init)
    }

    /// The vCards in the user's Radicale book, read with Basic credentials behind the test's back.
    public func cardsInBook() async throws -> [String] {
        let body = Data(
            """
            <?xml version="1.0" encoding="utf-8"?><C:addressbook-query xmlns:D="DAV:" \
            xmlns:C="urn:ietf:params:xml:ns:carddav"><D:prop><C:address-data/></D:prop></C:addressbook-query>
            """.utf8)
        let basic = "Basic " + Data("\(user):\(password)".utf8).base64EncodedString()
        let (status, answer) = try await TestHTTP.request(
            bookURL, method: .RAW(value: "REPORT"), body: body,
            headers: ["Authorization": basic, "Depth": "1", "Content-Type": "application/xml"])
        guard status == 207 else { throw TestFailure("REPORT of the book answered \(status)") }
        let text = String(decoding: answer, as: UTF8.self)
        return text.components(separatedBy: "BEGIN:VCARD").dropFirst().map { "BEGIN:VCARD" + $0 }
    }
}

/// Plain HTTP for tests: one request, its status and body; redirects never followed.
public enum TestHTTP {
    private static let client = HTTPClient(
        eventLoopGroupProvider: .singleton,
        configuration: HTTPClient.Configuration(redirectConfiguration: .disallow))

    /// Sends one request.
    public static func request(
        _ url: URL, method: HTTPMethod = .GET, form: [String: String]? = nil, body: Data? = nil,
        headers: [String: String] = [:]
    ) async throws -> (status: Int, body: Data) {
        let (status, _, data) = try await exchange(url, method: method, form: form, body: body, headers: headers)
        return (status, data)
    }

    /// Sends one request; the answer's status, headers and body.
    public static func exchange(
        _ url: URL, method: HTTPMethod = .GET, form: [String: String]? = nil, body: Data? = nil,
        headers: [String: String] = [:]
    ) async throws -> (status: Int, headers: [String: String], body: Data) {
        var request = HTTPClientRequest(url: url.absoluteString)
        request.method = method
        // One connection per request: a kept-alive connection to a loopback listener a test has
        // closed (its port soon another test's) is never taken for the next request.
        request.headers.add(name: "Connection", value: "close")
        for (name, value) in headers { request.headers.add(name: name, value: value) }
        if let form {
            var components = URLComponents()
            components.queryItems = form.map { URLQueryItem(name: $0.key, value: $0.value) }
            let text = (components.percentEncodedQuery ?? "").replacingOccurrences(of: "+", with: "%2B")
            request.headers.add(name: "Content-Type", value: "application/x-www-form-urlencoded")
            request.body = .bytes(ByteBuffer(string: text))
        } else if let body {
            request.body = .bytes(ByteBuffer(bytes: body))
        }
        let response = try await client.execute(request, timeout: .seconds(30))
        let collected = try await response.body.collect(upTo: 4 << 20)
        var names: [String: String] = [:]
        for header in response.headers { names[header.name.lowercased()] = header.value }
        return (Int(response.status.code), names, Data(collected.readableBytesView))
    }
}
