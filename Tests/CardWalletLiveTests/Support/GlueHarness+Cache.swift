import CardAPI
import CardBackend
import CardCache
import CardMockServer
import CardWalletLive
import Foundation
import Logging
import Networking
import TestSupport
import TokenStore

extension GlueHarness {
    /// The folder of this harness's caches.
    var cacheLocation: CacheLocation { CacheLocation(folder: folder.path("cache")) }

    /// A performer on this harness's server and token file whose wallet cache lives in the
    /// harness's folder (`cache/`), logged in: what the interface builds when it keeps a cache.
    func loggedInPerformerWithCache(logger: Logger) async throws -> (accounts: WalletAccounts, performer: CallPerformer)
    {
        let accounts = accounts(cache: cacheLocation, logger: logger)
        let performer = CallPerformer(accounts: accounts)
        try await logIn(performer)
        return (accounts, performer)
    }
}

extension CallPerformer {
    /// A performer on the card API at `server` with the token file `tokenStore` and its caches
    /// under `cache`: what the interface builds, for tests that run their own server.
    static func testing(
        server: URL, tokenStore: TokenStore, transport: any Transport, cache: CacheLocation?, logger: Logger
    ) -> CallPerformer {
        let backend: @Sendable (URL) -> any CardBackend = { url in
            CardAPIBackend(
                client: CardAPIClient(
                    configuration: CardAPIConfiguration(server: url), tokenStore: tokenStore, transport: transport))
        }
        return CallPerformer(
            accounts: WalletAccounts(
                backend: backend(server), cacheEnvironment: nil, cacheLocation: cache, logger: logger,
                makeBackend: backend))
    }
}
