public import Foundation

/// Makes requests for one kind of target: builds each request once, runs the plugins and
/// interceptors, sends it through a ``Transport`` (or a stub) and validates the status.
///
/// ```swift
/// let transport = LiveTransport()
/// let logger = LoggerPlugin()
/// let cards = Provider<CardService>(transport: transport, plugins: [logger], interceptors: [auth])
/// let auth = Provider<AuthService>(transport: transport, plugins: [logger])   // same pipe, no auth
/// let card: Card = try await cards.request(.card(id: "abc"), as: Card.self, atKeyPath: "data")
/// ```
///
/// A provider is a small `Sendable` value; copies share the transport, plugins, in-flight table
/// and ``admission``. Cancelling the calling task cancels the exchange on the wire, or takes a
/// request still waiting for admission out of the line.
public struct Provider<Target: TargetType>: Sendable {
    /// The transport used for targets that are not stubbed.
    public let transport: any Transport
    /// The plugins, in hook order.
    public let plugins: [any Plugin]
    /// The interceptors, in order.
    public let interceptors: [any Interceptor]
    /// Whether and how each target is stubbed.
    public let stubBehavior: @Sendable (Target) -> StubBehavior
    /// What a stubbed target answers; by default status 200 with the target's `sampleData`.
    public let stubResponse: @Sendable (Target, Request) async throws -> StubResponse
    /// The clock for retry and stub delays.
    public let clock: any Clock<Duration>
    /// The most retries of one request, whatever interceptors decide.
    public let maximumRetries: Int
    /// How many requests per host are adapted and sent at once, and who waits (see ``Admission``).
    public let admission: Admission
    let inflight: InflightTable?

    /// A provider.
    ///
    /// - Parameters:
    ///   - transport: Where requests go, shared by any number of providers.
    ///   - plugins: Observers, called in this order (see ``Plugin``).
    ///   - interceptors: Adapters and retriers, called in this order (see ``Interceptor``).
    ///   - stubBehavior: Per target: ``StubBehavior/never`` (the default) uses `transport`;
    ///     otherwise the target is answered by `stubResponse`, still through every plugin,
    ///     interceptor and validation.
    ///   - stubResponse: The answer for a stubbed target; by default 200 with `sampleData`.
    ///   - clock: Measures retry and stub delays; inject a test clock to control them.
    ///   - trackInflights: Whether identical `GET`s in flight at once (same URL and headers, as
    ///     built from the target) share one exchange. Callers who join get the first caller's
    ///     result without running any plugin or interceptor themselves, so a log shows one
    ///     exchange; the exchange is cancelled only when every caller has cancelled.
    ///   - maximumRetries: The cap on retries per request (default 3, so at most 4 attempts).
    ///   - admission: How many requests per host run at once; by default a new ``Admission``
    ///     with the transport's ``Transport/connectionsPerHost``. Pass one you made to share it
    ///     with an interceptor (which may hold its gate during a token refresh) or other providers.
    public init(
        transport: any Transport,
        plugins: [any Plugin] = [],
        interceptors: [any Interceptor] = [],
        stubBehavior: @escaping @Sendable (Target) -> StubBehavior = { _ in .never },
        stubResponse: @escaping @Sendable (Target, Request) async throws -> StubResponse = { target, _ in
            StubResponse(statusCode: 200, body: target.sampleData)
        },
        clock: any Clock<Duration> = ContinuousClock(),
        trackInflights: Bool = false,
        maximumRetries: Int = 3,
        admission: Admission? = nil
    ) {
        self.transport = transport
        self.plugins = plugins
        self.interceptors = interceptors
        self.stubBehavior = stubBehavior
        self.stubResponse = stubResponse
        self.clock = clock
        self.maximumRetries = max(0, maximumRetries)
        self.inflight = trackInflights ? InflightTable() : nil
        self.admission = admission ?? Admission(for: transport)
    }

    /// A provider that stubs every target with `behavior` and has no live transport.
    public static func stubbed(
        _ behavior: StubBehavior = .immediate,
        plugins: [any Plugin] = [],
        interceptors: [any Interceptor] = [],
        stubResponse: @escaping @Sendable (Target, Request) async throws -> StubResponse = { target, _ in
            StubResponse(statusCode: 200, body: target.sampleData)
        },
        clock: any Clock<Duration> = ContinuousClock()
    ) -> Provider {
        Provider(
            transport: StubTransport(.networkFailure(.other, reason: "no live transport: this provider only stubs")),
            plugins: plugins, interceptors: interceptors, stubBehavior: { _ in behavior }, stubResponse: stubResponse,
            clock: clock)
    }

    /// Sends the request for `target` and returns the response, if its status passes the
    /// target's validation.
    ///
    /// - Throws: ``NetworkError``; see its cases.
    public func request(_ target: Target) async throws(NetworkError) -> Response {
        try await perform(target).get()
    }

    /// Sends the request for `target` and decodes the JSON body as `T`, optionally at a key path
    /// such as `data`.
    ///
    /// - Throws: ``NetworkError``, including ``NetworkError/decoding(_:)``.
    public func request<T: Decodable>(
        _ target: Target,
        as type: T.Type,
        atKeyPath keyPath: String? = nil,
        using decoder: JSONDecoder = JSONDecoder()
    ) async throws(NetworkError) -> T {
        try await request(target).decode(type, atKeyPath: keyPath, using: decoder)
    }
}
