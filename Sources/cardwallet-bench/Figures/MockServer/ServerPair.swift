import AsyncHTTPClient
import CardAPIContract
import CardMockServer
import CardModels
import Foundation
import NIOCore
import NIOFoundationEssentialsCompat
import NIOHTTP1

/// The in-process mock server, logged in, and a bare Hummingbird route serving the mock's own
/// answers from memory: the two sides of §5.
struct ServerPair: Sendable {
    /// A route measured on both servers.
    struct Route: Sendable {
        /// How the tables name it.
        var label: String
        /// The path, the same on both servers, e.g. `/v1/card/demo-01`.
        var path: String
    }

    /// The mock server.
    let mock: RunningMockServer
    /// The baseline.
    let bare: BareServer
    /// `Authorization: Bearer …` for the mock's card routes (never printed).
    let headers: HTTPHeaders
    /// The measured routes.
    let routes: [Route]
    /// What each route answers, by path.
    let replies: [String: BareServer.Reply]

    /// `http://127.0.0.1:PORT` of the mock server.
    var mockBase: String { "http://127.0.0.1:\(mock.port)" }
    /// `http://127.0.0.1:PORT` of the bare route.
    var bareBase: String { "http://127.0.0.1:\(bare.port)" }

    /// Starts the mock server on a free port, logs in as the first demo user, reads its answers
    /// to `GET /card/{id}` (the user's first card) and `GET /cards`, and starts the bare route
    /// with those bytes.
    ///
    /// - Throws: ``BenchError`` when a server does not start or an answer is not 200.
    static func start(client: HTTPClient) async throws -> ServerPair {
        var configuration = MockServerConfiguration.testing
        configuration.admin = false
        // Long enough that no token expires during a run (the default is 5 minutes).
        configuration.accessTokenTTL = .hours(12)
        guard let user = configuration.users.first(where: { $0.password != nil }), let password = user.password,
            let cardID = configuration.seedCards.first(where: { $0.owner == user.email })?.id
        else { throw BenchError("the test configuration has no user with a password and a card") }

        let mock: RunningMockServer
        do {
            mock = try await MockServer.start(configuration: configuration)
        } catch {
            throw BenchError("the mock server did not start: \(error)")
        }
        do {
            let base = mock.baseURLString
            var headers = HTTPHeaders()
            headers.add(
                name: "Authorization", value: "Bearer " + (try await logIn(base, user.email, password, client: client)))
            let routes = [
                Route(label: "GET /card/{id}", path: "/v1/card/\(cardID)"),
                Route(label: "GET /cards", path: "/v1/cards"),
            ]
            var replies: [String: BareServer.Reply] = [:]
            for route in routes {
                replies[route.path] = try await reply(
                    "http://127.0.0.1:\(mock.port)" + route.path, headers: headers, client: client)
            }
            let bare = try await BareServer.start(replies: replies)
            return ServerPair(mock: mock, bare: bare, headers: headers, routes: routes, replies: replies)
        } catch {
            await mock.stop()
            throw error
        }
    }

    /// Stops both servers.
    func stop() async {
        await bare.stop()
        await mock.stop()
    }

    /// Logs in and returns the access token (kept in memory only, never printed).
    static func logIn(_ base: String, _ email: String, _ password: String, client: HTTPClient) async throws -> String {
        var request = HTTPClientRequest(url: base + "/auth/login")
        request.method = .POST
        request.headers.add(name: "Content-Type", value: "application/json")
        request.body = .bytes(
            ByteBuffer(bytes: try CardWalletJSON.encoder().encode(LoginRequest(email: email, password: password))))
        let response = try await client.execute(request, timeout: .seconds(30))
        let body = try await response.body.collect(upTo: 1 << 20)
        guard response.status == .ok,
            let grant = try? CardWalletJSON.decoder().decode(SuccessEnvelope<TokenGrant>.self, from: Data(buffer: body))
        else { throw BenchError("logging in to the mock server answered \(response.status.code)") }
        return grant.data.accessToken
    }

    /// The mock server's answer to `GET url`, to serve again from the bare route.
    private static func reply(_ url: String, headers: HTTPHeaders, client: HTTPClient) async throws -> BareServer.Reply
    {
        var request = HTTPClientRequest(url: url)
        request.headers = headers
        let response = try await client.execute(request, timeout: .seconds(30))
        let body = try await response.body.collect(upTo: 16 << 20)
        guard response.status == .ok, let type = response.headers.first(name: "Content-Type") else {
            throw BenchError("GET \(url) answered \(response.status.code)")
        }
        return BareServer.Reply(contentType: type, body: body)
    }
}
