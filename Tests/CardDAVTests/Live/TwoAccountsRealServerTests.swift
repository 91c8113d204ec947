import CardBackend
import CardCache
import CardModels
import CardProviders
import CardWalletLive
import CardWalletUI
import Foundation
import Logging
import Networking
import Secrets
import Synchronization
import TestSupport
import Testing
import TokenStore

/// Two Radicale users as two stored accounts (issue 38), used alternately with no address given:
/// each has its own cache and outbox; a change made while the network is gone, in alice's
/// account, waits in her outbox and reaches her book only; logging out of one leaves the other
/// logged in. The wallet is built as the program builds it: the standard providers, a keyring
/// (its memory twin), the token file.
@Suite(.serialized) struct TwoAccountsRealServerTests {
    /// The live transport, or — while `offline` — a network that refuses every connection.
    final class SwitchableTransport: Transport {
        let live: LiveTransport
        let offline = Mutex(false)

        init(_ live: LiveTransport) { self.live = live }

        var connectionsPerHost: Int? { live.connectionsPerHost }

        func send(_ request: Request) async throws -> Response {
            if offline.withLock({ $0 }) {
                throw NetworkError.transport(
                    TransportFailure(kind: .cannotConnect, request: request, reason: "network is down", underlying: nil)
                )
            }
            return try await live.send(request)
        }
    }

    @Test func twoUsersOfOneRadicaleAsTwoAccounts() async throws {
        try await DAVServerProcess.with(.radicale, otherUsers: ["bob"]) { server in
            try await LiveTransport.withTransport { live in
                let folder = try TemporaryFolder("two-dav-accounts")
                defer { folder.remove() }
                let transport = SwitchableTransport(live)
                let store = TokenStore(path: folder.path("state/tokens.json"))
                let keyring = MemorySecretStore()
                let secrets = AccountSecrets(keyring: keyring, tokenStore: store, environment: [:])
                let context = ProviderContext(
                    tokenStore: store, transport: transport, plugins: [], logger: Logger(label: "test.two"),
                    settings: ProviderSettings(), password: { try await secrets.password(for: $0) })
                let directory = AccountDirectory(
                    providers: Providers.standard, context: context, secrets: secrets, book: nil)
                let accounts = WalletAccounts(
                    directory: directory, account: nil, backend: try directory.backend(at: server.root),
                    cacheEnvironment: nil, cacheLocation: CacheLocation(folder: folder.path("cache")),
                    logger: Logger(label: "test.two"), home: server.root)

                // Two logins at one address, no other account logged out; passwords in the keyring.
                let alice = try #require(
                    try await accounts.logIn(LoginRequest(user: server.user, password: server.password)).record)
                let bob = try #require(
                    try await accounts.logIn(LoginRequest(user: "bob", password: server.password)).record)
                #expect(alice.kind == "cardDAV" && alice.secret == .keyring && bob.secret == .keyring)
                #expect(keyring.count == 2)
                #expect(try store.passwords().isEmpty, "no password in the token file")
                #expect(accounts.records().map(\.user).sorted() == ["alice", "bob"])

                // Alice, with the network gone: her new card waits in her outbox.
                try accounts.switchAccount(to: alice)
                let performer = CallPerformer(accounts: accounts)
                _ = await performer.perform(.loadCards(offset: 0, limit: 50, query: nil))
                transport.offline.withLock { $0 = true }
                let made = await performer.perform(
                    .createCard(CardFields(name: "Made offline by alice"), imagePath: nil))
                guard case .success = made else {
                    Issue.record("not queued: \(made)")
                    return
                }
                transport.offline.withLock { $0 = false }

                // Bob: nothing of alice's waits for him; his own card goes to his book.
                try accounts.switchAccount(to: bob)
                #expect(await accounts.sendWaitingChanges() == nil)
                _ = await performer.perform(.createCard(CardFields(name: "Bob's card"), imagePath: nil))
                let bobsCards = try await accounts.wallet().list(.online).value.map(\.name)
                #expect(bobsCards == ["Bob's card"])

                // Alice again: her change goes now, to her book only.
                try accounts.switchAccount(to: alice)
                #expect(await accounts.sendWaitingChanges()?.sent == 1)
                let alicesCards = try await accounts.wallet().list(.online).value.map(\.name)
                #expect(alicesCards == ["Made offline by alice"])
                try accounts.switchAccount(to: bob)
                #expect(try await accounts.wallet().list(.online).value.map(\.name) == ["Bob's card"])

                // Logging out of alice leaves bob logged in, with his password in the keyring.
                _ = try await accounts.logOut(alice)
                #expect(keyring.count == 1)
                #expect(accounts.records().map(\.user) == ["bob"])
                try accounts.switchAccount(to: try #require(accounts.records().first))
                #expect(try await accounts.wallet().list(.online).value.map(\.name) == ["Bob's card"])
            }
        }
    }
}
