import AsyncHTTPClient
import CardAPI
import CardMockServer
import CardModels
import Foundation
import Networking
import TokenStore

/// What §1 measures against: the in-process mock server, a logged-in token store in a temporary
/// folder, and the variants from the raw client up to the whole client as the TUI builds it.
final class LayerFixture: Sendable {
    /// The server's statistics keys for the routes §1 checks.
    static let cardRoute = "GET /card/{cardId}"
    static let refreshRoute = "POST /auth/refresh"

    let server: RunningMockServer
    let folder: TemporaryFolder
    /// The ids fetched, in turn: the demo user's cards.
    let ids: [String]
    /// Baseline first; ``judged`` are the rows held to the target: the stack
    /// (CardAPI with the logger plugin) and the whole client as the TUI builds it.
    let variants: [FetchVariant]
    /// The position of the TUI's client in ``variants``.
    let judged: Set<Int>
    private let shared: HTTPClient
    private let transport: LiveTransport
    private let ownTransport: LiveTransport
    private let apps: [AppClient]

    private init(
        server: RunningMockServer, folder: TemporaryFolder, ids: [String], variants: [FetchVariant], judged: Set<Int>,
        shared: HTTPClient, transport: LiveTransport, ownTransport: LiveTransport, apps: [AppClient]
    ) {
        self.server = server
        self.folder = folder
        self.ids = ids
        self.variants = variants
        self.judged = judged
        self.shared = shared
        self.transport = transport
        self.ownTransport = ownTransport
        self.apps = apps
    }

    /// Starts the server (access tokens live 12 hours, so none is refreshed during a run), logs
    /// in, and builds the variants.
    ///
    /// - Throws: ``BenchError`` when the server does not start or the login fails.
    static func start() async throws -> LayerFixture {
        var configuration = MockServerConfiguration.testing
        configuration.admin = false
        configuration.accessTokenTTL = .hours(12)
        guard let user = configuration.users.first(where: { $0.password != nil }), let password = user.password else {
            throw BenchError("the test configuration has no user with a password")
        }
        let ids = configuration.seedCards.filter { $0.owner == user.email }.map(\.id)
        guard !ids.isEmpty else { throw BenchError("the demo user has no cards") }
        let server: RunningMockServer
        do {
            server = try await MockServer.start(configuration: configuration)
        } catch {
            throw BenchError("the mock server did not start: \(error)")
        }
        let folder: TemporaryFolder
        do {
            folder = try TemporaryFolder("layer")
        } catch {
            await server.stop()
            throw error
        }
        // One HTTPClient, configured as LiveTransport configures its own, under both the raw
        // baseline and the transport: both then use the same pooled connections. With a client
        // each, which event loop each client's connection (and the server's end of it) lands on
        // is luck, and that luck moves a ratio by up to ±10 % between runs.
        let shared = AppClient.httpClient()
        let transport = LiveTransport(client: shared, configuration: AppClient.transportConfiguration)
        let ownTransport = LiveTransport(configuration: AppClient.transportConfiguration)
        do {
            let store = TokenStore(path: folder.path + "/state/cardwallet/tokens.json")
            let plain = CardAPIClient(
                configuration: CardAPIConfiguration(server: server.baseURL), tokenStore: store, transport: transport)
            try await plain.login(email: user.email, password: password)
            guard let token = try store.items().first?.accessToken else {
                throw BenchError("the login stored no token")
            }
            let apps = [
                AppClient(server: server.baseURL, store: store, transport: transport),
                AppClient(server: server.baseURL, store: store, transport: ownTransport),
                AppClient(server: server.baseURL, store: store, transport: transport, logPane: false),
            ]
            let variants: [FetchVariant] = [
                .raw(client: shared, server: server.baseURL, token: token),
                .transport(transport, server: server.baseURL, token: token),
                .provider(transport, server: server.baseURL, token: token),
                .provider(transport, server: server.baseURL, token: token, unlimited: true),
                .client(plain, label: "CardAPIClient, no plugins"),
                .app(apps[2], label: "CardAPIClient + LoggerPlugin, no subscriber"),
                .app(apps[0], label: "CardAPIClient + LoggerPlugin + log pane (the TUI's client)"),
                .app(apps[1], label: "the same on its own LiveTransport (as LiveBackends.make)"),
            ]
            return LayerFixture(
                server: server, folder: folder, ids: ids, variants: variants, judged: [5, 6], shared: shared,
                transport: transport, ownTransport: ownTransport, apps: apps)
        } catch {
            try? await ownTransport.shutdown()
            try? await shared.shutdown()
            await server.stop()
            folder.remove()
            throw error is BenchError ? error : BenchError("logging in to the mock server failed: \(error)")
        }
    }

    /// How many log lines the log panes made, summed (a sanity check that they were busy).
    func stop() async -> Int {
        var lines = 0
        for app in apps { lines += await app.close() }
        try? await ownTransport.shutdown()
        try? await transport.shutdown()
        try? await shared.shutdown()
        await server.stop()
        folder.remove()
        return lines
    }
}
