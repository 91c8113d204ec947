import CardModels
import Foundation
import LiveTestSupport
import Logging
import Networking
import Synchronization
import TestSupport
import TokenStore

@testable import CardAPI

/// A fake server behind a stub transport, a private token file, and clocks the test moves.
struct Harness {
    static let server = URL(string: "http://cards.test/v1")!

    let folder: TemporaryFolder
    let fake: FakeCardServer
    let wallClock: TestWallClock
    let clock: TestClock
    let stub: StubTransport
    let store: TokenStore

    /// - Parameter connectionsPerHost: what the stub transport reports, so the card provider
    ///   admits that many requests at once (`nil`: no limit).
    init(tokenPrefix: String = "t", connectionsPerHost: Int? = nil) throws {
        folder = try TemporaryFolder("cardapi")
        let wallClock = TestWallClock()
        self.wallClock = wallClock
        let fake = FakeCardServer(wallClock: wallClock, tokenPrefix: tokenPrefix)
        self.fake = fake
        clock = TestClock()
        stub = StubTransport(connectionsPerHost: connectionsPerHost) { request in await fake.handle(request) }
        store = folder.tokenStore
    }

    /// Runs `body` with a fresh harness and always removes its folder.
    static func with<T>(
        tokenPrefix: String = "t", connectionsPerHost: Int? = nil, _ body: (Harness) async throws -> T
    ) async throws -> T {
        let harness = try Harness(tokenPrefix: tokenPrefix, connectionsPerHost: connectionsPerHost)
        defer { harness.folder.remove() }
        return try await body(harness)
    }

    /// A client on the stub, with the test's clocks.
    func client(
        plugins: [any Plugin] = [], policy: SessionPolicy = SessionPolicy(), account: String? = nil,
        logger: Logger? = nil, requestsPerHost: Int? = nil
    ) -> CardAPIClient {
        // A stub transport: nothing crosses a network, so the plain-http rule does not apply.
        let configuration = CardAPIConfiguration(
            server: Self.server, account: account, session: policy, allowsInsecureHTTP: true,
            requestsPerHost: requestsPerHost)
        if let logger {
            return CardAPIClient(
                configuration: configuration, tokenStore: store, transport: stub, plugins: plugins,
                wallClock: wallClock, clock: clock, logger: logger)
        }
        return CardAPIClient(
            configuration: configuration, tokenStore: store, transport: stub, plugins: plugins, wallClock: wallClock,
            clock: clock)
    }

    /// Stores a pair the fake server issued, as a login would have.
    ///
    /// - Parameter expired: whether the access token is already past its expiry by the wall clock.
    @discardableResult
    func seedTokens(expired: Bool = false) async throws -> TokenItem {
        let grant = await fake.issue()
        let item = TokenItem(
            server: Self.server.absoluteString, account: grant.user.email, accessToken: grant.accessToken,
            accessTokenExpiresAt: expired ? wallClock.now.addingTimeInterval(-10) : grant.accessTokenExpiresAt,
            refreshToken: grant.refreshToken, refreshTokenExpiresAt: grant.refreshTokenExpiresAt,
            userID: grant.user.id, displayName: grant.user.name)
        try await store.save(item)
        return item
    }

    /// The requests sent so far to paths ending in `suffix`.
    func requests(to suffix: String) -> [Request] {
        stub.requests.filter { $0.path.hasSuffix(suffix) }
    }

    var refreshRequests: [Request] { requests(to: "/auth/refresh") }

    var cardRequests: [Request] { stub.requests.filter { !$0.path.contains("/auth/") } }
}

/// The bearer token of a request's `Authorization` header.
func bearer(_ request: Request) -> String? {
    request.headers["Authorization"].flatMap(FakeCardServer.bearer)
}

/// Records a session's states as its sink: the state when attached, then every change.
final class StateRecorder: SessionStateSink {
    private let storage: Mutex<[SessionState]>

    /// Records `client`'s session: its state now, then every change it reports.
    init(_ client: CardAPIClient) {
        storage = Mutex([client.session.state])
        client.session.report(to: self)
    }

    func sessionChanged(_ state: SessionState) {
        storage.withLock { $0.append(state) }
    }

    var states: [SessionState] { storage.withLock { $0 } }

    func count(where predicate: (SessionState) -> Bool) -> Int { states.filter(predicate).count }
}

extension SessionState {
    var isExpired: Bool {
        if case .expired = self { return true }
        return false
    }

    var isRefreshing: Bool {
        if case .refreshing = self { return true }
        return false
    }

    var isLoggedIn: Bool {
        if case .loggedIn = self { return true }
        return false
    }
}
