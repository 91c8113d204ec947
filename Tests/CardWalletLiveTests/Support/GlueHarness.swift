import CardAPI
import CardMockServer
import CardWalletLive
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

/// The mock server in-process on 127.0.0.1 port 0, a live transport, the interface's one
/// ordered sink (the logger plugin and every performer's session write into it), and a private
/// token file: the glue's real surroundings.
struct GlueHarness {
    static let email = "demo@cardwallet.dev"
    static let password = "demo1234"

    let server: RunningMockServer
    let transport: LiveTransport
    let sink: LiveEventSink
    let logger: LoggerPlugin
    let folder: ScratchFolder
    private let taken = Taken()

    var store: TokenStore { folder.tokenStore }
    var url: String { server.baseURLString }
    var inbox: ActionInbox { sink.inbox }

    /// Everything that reached the inbox so far, in order (drains it; earlier drains are kept).
    var actions: [AppAction] {
        let new = inbox.drain()
        return taken.actions.withLock { taken in
            taken += new
            return taken
        }
    }

    /// The session statuses that reached the inbox so far.
    var statuses: [SessionStatus] {
        actions.compactMap { if case .session(let status) = $0 { status } else { nil } }
    }

    /// Runs `body` against a fresh server and always stops it, the transport and the folder.
    static func with(_ body: (GlueHarness) async throws -> Void) async throws {
        let server = try await MockServer.start(configuration: .testing)
        let folder = try ScratchFolder()
        let sink = LiveEventSink(inbox: ActionInbox())
        let harness = GlueHarness(
            server: server, transport: LiveTransport(), sink: sink,
            logger: LoggerPlugin(
                configuration: .init(tagExtractor: .jsonField("errorCode"), recordsCreated: false), sink: sink),
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
    /// token file, logger and sink.
    func performer(server: URL? = nil) -> CardAPIPerformer {
        CardAPIPerformer(
            configuration: CardAPIConfiguration(server: server ?? self.server.baseURL), tokenStore: store,
            transport: transport, plugins: [logger], sessionSink: sink)
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

/// The actions a harness has taken from its inbox.
private final class Taken: Sendable {
    let actions = Mutex<[AppAction]>([])
}

extension AppState {
    /// Sends each key and returns all effects.
    @discardableResult
    mutating func press(_ keys: Key...) -> [Effect] {
        keys.flatMap { reduce(.key($0)) }
    }

    /// Answers every call of `effects` with `response`.
    @discardableResult
    mutating func answer(_ effects: [Effect], with response: (APICall) -> APIOutcome) -> [Effect] {
        var more: [Effect] = []
        for effect in effects {
            if case .perform(let id, let call) = effect { more += reduce(.completed(id, response(call))) }
        }
        return more
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
