import CardModels
public import Foundation
import Logging
import ServiceLifecycle
import Synchronization
import UnixSignals

/// A mock server listening on a socket. Stop it with ``stop()``.
public final class RunningMockServer: Sendable {
    /// The host it listens on, as configured.
    public let host: String
    /// The port it listens on (the one picked when the configuration said 0).
    public let port: Int
    /// Admin operations and statistics, callable without HTTP.
    public let controls: MockServerControls

    private let serviceGroup: ServiceGroup
    private let runTask: Task<Void, any Error>

    private init(
        host: String, port: Int, controls: MockServerControls, serviceGroup: ServiceGroup,
        runTask: Task<Void, any Error>
    ) {
        self.host = host
        self.port = port
        self.controls = controls
        self.serviceGroup = serviceGroup
        self.runTask = runTask
    }

    /// The API's base URL, e.g. `http://127.0.0.1:54321/v1`.
    public var baseURL: URL {
        // Every part is ours and well formed, so the URL always parses; the fallback only
        // keeps the API free of optionals.
        URL(string: baseURLString) ?? URL(fileURLWithPath: "/")
    }

    /// The base URL as text, as the `mock-server` command prints it.
    public var baseURLString: String {
        let shownHost = host.contains(":") ? "[\(host)]" : host
        return "http://\(shownHost):\(port)\(RouteTable.basePath)"
    }

    /// Request counts by route and status, as `GET /_admin/stats` returns them.
    public var statistics: RequestStatistics { controls.statistics }

    /// Expires every access token of the user with `email`; see ``MockServerControls``.
    @discardableResult
    public func expireAccessTokens(email: String) async throws(MockServerError) -> Int? {
        try await controls.expireAccessTokens(email: email)
    }

    /// Revokes every refresh token of the user with `email`; see ``MockServerControls``.
    @discardableResult
    public func revokeRefreshTokens(email: String) async throws(MockServerError) -> Int? {
        try await controls.revokeRefreshTokens(email: email)
    }

    /// Stops accepting connections, lets requests in flight finish (and their data-file
    /// writes with them), and returns when the server is down. Calling it again does nothing.
    public func stop() async {
        await serviceGroup.triggerGracefulShutdown()
        _ = await runTask.result
    }

    /// Waits until the server stops: after ``stop()``, or after SIGINT/SIGTERM when it was
    /// started with `handlesShutdownSignals`.
    /// - Throws: the error the server stopped with, if it failed rather than shut down.
    public func waitUntilStopped() async throws {
        try await runTask.value
    }

    /// The lines the `mock-server` command prints: first exactly
    /// `listening on http://HOST:PORT/v1`, then the accounts and the active options.
    public func banner() async -> [String] {
        var lines = ["listening on \(baseURLString)", "demo accounts:"]
        for account in await controls.accounts() {
            let password = account.password.map(Self.printable) ?? "(password set by hash)"
            lines.append(
                "  \(Self.printable(account.email)) / \(password)  — \(Self.printable(account.name)), "
                    + "\(account.cardCount) card\(account.cardCount == 1 ? "" : "s")")
        }
        let configuration = controls.configuration
        lines.append(
            "tokens: access \(configuration.accessTokenTTL), refresh \(configuration.refreshTokenTTL)")
        if let dataFile = configuration.dataFile { lines.append("data file: \(Self.printable(dataFile))") }
        if configuration.latency > .zero { lines.append("latency: \(configuration.latency) added to every response") }
        if configuration.failRate > 0 {
            lines.append("fail rate: \(configuration.failRate) of card requests answer 503")
        }
        if configuration.admin { lines.append("admin endpoints: \(baseURLString)/_admin/{expire,revoke,stats}") }
        return lines
    }

    /// Text safe to print to a terminal: the shared ``TerminalText/escaped(_:)``.
    static func printable(_ text: String) -> String {
        TerminalText.escaped(text)
    }

    static func run(
        _ app: MockServerApp, started: StartupSignal, handlesShutdownSignals: Bool, logger: Logger
    ) async throws(MockServerError) -> RunningMockServer {
        let configuration = app.controls.configuration
        let serviceGroup = ServiceGroup(
            configuration: ServiceGroupConfiguration(
                services: [app.application],
                gracefulShutdownSignals: handlesShutdownSignals ? [.sigterm, .sigint] : [],
                logger: logger))
        let controls = app.controls
        let runTask = Task {
            do {
                try await serviceGroup.run()
                // Requests in flight have finished, their writes included: let go of the file.
                await controls.state.closeStore()
                started.complete(
                    .failure(
                        .bind(
                            host: configuration.host, port: configuration.port,
                            reason: "the server stopped before it listened")))
            } catch {
                await controls.state.closeStore()
                started.complete(
                    .failure(.bind(host: configuration.host, port: configuration.port, reason: Self.reason(error))))
                throw error
            }
        }
        do {
            let port = try await started.wait()
            return RunningMockServer(
                host: configuration.host, port: port, controls: app.controls, serviceGroup: serviceGroup,
                runTask: runTask)
        } catch {
            await serviceGroup.triggerGracefulShutdown()
            _ = await runTask.result
            throw error
        }
    }

    private static func reason(_ error: any Error) -> String {
        let text = String(describing: error)
        if text.contains("Address already in use") { return "the address is already in use" }
        if text.contains("Permission denied") { return "permission denied" }
        if text.contains("Cannot assign requested address") { return "this machine has no such address" }
        if text.contains("UnknownHost") { return "there is no such host or address" }
        return text.count > 200 ? String(text.prefix(200)) + "…" : text
    }
}

/// Resolves once, with the bound port or the reason the server did not start.
final class StartupSignal: Sendable {
    private enum State {
        case waiting(CheckedContinuation<Int, any Error>?)
        case done(Result<Int, MockServerError>)
    }

    private let state = Mutex(State.waiting(nil))

    func complete(_ result: Result<Int, MockServerError>) {
        let continuation: CheckedContinuation<Int, any Error>? = state.withLock { state in
            guard case .waiting(let continuation) = state else { return nil }
            state = .done(result)
            return continuation
        }
        continuation?.resume(with: result.mapError { $0 as any Error })
    }

    func wait() async throws(MockServerError) -> Int {
        do {
            return try await withCheckedThrowingContinuation { continuation in
                let ready: Result<Int, MockServerError>? = state.withLock { state in
                    switch state {
                    case .waiting:
                        state = .waiting(continuation)
                        return nil
                    case .done(let result):
                        return result
                    }
                }
                if let ready { continuation.resume(with: ready.mapError { $0 as any Error }) }
            }
        } catch let error as MockServerError {
            throw error
        } catch {
            throw .bind(host: "?", port: 0, reason: "\(error)")
        }
    }
}
