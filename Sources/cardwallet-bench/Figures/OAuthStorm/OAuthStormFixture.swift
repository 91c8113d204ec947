import AsyncHTTPClient
import CardBackend
import CardDAV
import CardModels
import CardProviders
import CardWalletLive
import Foundation
import Logging
import NIOCore
import NIOHTTP1
import Networking
import OAuth
import Secrets
import Synchronization
import TokenStore

/// What #39 measures against: Authlib's authorization server (`scripts/oauth-server.py`, 1-hour
/// access tokens), a Radicale that asks it about every token (`scripts/carddav-server.py
/// --bearer`), and one CardDAV backend logged in with OAuth through the real loopback flow (the
/// bench consents as the browser would), built as the program builds it: the providers' list, a
/// token file, the keyring in memory, the shared session with ``OAuth/OAuthTokenExchange``.
final class OAuthStormFixture: Sendable {
    let authorization: ScriptPeer
    let dav: ScriptPeer
    let issuer: URL
    let backend: any CardBackend
    let ids: [String]
    let transport: LiveTransport
    let counter: CountingTransport
    let folder: TemporaryFolder
    let http: HTTPClient

    /// How many requests the backend admits at once (K).
    var admissionLimit: Int { transport.connectionsPerHost ?? .max }

    private init(
        authorization: ScriptPeer, dav: ScriptPeer, issuer: URL, backend: any CardBackend, ids: [String],
        transport: LiveTransport, counter: CountingTransport, folder: TemporaryFolder, http: HTTPClient
    ) {
        self.authorization = authorization
        self.dav = dav
        self.issuer = issuer
        self.backend = backend
        self.ids = ids
        self.transport = transport
        self.counter = counter
        self.folder = folder
        self.http = http
    }

    /// Starts both peers, logs in with OAuth, and adds `cards` cards to the book.
    static func start(cards: Int) async throws -> OAuthStormFixture {
        let folder = try TemporaryFolder("oauth-storm")
        let authorization = try ScriptPeer(
            "oauth-server.py", ["--access-ttl", "3600"], lines: 1, log: folder.path + "/oauth.log")
        guard let issuer = URL(string: authorization.lines[0]) else { throw BenchError("oauth-server.py: no issuer") }
        let dav: ScriptPeer
        do {
            dav = try ScriptPeer(
                "carddav-server.py",
                [
                    "radicale", "--data", folder.path + "/dav", "--user", "alice:bench", "--bearer",
                    issuer.absoluteString,
                ],
                lines: 1, log: folder.path + "/dav.log")
        } catch {
            authorization.stop()
            throw error
        }
        let http = HTTPClient(
            eventLoopGroupProvider: .singleton,
            configuration: HTTPClient.Configuration(redirectConfiguration: .disallow))
        let transport = LiveTransport(configuration: AppClient.transportConfiguration)
        let counter = CountingTransport(transport)
        let store = TokenStore(path: folder.path + "/state/tokens.json")
        let secrets = AccountSecrets(keyring: MemorySecretStore(), tokenStore: store, environment: [:])
        let context = ProviderContext(
            tokenStore: store, transport: counter, plugins: [LoggerPlugin()], logger: Logger(label: "bench.oauth"),
            settings: ProviderSettings(), password: { try await secrets.password(for: $0) },
            secret: { try await secrets.secretIfKept(for: $0) }, keepSecret: { try await secrets.replace($1, for: $0) })
        let directory = AccountDirectory(providers: Providers.standard, context: context, secrets: secrets, book: nil)
        let book = URL(string: dav.lines[0] + "alice/contacts/")!
        do {
            let accounts = WalletAccounts(
                directory: directory, account: nil, backend: try directory.backend(at: book, kind: .cardDAV),
                cacheEnvironment: nil, logger: Logger(label: "bench.oauth"), home: book)
            _ = try await accounts.logIn(
                LoginRequest(
                    server: book.absoluteString, user: "", password: "", kind: "cardDAV",
                    oauth: OAuthLoginRequest(
                        issuer: OAuthIssuer(url: issuer),
                        client: OAuthClient(id: "cardwallet", secret: "cardwallet-secret"), deadline: .seconds(60),
                        present: { url in Task { try? await consent(url, http: http) } })))
            let backend = accounts.backend
            var ids: [String] = []
            for index in 0..<cards {
                let card = try await backend.create(
                    CardFields(name: "Storm \(index)", email: "storm\(index)@example.com"), image: nil,
                    key: IdempotencyKey())
                ids.append(card.id)
            }
            return OAuthStormFixture(
                authorization: authorization, dav: dav, issuer: issuer, backend: backend, ids: ids,
                transport: transport,
                counter: counter, folder: folder, http: http)
        } catch {
            try? await http.shutdown()
            try? await transport.shutdown()
            dav.stop()
            authorization.stop()
            folder.remove()
            throw BenchError("the OAuth login for the storm failed: \(error)")
        }
    }

    /// The browser's part: the consent page, "allow", and the redirect to the loopback listener.
    static func consent(_ url: URL, http: HTTPClient) async throws {
        let page = try await get(url, http: http)
        var form: [String: String] = ["user": "alice", "confirm": "allow"]
        let html = String(decoding: page.body, as: UTF8.self)
        let pattern = /<input type="hidden" name="([^"]+)" value="([^"]*)">/
        for match in html.matches(of: pattern) {
            form[String(match.1)] = String(match.2).replacingOccurrences(of: "&amp;", with: "&")
                .replacingOccurrences(of: "&quot;", with: "\"")
        }
        var request = HTTPClientRequest(url: URL(string: "/authorize", relativeTo: url)!.absoluteURL.absoluteString)
        request.method = .POST
        var components = URLComponents()
        components.queryItems = form.map { URLQueryItem(name: $0.key, value: $0.value) }
        request.headers.add(name: "Content-Type", value: "application/x-www-form-urlencoded")
        request.body = .bytes(
            ByteBuffer(string: (components.percentEncodedQuery ?? "").replacingOccurrences(of: "+", with: "%2B")))
        let answer = try await http.execute(request, timeout: .seconds(30))
        _ = try await answer.body.collect(upTo: 1 << 20)
        guard let location = answer.headers.first(name: "Location"), let redirect = URL(string: location) else {
            throw BenchError("the consent answered \(answer.status)")
        }
        _ = try await get(redirect, http: http)
    }

    private static func get(_ url: URL, http: HTTPClient) async throws -> (status: Int, body: Data) {
        let response = try await http.execute(HTTPClientRequest(url: url.absoluteString), timeout: .seconds(30))
        let body = try await response.body.collect(upTo: 4 << 20)
        return (Int(response.status.code), Data(body.readableBytesView))
    }

    /// Every access token the authorization server issued expires now (the backend still holds
    /// its token as fresh: only the server knows).
    func expireOnServer() async throws {
        var request = HTTPClientRequest(url: issuer.appending(path: "test/expire-access").absoluteString)
        request.method = .POST
        let answer = try await http.execute(request, timeout: .seconds(30))
        _ = try await answer.body.collect(upTo: 1 << 16)
    }

    /// How many refresh grants the authorization server gave so far.
    func refreshes() async throws -> Int {
        let answer = try await Self.get(issuer.appending(path: "test/stats"), http: http)
        let object = try JSONSerialization.jsonObject(with: answer.body) as? [String: Int]
        return object?["refresh_token"] ?? 0
    }

    /// Runs `count` `card(id:)` calls at once; the wall seconds, the refreshes and the 401s.
    func storm(_ count: Int) async throws -> (seconds: Double, refreshes: Int, rejected: Int) {
        let before = try await refreshes()
        let rejectedBefore = counter.unauthorized
        let backend = backend
        let ids = ids
        let clock = ContinuousClock()
        let start = clock.now
        try await withThrowingTaskGroup(of: Void.self) { group in
            for index in 0..<count {
                group.addTask {
                    let id = ids[index % ids.count]
                    let card = try await backend.card(id: id)
                    guard card.id == id else { throw BenchError("asked for card \(id), got \(card.id)") }
                }
            }
            try await group.waitForAll()
        }
        let elapsed = clock.now - start
        let seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
        return (seconds, try await refreshes() - before, counter.unauthorized - rejectedBefore)
    }

    /// Stops everything.
    func stop() async {
        await backend.finishSessionWork()
        try? await http.shutdown()
        try? await transport.shutdown()
        dav.stop()
        authorization.stop()
        folder.remove()
    }
}

/// The live transport, counting the answers of 401.
final class CountingTransport: Transport {
    let base: any Transport
    private let rejected = Mutex(0)

    init(_ base: any Transport) { self.base = base }

    var connectionsPerHost: Int? { base.connectionsPerHost }

    /// How many answers of 401 came back.
    var unauthorized: Int { rejected.withLock { $0 } }

    func send(_ request: Request) async throws -> Response {
        let response = try await base.send(request)
        if response.statusCode == 401 { rejected.withLock { $0 += 1 } }
        return response
    }
}
