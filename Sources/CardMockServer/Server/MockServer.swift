import CardModels
public import Hummingbird
public import Logging
import NIOCore

/// The Hummingbird application type of the mock server, for `app.test(.router)` tests.
public typealias MockServerApplication = Application<RouterResponder<MockServerRequestContext>>

/// The mock card server: build it as a Hummingbird application, or start it on a socket.
///
/// ```swift
/// let server = try await MockServer.start(configuration: .testing)
/// defer { Task { await server.stop() } }
/// print(server.baseURL)  // http://127.0.0.1:54321/v1
/// ```
public enum MockServer {
    /// Builds the application without starting it, for `app.test(.router)` (no sockets) or
    /// `app.test(.live)`.
    ///
    /// - Parameters:
    ///   - configuration: the configuration; it is validated here.
    ///   - clock: the wall clock for token expiry, rate limits and timestamps.
    ///   - logger: where request logs go; a logger that discards everything by default.
    /// - Returns: the application and the controls over its data and statistics.
    /// - Throws: ``MockServerError`` for an invalid configuration or an unusable data file.
    public static func makeApp(
        configuration: MockServerConfiguration, clock: any WallClock = SystemWallClock(),
        logger: Logger = Logger(label: "cardwallet.mock-server", factory: { _ in SwiftLogNoOpLogHandler() })
    ) async throws(MockServerError) -> MockServerApp {
        try await build(configuration: configuration, clock: clock, logger: logger, onServerRunning: { _ in })
    }

    /// Builds the application keeping its `--data` file in `dataFileFormat`: how tests write a
    /// JSON data file of an earlier version, and how the benchmark measures one.
    @_spi(Benchmarks)
    public static func makeApp(
        configuration: MockServerConfiguration, dataFileFormat: DataFileFormat,
        clock: any WallClock = SystemWallClock(),
        logger: Logger = Logger(label: "cardwallet.mock-server", factory: { _ in SwiftLogNoOpLogHandler() })
    ) async throws(MockServerError) -> MockServerApp {
        try await build(
            configuration: configuration, clock: clock, logger: logger, dataFileFormat: dataFileFormat,
            onServerRunning: { _ in })
    }

    /// Starts the server on `configuration.host` and `configuration.port` (0 picks a free
    /// port) and returns once it is listening.
    ///
    /// - Parameters:
    ///   - configuration: the configuration; it is validated here.
    ///   - clock: the wall clock for token expiry, rate limits and timestamps.
    ///   - logger: where request logs go; a logger that discards everything by default.
    ///   - handlesShutdownSignals: whether SIGINT and SIGTERM shut the server down gracefully
    ///     (for the `mock-server` command; leave it off in tests and embedded use).
    /// - Returns: the running server; call ``RunningMockServer/stop()`` when done.
    /// - Throws: ``MockServerError`` for an invalid configuration, an unusable data file or an
    ///   address that cannot be bound.
    public static func start(
        configuration: MockServerConfiguration, clock: any WallClock = SystemWallClock(),
        logger: Logger = Logger(label: "cardwallet.mock-server", factory: { _ in SwiftLogNoOpLogHandler() }),
        handlesShutdownSignals: Bool = false
    ) async throws(MockServerError) -> RunningMockServer {
        try await start(
            configuration: configuration, dataFileFormat: .sqlite, clock: clock, logger: logger,
            handlesShutdownSignals: handlesShutdownSignals)
    }

    /// Starts the server keeping its `--data` file in `dataFileFormat`: the benchmark's way to
    /// run the JSON file of earlier versions beside the database.
    @_spi(Benchmarks)
    public static func start(
        configuration: MockServerConfiguration, dataFileFormat: DataFileFormat,
        clock: any WallClock = SystemWallClock(),
        logger: Logger = Logger(label: "cardwallet.mock-server", factory: { _ in SwiftLogNoOpLogHandler() }),
        handlesShutdownSignals: Bool = false
    ) async throws(MockServerError) -> RunningMockServer {
        let started = StartupSignal()
        let app = try await build(
            configuration: configuration, clock: clock, logger: logger, dataFileFormat: dataFileFormat
        ) { channel in
            started.complete(.success(channel.localAddress?.port ?? configuration.port))
        }
        return try await RunningMockServer.run(
            app, started: started, handlesShutdownSignals: handlesShutdownSignals, logger: logger)
    }

    private static func build(
        configuration: MockServerConfiguration, clock: any WallClock, logger: Logger,
        dataFileFormat: DataFileFormat = .sqlite,
        onServerRunning: @escaping @Sendable (any Channel) async -> Void
    ) async throws(MockServerError) -> MockServerApp {
        let state = try await ServerState.make(
            configuration: configuration, clock: clock, logger: logger, dataFileFormat: dataFileFormat)
        let statistics = StatisticsRecorder()
        let router = makeRouter(state: state, statistics: statistics, configuration: configuration)
        let application = Application(
            router: router,
            configuration: ApplicationConfiguration(address: .hostname(configuration.host, port: configuration.port)),
            onServerRunning: onServerRunning,
            logger: logger)
        let controls = MockServerControls(state: state, statistics: statistics, configuration: configuration)
        return MockServerApp(application: application, controls: controls)
    }

    static func makeRouter(
        state: ServerState, statistics: StatisticsRecorder, configuration: MockServerConfiguration
    ) -> Router<MockServerRequestContext> {
        let publicRoutes =
            AuthRoutes(state: state, limits: configuration.limits).routes
            + (configuration.admin ? AdminRoutes(state: state, statistics: statistics).routes : [])
        let cardRoutes = CardRoutes(state: state, limits: configuration.limits).routes
        let router = Router(context: MockServerRequestContext.self)
        // Middleware applies to the routes added after it, and to the not-found responder.
        router.add(
            middleware: EnvelopeMiddleware(
                routes: RouteTable(publicRoutes + cardRoutes), statistics: statistics,
                latency: configuration.latency.duration))
        let v1 = router.group(RouterPath(RouteTable.basePath))
        for route in publicRoutes {
            v1.on(route.routerPath, method: route.method, use: route.handler)
        }
        let cards = v1.group()
            .add(middleware: FaultInjectionMiddleware(failRate: configuration.failRate))
            .add(middleware: AuthenticationMiddleware(state: state))
        for route in cardRoutes {
            cards.on(route.routerPath, method: route.method, use: route.handler)
        }
        return router
    }
}

/// A built mock server application and the controls over its data.
public struct MockServerApp: Sendable {
    /// The Hummingbird application: `try await app.application.test(.router) { client in … }`.
    public let application: MockServerApplication
    /// Admin operations and statistics, callable without HTTP.
    public let controls: MockServerControls
}
