import CardAPI
import CardMockServer
import CardModels
import Foundation
import Networking
import TokenStore

/// What §2 measures against: the mock server on a manual wall clock (shared with the client's
/// session), its refresh rate limit off, and one client as the TUI builds it, logged in.
final class StormFixture: Sendable {
    /// How a storm starts.
    enum Start: CaseIterable, Sendable {
        /// The token is fresh: the baseline.
        case fresh
        /// The token has expired and the client knows (its clock is past the expiry the grant
        /// gave): the first call refreshes before sending, the others wait for it.
        case expiredKnown
        /// The server expired the token early and the client does not know: the calls admitted
        /// first (at most K) are answered 401 E04 and retried once after the one refresh; the
        /// others wait for the refresh and go out with the new token.
        case expiredOnServer

        var label: String {
            switch self {
            case .fresh: "fresh token (baseline)"
            case .expiredKnown: "expired, client knows: refresh first"
            case .expiredOnServer: "expired on the server only: 401, refresh, retry"
            }
        }
    }

    /// What the server counted for one storm.
    struct Counts: Sendable {
        var refreshes: Int
        var rejected: Int
        var served: Int
    }

    static let accessTokenLifetime: Duration = .seconds(3600)

    let server: RunningMockServer
    let clock: ManualWallClock
    let app: AppClient
    let email: String
    let ids: [String]
    /// How many card requests the client admits at once (K).
    var admissionLimit: Int { transport.connectionsPerHost ?? .max }
    private let transport: LiveTransport
    private let folder: TemporaryFolder

    private init(
        server: RunningMockServer, clock: ManualWallClock, app: AppClient, email: String, ids: [String],
        transport: LiveTransport, folder: TemporaryFolder
    ) {
        self.server = server
        self.clock = clock
        self.app = app
        self.email = email
        self.ids = ids
        self.transport = transport
        self.folder = folder
    }

    /// Starts the server and logs the client in.
    ///
    /// - Throws: ``BenchError`` when the server does not start or the login fails.
    static func start() async throws -> StormFixture {
        let clock = ManualWallClock()
        var configuration = MockServerConfiguration.testing
        configuration.admin = false
        configuration.accessTokenTTL = .seconds(accessTokenLifetime.components.seconds)
        configuration.refreshTokenTTL = .days(30)
        // The 120-a-minute limit per client would answer 429 to back-to-back storms.
        configuration.limits.refreshesPerMinute = 0
        guard let user = configuration.users.first(where: { $0.password != nil }), let password = user.password else {
            throw BenchError("the test configuration has no user with a password")
        }
        let ids = configuration.seedCards.filter { $0.owner == user.email }.map(\.id)
        let server: RunningMockServer
        do {
            server = try await MockServer.start(configuration: configuration, clock: clock)
        } catch {
            throw BenchError("the mock server did not start: \(error)")
        }
        let transport = LiveTransport(configuration: AppClient.transportConfiguration)
        do {
            let folder = try TemporaryFolder("storm")
            let store = TokenStore(path: folder.path + "/state/cardwallet/tokens.json")
            let app = AppClient(
                server: server.baseURL, store: store, transport: transport, wallClock: SharedClock(clock))
            do {
                try await app.client.login(email: user.email, password: password)
            } catch {
                _ = await app.close()
                folder.remove()
                throw BenchError("logging in to the mock server failed: \(error)")
            }
            return StormFixture(
                server: server, clock: clock, app: app, email: user.email, ids: ids, transport: transport,
                folder: folder)
        } catch {
            try? await transport.shutdown()
            await server.stop()
            throw error
        }
    }

    /// Puts the token in the state `start` describes (not timed).
    func prepare(_ start: Start) async throws {
        switch start {
        case .fresh:
            break
        case .expiredKnown:
            // Past the expiry on both clocks: the server rejects the token, the client sees it.
            clock.advance(by: Self.accessTokenLifetime + .seconds(1))
        case .expiredOnServer:
            // 31 s on, well inside the token's life. (The loop guard counts only refreshed tokens the
            // server rejects, so the storm's refreshes never count; the step keeps runs alike.)
            clock.advance(by: .seconds(31))
            guard let count = try await server.expireAccessTokens(email: email), count > 0 else {
                throw BenchError("the server had no live access token to expire")
            }
        }
    }

    /// Runs `count` `card(id:)` calls at once; returns the wall seconds and what the server counted.
    ///
    /// - Throws: ``BenchError`` when a call fails or returns another card.
    func storm(_ count: Int) async throws -> (seconds: Double, counts: Counts) {
        let before = server.statistics
        let client = app.client
        let ids = ids
        let clock = ContinuousClock()
        let start = clock.now
        try await withThrowingTaskGroup(of: Void.self) { group in
            for index in 0..<count {
                group.addTask {
                    let id = ids[index % ids.count]
                    let card: Card
                    do {
                        card = try await client.card(id: id)
                    } catch {
                        throw BenchError("card(id: \(id)) failed in a storm of \(count): \(error)")
                    }
                    guard card.id == id else { throw BenchError("asked for card \(id), got \(card.id)") }
                }
            }
            try await group.waitForAll()
        }
        let seconds = seconds(from: start, to: clock.now)
        let after = server.statistics
        func delta(_ route: String, _ status: Int? = nil) -> Int {
            status.map { after.count(route, status: $0) - before.count(route, status: $0) }
                ?? after.count(route) - before.count(route)
        }
        let counts = Counts(
            refreshes: delta(LayerFixture.refreshRoute), rejected: delta(LayerFixture.cardRoute, 401),
            served: delta(LayerFixture.cardRoute, 200))
        guard counts.served == count else {
            throw BenchError("the server answered \(counts.served) of \(count) card requests with 200")
        }
        return (seconds, counts)
    }

    /// Seconds one save of the logged-in pair takes in a second token file beside the client's
    /// (the lock, a write, two fsyncs): what the refresh's "saved before used" costs on this disk
    /// right now. Not part of any storm.
    ///
    /// - Throws: ``BenchError`` when the pair cannot be read or saved.
    func probeSave() async throws -> Double {
        guard let item = try? app.client.tokenStore.items().first else {
            throw BenchError("the client stored no token")
        }
        let probe = TokenStore(path: folder.path + "/probe/tokens.json")
        let clock = ContinuousClock()
        let start = clock.now
        do {
            try await probe.save(item)
        } catch {
            throw BenchError("saving to a probe token file failed: \(error)")
        }
        return seconds(from: start, to: clock.now)
    }

    /// Stops everything; returns the log pane's line count.
    func stop() async -> Int {
        let lines = await app.close()
        try? await transport.shutdown()
        await server.stop()
        folder.remove()
        return lines
    }
}

/// The mock server's manual clock as the session's clock: one time for both sides.
struct SharedClock: SessionClock {
    let clock: ManualWallClock

    init(_ clock: ManualWallClock) { self.clock = clock }

    var now: Date { clock.now }
}
