import CardBackend
import CardCache
import CardProviders
import CardWalletLive
import Foundation
import Logging
import Networking
import OAuth
import OAuthTestSupport
import Secrets
import Synchronization
import TestSupport
import Testing
import TokenStore

/// A wallet as the program builds it (the providers' list, a token file, a keyring — in memory
/// here — and a cache), on a live transport to the test's OAuth peers, that the test can take
/// offline. Logins go through the real loopback flow with ``TestBrowser`` playing the browser.
final class OAuthWallet: Sendable {
    let peers: OAuthPeers
    let folder: TemporaryFolder
    let store: TokenStore
    let keyring = MemorySecretStore()
    let live = LiveTransport()
    let network: SwitchableTransport
    let log = LoggerPlugin()
    let directory: AccountDirectory
    let accounts: WalletAccounts
    /// What the browser saw on the loopback page, per login.
    let pages = Mutex<[String]>([])

    init(_ peers: OAuthPeers, folder: TemporaryFolder) throws {
        self.peers = peers
        self.folder = folder
        store = TokenStore(path: folder.path("state/tokens.json"))
        network = SwitchableTransport(live)
        let secrets = AccountSecrets(keyring: keyring, tokenStore: store, environment: [:])
        let context = ProviderContext(
            tokenStore: store, transport: network, plugins: [log], logger: Logger(label: "test.oauth"),
            settings: ProviderSettings(requestTimeout: .seconds(30), authTimeout: .seconds(20)),
            password: { try await secrets.password(for: $0) }, secret: { try await secrets.secretIfKept(for: $0) },
            keepSecret: { try await secrets.replace($1, for: $0) })
        directory = AccountDirectory(providers: Providers.standard, context: context, secrets: secrets, book: nil)
        let start = peers.radicale
        accounts = WalletAccounts(
            directory: directory, account: nil, backend: try directory.backend(at: start, kind: .cardDAV),
            cacheEnvironment: nil, cacheLocation: CacheLocation(folder: folder.path("cache")),
            logger: Logger(label: "test.oauth"), home: start)
    }

    /// Runs `body` with a wallet on fresh peers; always stops everything.
    static func with(
        accessTTL: Int = 3600, rotate: Bool = false, metadata: String = "both",
        _ body: (OAuthWallet) async throws -> Void
    ) async throws {
        try await OAuthPeers.with(accessTTL: accessTTL, rotate: rotate, metadata: metadata) { peers in
            let folder = try TemporaryFolder("oauth-wallet")
            defer { folder.remove() }
            let wallet = try OAuthWallet(peers, folder: folder)
            var failure: (any Error)?
            do {
                try await body(wallet)
            } catch {
                failure = error
            }
            await wallet.accounts.settleBackgroundReads()
            try? await wallet.live.shutdown()
            if let failure { throw failure }
        }
    }

    /// The issuer of the test's authorization server.
    var issuer: OAuthIssuer { OAuthIssuer(url: peers.issuer) }

    /// Logs in with OAuth at `server` (Radicale's book by default), the browser doing `choice`.
    @discardableResult
    func logIn(
        server: URL? = nil, issuer: OAuthIssuer? = nil, choice: TestBrowser.Choice = .allow,
        secret: String? = nil, deadline: Duration = .seconds(60), browse: Bool = true
    ) async throws -> LoginReport {
        let request = OAuthLoginRequest(
            issuer: issuer ?? self.issuer,
            client: OAuthClient(id: peers.clientID, secret: secret ?? peers.clientSecret), deadline: deadline,
            present: { [self] url in
                guard browse else { return }
                Task {
                    let page: String
                    do {
                        let landed = try await TestBrowser.visit(url, choice: choice)
                        page = "\(landed.status) \(landed.page)"
                    } catch {
                        page = "no page: \(error)"
                    }
                    self.pages.withLock { $0.append(page) }
                }
            })
        return try await accounts.logIn(
            LoginRequest(
                server: (server ?? peers.bookURL).absoluteString, user: "", password: "", kind: "cardDAV",
                oauth: request))
    }

    /// The token file's items and records as they are now.
    func storedItems() throws -> [TokenItem] { try store.items(server: nil) }

    /// Everything the log recorded, as the log pane and `-v` show it.
    func logText() -> String {
        let formatter = NetworkEventFormatter()
        return log.recent().map { formatter.detail($0) }.joined(separator: "\n")
    }
}

/// The live transport, or — switched off — a network that is down (every request fails to
/// connect), for changes made offline.
final class SwitchableTransport: Transport {
    let base: any Transport
    private let offline = Mutex(false)
    private let sent = Mutex(0)
    private let hook = Mutex<(@Sendable () async -> Void)?>(nil)

    init(_ base: any Transport) {
        self.base = base
    }

    var connectionsPerHost: Int? { base.connectionsPerHost }

    /// Takes the network down (`true`) or brings it back.
    func setOffline(_ value: Bool) { offline.withLock { $0 = value } }

    /// Runs `body` once the next request's answer has come, before its caller gets it.
    func afterNextRequest(_ body: @escaping @Sendable () async -> Void) { hook.withLock { $0 = body } }

    /// How many requests went out.
    var requestCount: Int { sent.withLock { $0 } }

    func send(_ request: Request) async throws -> Response {
        if offline.withLock({ $0 }) {
            throw NetworkError.transport(
                TransportFailure(
                    kind: .cannotConnect, request: request, reason: "the network is down (test)", underlying: nil))
        }
        sent.withLock { $0 += 1 }
        let response = try await base.send(request)
        if let body = hook.withLock({ hook -> (@Sendable () async -> Void)? in
            defer { hook = nil }
            return hook
        }) {
            await body()
        }
        return response
    }
}
