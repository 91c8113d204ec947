import CardAPI
import CardBackend
import CardCache
import CardMockServer
import CardWalletLive
import CardWalletUI
import Foundation
import LiveTestSupport
import Logging
import Networking
import Synchronization
import TestSupport
import Testing
import TokenStore

/// The shared live surroundings (``LiveServer``: the mock server on port 0, a live transport, a
/// private token file) with the interface's one ordered sink (the logger plugin and every
/// performer's session write into it): the glue's real surroundings.
struct GlueHarness {
    static let email = "demo@cardwallet.dev"
    static let password = "demo1234"

    let live: LiveServer
    let sink: LiveEventSink
    let logger: LoggerPlugin
    private let taken = Taken()

    var server: RunningMockServer { live.server }
    var transport: LiveTransport { live.transport }
    var folder: TemporaryFolder { live.folder }
    var store: TokenStore { live.store }
    var url: String { live.url }
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
        try await LiveServer.with { live in
            let sink = LiveEventSink(inbox: ActionInbox())
            try await body(
                GlueHarness(
                    live: live, sink: sink,
                    logger: LoggerPlugin(
                        configuration: .init(tagExtractor: .jsonField("errorCode"), recordsCreated: false), sink: sink)
                ))
        }
    }

    /// The backend of `server`, sharing the transport, token file and logger: what the
    /// composition root builds.
    func backend(_ server: URL) -> any CardBackend {
        CardAPIBackend(
            client: CardAPIClient(
                configuration: CardAPIConfiguration(server: server), tokenStore: store, transport: transport,
                plugins: [logger]))
    }

    /// The accounts starting on `server` (this harness's by default), reporting to the sink, with
    /// their caches under `cache` (none by default).
    func accounts(
        server: URL? = nil, cache: CacheLocation? = nil, logger cacheLogger: Logger = Logger(label: "test.cache"),
        early: Task<EarlyWallet?, Never>? = nil
    ) -> WalletAccounts {
        WalletAccounts(
            backend: backend(server ?? self.server.baseURL), sessionSink: sink, cacheEnvironment: nil,
            cacheLocation: cache, logger: cacheLogger, early: early
        ) { backend($0) }
    }

    /// A performer starting on `server` (this harness's by default), sharing the transport,
    /// token file, logger and sink.
    func performer(server: URL? = nil) -> CallPerformer {
        CallPerformer(accounts: accounts(server: server))
    }

    /// Logs the demo user in through `performer`.
    func logIn(_ performer: CallPerformer) async throws {
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
    mutating func answer(_ effects: [Effect], with response: (AppCall) -> CallOutcome) -> [Effect] {
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

extension CallPerformer {
    /// The card API client underneath: the tests read the server directly through it.
    var client: CardAPIClient { accounts.client }
}

extension WalletAccounts {
    /// The card API client of the backend in use (the tests' servers are all card APIs).
    var client: CardAPIClient {
        guard let backend = backend as? CardAPIBackend else { preconditionFailure("not the card API") }
        return backend.client
    }
}

extension CachedWallet {
    /// The card API client underneath.
    var client: CardAPIClient {
        guard let backend = backend as? CardAPIBackend else { preconditionFailure("not the card API") }
        return backend.client
    }
}
