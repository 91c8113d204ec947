import CardAPI
import CardMockServer
import CardWalletUI
import Foundation
import Networking
import Synchronization
import Testing
import TokenStore

/// A private folder under the system's temporary folder (mode 0700), removed by `remove()`.
struct ScratchFolder {
    let path: String

    init() throws {
        path = FileManager.default.temporaryDirectory.appending(path: "cardwallet-ui-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        try FileManager.default.setAttributes([.posixPermissions: 0o700], ofItemAtPath: path)
    }

    func file(_ name: String) -> String { path + "/" + name }

    var tokenStore: TokenStore { TokenStore(path: file("tokens.json"), lockTimeout: .seconds(60)) }

    func remove() {
        try? FileManager.default.removeItem(atPath: path)
    }
}

/// The mock server in-process on 127.0.0.1 port 0, a live transport, a logger plugin that
/// delivers at once, and a private token file: the glue's real surroundings.
struct GlueHarness {
    static let email = "demo@cardwallet.dev"
    static let password = "demo1234"

    let server: RunningMockServer
    let transport: LiveTransport
    let logger: LoggerPlugin
    let folder: ScratchFolder

    var store: TokenStore { folder.tokenStore }
    var url: String { server.baseURLString }

    /// Runs `body` against a fresh server and always stops it, the transport and the folder.
    static func with(_ body: (GlueHarness) async throws -> Void) async throws {
        let server = try await MockServer.start(configuration: .testing)
        let folder = try ScratchFolder()
        let harness = GlueHarness(
            server: server, transport: LiveTransport(),
            logger: LoggerPlugin(
                configuration: .init(
                    tagExtractor: .jsonField("errorCode"), recordsCreated: false, deliveryInterval: .zero)),
            folder: folder)
        var failure: (any Error)?
        do {
            try await body(harness)
        } catch {
            failure = error
        }
        try? await harness.transport.shutdown()
        await server.stop()
        folder.remove()
        if let failure { throw failure }
    }

    /// A performer starting on `server` (this harness's by default), sharing the transport,
    /// token file and logger.
    func performer(server: URL? = nil) -> CardAPIPerformer {
        CardAPIPerformer(
            configuration: CardAPIConfiguration(server: server ?? self.server.baseURL), tokenStore: store,
            transport: transport, plugins: [logger])
    }

    /// Logs the demo user in through `performer`.
    func logIn(_ performer: CardAPIPerformer) async throws {
        let result = await performer.perform(.logIn(server: url, email: Self.email, password: Self.password))
        guard case .success = result else {
            Issue.record("login failed: \(result)")
            throw CancellationError()
        }
    }
}

/// Collects what an async sequence yields, in the background.
final class Collector<Element: Sendable>: Sendable {
    private let storage = Mutex<[Element]>([])
    private let task = Mutex<Task<Void, Never>?>(nil)

    init(_ stream: AsyncStream<Element>) {
        let task = Task { [weak self] in
            for await element in stream {
                guard let self else { return }
                self.storage.withLock { $0.append(element) }
            }
        }
        self.task.withLock { $0 = task }
    }

    deinit { task.withLock { $0?.cancel() } }

    var elements: [Element] { storage.withLock { $0 } }

    func stop() { task.withLock { $0?.cancel() } }
}

/// Waits until `condition` holds, polling; records an issue after `timeout`.
func eventually(
    timeout: Duration = .seconds(20), sourceLocation: SourceLocation = #_sourceLocation,
    _ condition: () async throws -> Bool
) async rethrows {
    let deadline = ContinuousClock.now + timeout
    while try await !condition() {
        if ContinuousClock.now >= deadline {
            Issue.record("condition not met within \(timeout)", sourceLocation: sourceLocation)
            return
        }
        try? await Task.sleep(for: .milliseconds(10))
    }
}

/// Image bytes for uploads: a 1×1 PNG.
enum ImageFixtures {
    static let png =
        Data(
            base64Encoded:
                "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==")
        ?? Data()
}
