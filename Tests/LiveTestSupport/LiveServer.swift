public import CardMockServer
import Foundation
public import Networking
public import TestSupport
public import TokenStore

/// The surroundings every live test needs: the mock server in-process on 127.0.0.1 port 0, a
/// live transport, and a private folder for the token file. CardAPITests (`LiveHarness`) and
/// CardWalletLiveTests (`GlueHarness`) build their own pieces (a logger, a client, a performer
/// and its sink) on this one.
public struct LiveServer: Sendable {
    /// The running server.
    public let server: RunningMockServer
    /// One transport for every client of the test.
    public let transport: LiveTransport
    /// The test's private folder (0700), holding `tokens.json`.
    public let folder: TemporaryFolder

    /// The token store in ``folder``.
    public var store: TokenStore { folder.tokenStore }
    /// The server's base URL as text, for login forms.
    public var url: String { server.baseURLString }

    /// Starts a fresh server, runs `body`, and always stops the transport and the server and
    /// removes the folder, whether `body` returns or throws.
    ///
    /// - Parameters:
    ///   - configuration: the server's settings (`.testing` by default: port 0, demo data).
    ///   - clock: the server's wall clock (the system's by default; a `ManualWallClock` to move
    ///     tokens past their expiry).
    ///   - body: the test.
    public static func with<Result>(
        _ configuration: MockServerConfiguration = .testing, clock: any WallClock = SystemWallClock(),
        _ body: (LiveServer) async throws -> Result
    ) async throws -> Result {
        let server = try await MockServer.start(configuration: configuration, clock: clock)
        let folder: TemporaryFolder
        do {
            folder = try TemporaryFolder("live")
        } catch {
            await server.stop()
            throw error
        }
        let live = LiveServer(server: server, transport: LiveTransport(), folder: folder)
        let outcome: Swift.Result<Result, any Error>
        do {
            outcome = .success(try await body(live))
        } catch {
            outcome = .failure(error)
        }
        try? await live.transport.shutdown()
        await server.stop()
        folder.remove()
        return try outcome.get()
    }
}

extension TemporaryFolder {
    /// A token store on `tokens.json` in this folder (a generous lock timeout for loaded machines).
    public var tokenStore: TokenStore { TokenStore(path: path("tokens.json"), lockTimeout: .seconds(60)) }
}
