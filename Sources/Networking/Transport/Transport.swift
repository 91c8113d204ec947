/// Sends a request and returns the server's response, whatever its status: the bottom of the
/// stack, below plugins, interceptors and validation.
///
/// ``LiveTransport`` speaks HTTP through AsyncHTTPClient; ``StubTransport`` answers from a
/// closure. A transport must honour task cancellation (cancel the exchange, throw
/// `CancellationError` or ``NetworkError/cancelled``).
public protocol Transport: Sendable {
    /// Sends `request` and returns the response.
    ///
    /// - Throws: preferably ``NetworkError``; any other error is wrapped as a
    ///   ``NetworkError/transport(_:)`` failure of kind `other`.
    func send(_ request: Request) async throws -> Response

    /// How many requests to one host this transport carries at once (its connections per
    /// host), or `nil` if it does not limit them. A ``Provider`` admits this many requests per
    /// host at a time by default (see ``Admission``). Default: `nil`.
    var connectionsPerHost: Int? { get }
}

extension Transport {
    /// No limit.
    public var connectionsPerHost: Int? { nil }
}
