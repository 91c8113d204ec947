public import CardBackend
public import CardProviders
public import Foundation
import TokenStore

/// The card API's provider: CardWallet's own card server, logged in with an email and a
/// password that earn a token pair (kept in the token file; the password is never kept).
public struct CardAPIProvider: BackendProvider {
    /// The provider.
    public init() {}

    public var kind: BackendKind { .cardAPI }
    public var logins: Set<LoginMethod> { [.password] }

    /// `GET /cards?limit=1` without a token, within the probe deadline: any card API answers with
    /// one of its JSON envelopes (401 E03, or 404 E01 at an address without `/v1`).
    public func probe(_ server: URL, context: ProviderContext) async -> ProbeAnswer {
        var settings = context.settings
        settings.requestTimeout = min(settings.requestTimeout, settings.probeTimeout)
        let client = Self.client(server: server, account: nil, context: context, settings: settings)
        switch await client.probeKind() {
        case .cardAPI: return .yes
        case .otherServer: return .no
        case .unreachable(let failure): return .unreachable(failure)
        }
    }

    public func makeBackend(_ target: BackendTarget, context: ProviderContext) throws -> any CardBackend {
        CardAPIBackend(
            client: Self.client(
                server: target.server, account: target.account?.user, context: context, settings: context.settings))
    }

    /// The client of `server` for `account` (the only one stored there when `nil`).
    public static func client(
        server: URL, account: String?, context: ProviderContext, settings: ProviderSettings
    ) -> CardAPIClient {
        CardAPIClient(
            configuration: CardAPIConfiguration(
                server: server, account: account,
                session: SessionPolicy(refreshMargin: settings.refreshMargin, authTimeout: settings.authTimeout),
                requestTimeout: settings.requestTimeout, allowsInsecureHTTP: settings.allowsInsecureHTTP),
            tokenStore: context.tokenStore, transport: context.transport, plugins: context.plugins,
            logger: context.logger)
    }
}
