import AsyncHTTPClient
import NIOCore
import NIOHTTP1

/// A closed-loop HTTP load generator: `concurrency` workers, each sending the next request as
/// soon as the previous answer is read, for a fixed time.
struct LoadGenerator: Sendable {
    /// The client; its pool keeps at least `concurrency` connections per host.
    let client: HTTPClient

    /// A client whose pool allows `connections` connections per host.
    static func makeClient(connections: Int) -> HTTPClient {
        var configuration = HTTPClient.Configuration()
        configuration.connectionPool = .init(
            idleTimeout: .seconds(120), concurrentHTTP1ConnectionsPerHostSoftLimit: max(8, connections))
        configuration.decompression = .disabled
        return HTTPClient(configuration: configuration)
    }

    /// Requests per second of `GET url` over `seconds`, with `concurrency` requests in flight.
    ///
    /// - Parameters:
    ///   - url: what to get.
    ///   - headers: sent with every request (the bearer token; never printed).
    ///   - bodyBytes: the length every answer must have.
    /// - Throws: ``BenchError`` when an answer is not 200 or not `bodyBytes` long.
    func requestsPerSecond(
        _ url: String, headers: HTTPHeaders, bodyBytes: Int, concurrency: Int, seconds duration: Double
    ) async throws -> Double {
        var request = HTTPClientRequest(url: url)
        request.headers = headers
        let clock = ContinuousClock()
        let start = clock.now
        let deadline = start.advanced(by: .nanoseconds(Int64(duration * 1e9)))
        let completed = try await withThrowingTaskGroup(of: Int.self) { group in
            for _ in 0..<concurrency {
                group.addTask { [client, request] in
                    var count = 0
                    while clock.now < deadline {
                        try await Self.fetch(request, client: client, bodyBytes: bodyBytes)
                        count += 1
                    }
                    return count
                }
            }
            return try await group.reduce(0, +)
        }
        return Double(completed) / seconds(from: start, to: clock.now)
    }

    /// Sends `request` and reads the whole answer.
    ///
    /// - Throws: ``BenchError`` when it is not 200 or not `bodyBytes` long.
    static func fetch(_ request: HTTPClientRequest, client: HTTPClient, bodyBytes: Int) async throws {
        let response: HTTPClientResponse
        let body: ByteBuffer
        do {
            response = try await client.execute(request, timeout: .seconds(30))
            body = try await response.body.collect(upTo: 16 << 20)
        } catch {
            throw BenchError("GET \(request.url) failed: \(error)")
        }
        guard response.status == .ok, body.readableBytes == bodyBytes else {
            throw BenchError(
                "GET \(request.url) answered \(response.status.code) with \(body.readableBytes) bytes, expected 200 with \(bodyBytes)"
            )
        }
    }
}
