import CardAPIContract
import CardModels
import Foundation
import Networking
import TestSupport
import TokenStore

/// A fake card server behind a `StubTransport`: real token rotation (a reused refresh token
/// ends the session, as the contract says), switchable failures, and counters.
actor FakeCardServer {
    /// How `POST /auth/refresh` answers.
    enum RefreshBehavior: Sendable {
        /// Rotate the pair (a token other than the current one is E06, as reuse).
        case rotate
        /// Always E06.
        case sessionEnded
        /// Answer this instead.
        case respond(StubResponse)
    }

    static let demoUser = User(id: "user-demo", email: "demo@cardwallet.dev", name: "Demo User")
    static let password = "demo1234"

    let wallClock: TestWallClock
    let tokenPrefix: String
    var accessTTL: TimeInterval = 300
    var refreshBehavior: RefreshBehavior = .rotate
    /// Held by every refresh before it answers, when set.
    var refreshGate: Gate?
    /// Card requests to these paths wait for their gate before answering.
    var pathGates: [String: Gate] = [:]
    /// Answers card requests before the normal routes when it returns a response.
    var cardOverride: (@Sendable (Request) -> StubResponse?)?
    /// Whether error messages repeat the token or password they were given (canary tests).
    var echoesSecrets = false
    /// When set, every card request checks the store already holds the token it carries: a
    /// request that changes something (not `GET` or `HEAD`) must never go out before its token's
    /// pair is saved; a read may (its caller hears only after the save, see `PendingSave`).
    var storeToCheck: TokenStore?
    /// Run when a refresh arrives, before it is answered (a test breaks the token file here).
    var onRefresh: (@Sendable () -> Void)?
    /// Whether an access token past its expiry (by the wall clock) gets E04, as a real server's.
    var enforcesExpiry = false

    private(set) var refreshCalls = 0
    private(set) var refreshTokensPresented: [String] = []
    private(set) var savedBeforeUseViolations = 0
    /// Reads that arrived with a token whose pair was not saved yet (allowed).
    private(set) var readsBeforeSave = 0
    private(set) var logoutRequests: [Request] = []
    /// Card requests answered E04 because their access token had expired (``enforcesExpiry``).
    private(set) var expiredTokenRejections = 0
    private var sequence = 0
    private var validAccessTokens: Set<String> = []
    private var accessExpiries: [String: Date] = [:]
    private var currentRefreshToken: String?

    init(wallClock: TestWallClock, tokenPrefix: String = "t") {
        self.wallClock = wallClock
        self.tokenPrefix = tokenPrefix
    }

    // MARK: Test controls

    /// A fresh pair, as a login would give it.
    func issue() -> TokenGrant {
        sequence += 1
        let grant = TokenGrant(
            accessToken: "cwa_\(tokenPrefix)_access_\(sequence)",
            refreshToken: "cwr_\(tokenPrefix)_refresh_\(sequence)",
            accessTokenExpiresAt: wallClock.now.addingTimeInterval(accessTTL),
            refreshTokenExpiresAt: wallClock.now.addingTimeInterval(86_400), user: Self.demoUser)
        validAccessTokens.insert(grant.accessToken)
        accessExpiries[grant.accessToken] = grant.accessTokenExpiresAt
        currentRefreshToken = grant.refreshToken
        return grant
    }

    /// Every access token issued so far now gets E04.
    func expireAccessTokens() { validAccessTokens.removeAll() }

    /// The refresh token stops working (E06), as after a revoke.
    func revokeRefreshToken() { currentRefreshToken = nil }

    func set(refreshBehavior: RefreshBehavior) { self.refreshBehavior = refreshBehavior }
    func set(refreshGate: Gate?) { self.refreshGate = refreshGate }
    func set(gate: Gate, forPath path: String) { pathGates[path] = gate }
    func set(cardOverride: (@Sendable (Request) -> StubResponse?)?) { self.cardOverride = cardOverride }
    func set(echoesSecrets: Bool) { self.echoesSecrets = echoesSecrets }
    func set(storeToCheck: TokenStore?) { self.storeToCheck = storeToCheck }
    func set(onRefresh: (@Sendable () -> Void)?) { self.onRefresh = onRefresh }
    func set(accessTTL: TimeInterval) { self.accessTTL = accessTTL }
    func set(enforcesExpiry: Bool) { self.enforcesExpiry = enforcesExpiry }

    // MARK: Handling

    func handle(_ request: Request) async -> StubResponse {
        switch request.path {
        case "/v1/auth/login": return login(request)
        case "/v1/auth/refresh": return await refresh(request)
        case "/v1/auth/logout":
            logoutRequests.append(request)
            return Self.success(EmptyPayload())
        default: return await card(request)
        }
    }

    private func login(_ request: Request) -> StubResponse {
        guard let body = request.body.data, let credentials = try? JSONDecoder().decode(LoginRequest.self, from: body)
        else { return Self.failure("E01", status: 400, message: "Send JSON.") }
        guard credentials.password == Self.password else {
            let message = echoesSecrets ? "Wrong password \(credentials.password)" : "Wrong email or password."
            return Self.failure("E02", status: 401, message: message)
        }
        return Self.success(issue())
    }

    private func refresh(_ request: Request) async -> StubResponse {
        refreshCalls += 1
        guard let token = request.headers[CardWalletHeader.refreshToken].flatMap(Self.bearer) else {
            return Self.failure("E01", status: 400, message: "Send the refresh token.")
        }
        refreshTokensPresented.append(token)
        onRefresh?()
        if let refreshGate { await refreshGate.wait() }
        switch refreshBehavior {
        case .respond(let response): return response
        case .sessionEnded: return Self.failure("E06", status: 401, message: "Log in again.")
        case .rotate:
            guard token == currentRefreshToken else {
                currentRefreshToken = nil
                validAccessTokens.removeAll()
                return Self.failure("E06", status: 401, message: "The refresh token was already used. Log in again.")
            }
            return Self.success(issue())
        }
    }

    private func card(_ request: Request) async -> StubResponse {
        if let gate = pathGates[request.path] { await gate.wait() }
        let token = request.headers["Authorization"].flatMap(Self.bearer)
        if let store = storeToCheck, let token, (try? store.items().first?.accessToken) != token {
            if request.method == .get || request.method == .head {
                readsBeforeSave += 1
            } else {
                savedBeforeUseViolations += 1
            }
        }
        if let cardOverride, let response = cardOverride(request) { return response }
        let expired = enforcesExpiry && token.flatMap { accessExpiries[$0] }.map { $0 <= wallClock.now } == true
        if expired { expiredTokenRejections += 1 }
        guard let token, validAccessTokens.contains(token), !expired else {
            let message = echoesSecrets ? "Token \(token ?? "") expired." : "The access token has expired."
            return Self.failure("E04", status: 401, message: message)
        }
        return route(request)
    }

    private func route(_ request: Request) -> StubResponse {
        let now = wallClock.now
        let path = request.path
        switch (request.method, path) {
        case (.get, "/v1/cards"):
            let summary = Self.card(id: "card_1", at: now).summary
            return Self.success(APICardPage(cards: [summary], total: 1, offset: 0, limit: 50))
        case (.put, "/v1/cards"):
            let order = request.body.data.flatMap { try? JSONDecoder().decode(ReorderRequest.self, from: $0) }
            return Self.success(order ?? ReorderRequest(order: []))
        case (.post, "/v1/card"):
            var card = Self.card(id: "card_new", at: now)
            card.version = 1
            return Self.success(card, status: 201)
        case (.put, _) where path.hasSuffix("/image"), (.delete, _) where path.hasSuffix("/image"):
            // `/v1/card/{id}/image`: the card with or without an image, one version on.
            let components = path.split(separator: "/")
            var card = Self.card(id: String(components[components.count - 2]), at: now)
            card.version = (request.headers["If-Match"].flatMap(EntityTag.version(from:)) ?? 0) + 1
            card.hasImage = request.method == .put
            card.image =
                card.hasImage ? CardImageInfo(contentType: request.headers["Content-Type"] ?? "", size: 1) : nil
            return Self.success(card)
        case (.get, _) where path.hasSuffix("/image"):
            return StubResponse(
                statusCode: 200, headers: ["Content-Type": "image/png", "ETag": "\"3\""], body: Fixtures.png)
        case (.get, _):
            return Self.success(Self.card(id: String(path.split(separator: "/").last ?? ""), at: now))
        case (.put, _):
            var card = Self.card(id: String(path.split(separator: "/").last ?? ""), at: now)
            card.version = (request.headers["If-Match"].flatMap(EntityTag.version(from:)) ?? 0) + 1
            return Self.success(card)
        case (.delete, _):
            return Self.success(EmptyPayload())
        default:
            return Self.failure("E01", status: 404, message: "No such endpoint.")
        }
    }

    // MARK: Building answers

    static func card(id: String, at date: Date) -> APICard {
        APICard(
            id: id, fields: CardFields(name: "Ada Lovelace", company: "Analytical Engines"), createdAt: date,
            updatedAt: date, version: 3)
    }

    static func success<Payload: Codable & Sendable>(_ data: Payload, status: Int = 200) -> StubResponse {
        let body = (try? CardWalletJSON.encoder().encode(SuccessEnvelope(status: status, data: data))) ?? Data()
        return StubResponse(statusCode: status, headers: ["Content-Type": "application/json"], body: body)
    }

    static func failure(
        _ code: String, status: Int, message: String, fields: [String: String]? = nil, headers: Headers = Headers()
    ) -> StubResponse {
        let envelope = ErrorEnvelope(
            status: status, errorCode: ErrorCode(rawValue: code), message: message, fields: fields)
        let body = (try? CardWalletJSON.encoder().encode(envelope)) ?? Data()
        var headers = headers
        headers["Content-Type"] = "application/json"
        return StubResponse(statusCode: status, headers: headers, body: body)
    }

    static func bearer(_ value: String) -> String? {
        value.hasPrefix("Bearer ") ? String(value.dropFirst(7)) : nil
    }
}
