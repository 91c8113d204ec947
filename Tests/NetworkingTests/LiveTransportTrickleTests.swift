import Foundation
import Networking
import TestSupport
import Testing

/// A server that answers too slowly, byte by byte: the whole exchange, body included, stays
/// under the request's deadline, and each timeout says what happened.
@Suite struct LiveTransportTrickleTests {
    static let head = "HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: 100000\r\n\r\n{"

    /// Headers, then a byte every 100 ms: the read timeout never fires, the deadline does, and
    /// the connection is closed. It used to run for as long as the server kept trickling.
    @Test func aTrickledBodyEndsAtTheDeadline() async throws {
        let server = try TrickleServer(prefix: Self.head, every: .milliseconds(100))
        defer { server.stop() }
        var configuration = LiveTransport.Configuration()
        configuration.requestTimeout = .seconds(2)
        let clock = ContinuousClock()
        let started = clock.now
        let failure = try await Self.failure(of: .status(200), port: server.port, configuration: configuration)
        #expect(clock.now - started >= .seconds(2))
        #expect(failure.kind == .timedOut)
        #expect(failure.statusCode == 200)
        #expect(failure.reason.contains("the answer was still arriving after 2 s"), "\(failure.reason)")
        try await waitUntil("the client to close the connection") { server.clientsGone == 1 }
    }

    /// A target's own timeout bounds its body too (the auth calls' 20 s).
    @Test func aTargetTimeoutBoundsTheBodyToo() async throws {
        let server = try TrickleServer(prefix: Self.head, every: .milliseconds(100))
        defer { server.stop() }
        let failure = try await Self.failure(of: .withTimeout(.milliseconds(1500)), port: server.port)
        #expect(failure.kind == .timedOut)
        #expect(failure.reason.contains("after 1500 ms"), "\(failure.reason)")
    }

    /// A head that trickles in never completes, and the read timeout says so, rather than
    /// "the server sent nothing" (AsyncHTTPClient's read timer counts whole parts, not bytes).
    @Test func aTrickledHeadIsReportedAsAnIncompleteHeader() async throws {
        let server = try TrickleServer(
            prefix: "HTTP/1.1 200 OK\r\nX-Slow: ", byte: UInt8(ascii: "a"), every: .milliseconds(100))
        defer { server.stop() }
        var configuration = LiveTransport.Configuration()
        configuration.readTimeout = .seconds(1)
        configuration.requestTimeout = .seconds(60)
        let failure = try await Self.failure(of: .status(200), port: server.port, configuration: configuration)
        #expect(failure.kind == .timedOut)
        #expect(failure.reason == "the server did not send a complete response header within 1 s")
        #expect(failure.statusCode == nil)
    }

    /// A body that stops arriving is told apart from a head that never came.
    @Test func aStalledBodyIsReportedAsSuch() async throws {
        let server = try TrickleServer(prefix: Self.head, every: nil)
        defer { server.stop() }
        var configuration = LiveTransport.Configuration()
        configuration.readTimeout = .seconds(1)
        let failure = try await Self.failure(of: .status(200), port: server.port, configuration: configuration)
        #expect(failure.kind == .timedOut)
        #expect(failure.reason == "the server sent no more of its answer for 1 s")
    }

    /// The failure of one request to the trickle server.
    static func failure(
        of target: TestAPI, port: Int, configuration: LiveTransport.Configuration = LiveTransport.Configuration(),
        sourceLocation: SourceLocation = #_sourceLocation
    ) async throws -> TransportFailure {
        try await LiveTransport.withTransport(configuration: configuration) { transport in
            do {
                _ = try await Provider<Endpoint>(transport: transport).request(Endpoint(port: port, target))
            } catch let error as NetworkError {
                if case .transport(let failure) = error { return failure }
                Issue.record("unexpected \(error)", sourceLocation: sourceLocation)
                throw error
            }
            Issue.record("expected a failure", sourceLocation: sourceLocation)
            throw CancellationError()
        }
    }
}
