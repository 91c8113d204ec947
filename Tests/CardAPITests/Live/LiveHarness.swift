import CardAPI
import CardMockServer
import Foundation
import Networking
import TokenStore

/// The mock server in-process on 127.0.0.1 port 0 with a manual clock, a live transport, a
/// logger plugin and a private token file.
struct LiveHarness {
    let server: RunningMockServer
    let clock: ManualWallClock
    let transport: LiveTransport
    let log: LoggerPlugin
    let folder: TemporaryFolder

    var store: TokenStore { folder.tokenStore }

    /// Runs `body` against a fresh server and always stops it and the transport.
    static func with(
        _ configuration: MockServerConfiguration = .testing, _ body: (LiveHarness) async throws -> Void
    ) async throws {
        let clock = ManualWallClock()
        let server = try await MockServer.start(configuration: configuration, clock: clock)
        let folder = try TemporaryFolder()
        let harness = LiveHarness(
            server: server, clock: clock, transport: LiveTransport(),
            log: LoggerPlugin(configuration: .init(tagExtractor: .jsonField("errorCode"))),
            folder: folder)
        var failure: (any Error)?
        do {
            try await body(harness)
        } catch {
            failure = error
        }
        try? await harness.transport.shutdown()
        await server.stop()
        folder.remove()
        if let failure { throw failure }
    }

    /// A client for the server, on the shared transport, logging through the plugin.
    func client(account: String? = nil) -> CardAPIClient {
        let clock = self.clock
        return CardAPIClient(
            configuration: CardAPIConfiguration(server: server.baseURL, account: account), tokenStore: store,
            transport: transport, plugins: [log], wallClock: BorrowedWallClock { clock.now })
    }

    /// Successful refreshes the server answered.
    var refreshes: Int { server.statistics.count("POST /auth/refresh", status: 200) }
    /// Refresh requests of any outcome.
    var refreshAttempts: Int { server.statistics.count("POST /auth/refresh") }
}
