import CardAPI
import CardCache
import CardMockServer
import CardWalletLive
import Logging
import TestSupport

extension GlueHarness {
    /// A performer on this harness's server and token file whose wallet cache lives in the
    /// harness's folder (`cache/`), logged in: what the interface builds when it keeps a cache.
    func loggedInPerformerWithCache(logger: Logger) async throws -> (caches: WalletCaches, performer: CardAPIPerformer)
    {
        let caches = WalletCaches(
            environment: [:], location: CacheLocation(folder: folder.path("cache")), logger: logger)
        let performer = CardAPIPerformer(
            configuration: CardAPIConfiguration(server: server.baseURL), tokenStore: store, transport: transport,
            caches: caches)
        try await logIn(performer)
        return (caches, performer)
    }
}
