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

    /// Sends `request` as ``send(_:)`` does, and calls `headArrived` with the answer's status as
    /// soon as its head is known — before the body has been read — from whatever thread the
    /// transport learns it on (an event loop for ``LiveTransport``). It must be cheap and must
    /// not block. A ``Provider`` uses it to hand its admission slot to the next request in line
    /// while the body of an accepted answer is still being read. Default: ``send(_:)``, and
    /// `headArrived` is never called.
    func send(_ request: Request, headArrived: @escaping @Sendable (Int) -> Void) async throws -> Response

    /// How many requests to one host this transport carries at once (its connections per
    /// host), or `nil` if it does not limit them. A ``Provider`` admits this many requests per
    /// host at a time by default (see ``Admission``). Default: `nil`.
    var connectionsPerHost: Int? { get }
}

extension Transport {
    /// No limit.
    public var connectionsPerHost: Int? { nil }

    /// Sends without telling anyone when the head arrives.
    public func send(_ request: Request, headArrived: @escaping @Sendable (Int) -> Void) async throws -> Response {
        try await send(request)
    }
}
