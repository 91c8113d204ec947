public import CardBackend
public import CardProviders
public import Foundation
import OAuth
import SessionCore
import TokenStore

/// CardDAV's provider: any address book server (Radicale, Nextcloud, Fastmail, iCloud…), logged
/// in with a user name and an (app) password that the server takes on every request, so the
/// account's secret store keeps it (the keyring, a password command, or the token file).
public struct CardDAVProvider: BackendProvider {
    /// The provider.
    public init() {}

    public var kind: BackendKind { .cardDAV }
    public var logins: Set<LoginMethod> { [.password, .oauth] }
    /// Asked after the others: an address that answers as no other kind may still be a CardDAV
    /// server that shows itself only to a login.
    public var probeRank: Int { 100 }

    /// `OPTIONS` on the address (and its `/.well-known/carddav`) within the probe deadline: a
    /// `DAV: addressbook` answer is CardDAV; any other answer may be one that hides it.
    public func probe(_ server: URL, context: ProviderContext) async -> ProbeAnswer {
        var setup = Self.setup(server: server, book: nil, context: context)
        setup.requestTimeout = min(context.settings.requestTimeout, context.settings.probeTimeout)
        let backend = CardDAVBackend(
            setup: setup, tokenStore: context.tokenStore, transport: context.transport, plugins: context.plugins,
            logger: context.logger)
        switch await backend.serverProblem() {
        case nil: return .yes
        case let failure? where failure.isNetworkFailure || failure.failureKind == .insecureServer:
            return .unreachable(failure)
        case _?: return .maybe
        }
    }

    public func makeBackend(_ target: BackendTarget, context: ProviderContext) throws -> any CardBackend {
        let account = target.account
        // No secret kept (a refused password was forgotten): logged out until the next login.
        let password = account.flatMap { record in
            record.secret == nil ? nil : { @Sendable in try await context.password(record) }
        }
        return CardDAVBackend(
            setup: Self.setup(server: target.server, book: target.book, context: context), account: account,
            password: password, tokenStore: context.tokenStore, transport: context.transport,
            plugins: context.plugins, logger: context.logger,
            tokenSession: account.flatMap { Self.oauthSession(of: $0, server: target.server, context: context) })
    }

    /// The OAuth 2.0 session of an account that logs in with it: its access token from the token
    /// file, refreshed at the token endpoint its record names with the refresh token its secret
    /// store keeps (a rotated one is kept there again), by the shared session machinery.
    static func oauthSession(
        of record: AccountRecord, server: URL, context: ProviderContext
    ) -> TokenSession<OAuthTokenExchange>? {
        guard let oauth = record.oauth, let tokenEndpoint = URL(string: oauth.tokenEndpoint) else { return nil }
        let exchange = OAuthTokenExchange(
            tokenEndpoint: tokenEndpoint, clientID: oauth.clientID,
            basicClientAuthentication: oauth.basicClientAuthentication ?? true, transport: context.transport,
            plugins: context.plugins, timeout: context.settings.authTimeout,
            allowsInsecureHTTP: context.settings.allowsInsecureHTTP,
            readSecret: { try await context.secret(record) },
            keepSecret: { try await context.keepSecret(record, $0) })
        return TokenSession(
            server: URL(string: ServerAddress.key(server.absoluteString)) ?? server, account: record.user,
            tokenStore: context.tokenStore,
            policy: SessionPolicy(
                refreshMargin: context.settings.refreshMargin, authTimeout: context.settings.authTimeout),
            wallClock: SystemSessionClock(), exchange: exchange, logger: context.logger)
    }

    static func setup(server: URL, book: String?, context: ProviderContext) -> CardDAVBackend.Setup {
        CardDAVBackend.Setup(
            server: server, book: book, allowsInsecureHTTP: context.settings.allowsInsecureHTTP,
            requestTimeout: context.settings.requestTimeout)
    }
}
