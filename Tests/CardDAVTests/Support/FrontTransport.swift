import AsyncHTTPClient
import Foundation
import NIOSSL
import Networking
import TestSupport

/// A live transport that reaches the https front of `scripts/carddav-server.py --front` under
/// its host names: AsyncHTTPClient's DNS override maps each name to 127.0.0.1 (the certificate
/// is still checked for the name), and the run's certificate authority is the one trust root.
/// No redirect is followed by the transport: the client decides, as in the program.
enum FrontTransport {
    /// Runs `body` with such a transport, and shuts its client down afterwards.
    static func with<Result: Sendable>(
        _ server: DAVServerProcess, hosts: [String], _ body: (LiveTransport) async throws -> Result
    ) async throws -> Result {
        guard let authority = server.front?.authority else {
            throw TestFailure("scripts/carddav-server.py started no https front")
        }
        var configuration = HTTPClient.Configuration()
        var tls = TLSConfiguration.makeClientConfiguration()
        tls.trustRoots = .certificates(try NIOSSLCertificate.fromPEMFile(authority))
        configuration.tlsConfiguration = tls
        configuration.dnsOverride = Dictionary(uniqueKeysWithValues: hosts.map { ($0, "127.0.0.1") })
        configuration.redirectConfiguration = .disallow
        configuration.decompression = .disabled
        let client = HTTPClient(eventLoopGroup: HTTPClient.defaultEventLoopGroup, configuration: configuration)
        let transport = LiveTransport(client: client)
        do {
            let result = try await body(transport)
            try await client.shutdown()
            return result
        } catch {
            try? await client.shutdown()
            throw error
        }
    }
}
