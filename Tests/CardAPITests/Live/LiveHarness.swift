import CardAPI
import CardMockServer
import Foundation
import LiveTestSupport
import Networking
import TestSupport
import TokenStore

/// The shared live surroundings (``LiveServer``: the mock server on port 0, a live transport, a
/// private token file) with a manual clock and a logger plugin, for CardAPI's client.
struct LiveHarness {
    let live: LiveServer
    let clock: ManualWallClock
    let log: LoggerPlugin

    var server: RunningMockServer { live.server }
    var transport: LiveTransport { live.transport }
    var folder: TemporaryFolder { live.folder }
    var store: TokenStore { live.store }

    /// Runs `body` against a fresh server and always stops it and the transport.
    static func with(
        _ configuration: MockServerConfiguration = .testing, _ body: (LiveHarness) async throws -> Void
    ) async throws {
        let clock = ManualWallClock()
        try await LiveServer.with(configuration, clock: clock) { live in
            try await body(
                LiveHarness(
                    live: live, clock: clock,
                    log: LoggerPlugin(configuration: .init(tagExtractor: .jsonField("errorCode")))))
        }
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
