import CardBackend
import CardCache
import CardModels
import CardProviders
import CardWalletLive
import CardWalletUI
import Foundation
import InMemoryBackend
import Logging
import Networking
import Secrets
import TestSupport
import Testing
import TokenStore

/// Accounts side by side (issue 38): two stored accounts on two servers, used alternately with no
/// address given, each with its own cache and outbox; a change made offline in one is sent to
/// that one only; logging out of one leaves the other logged in. The backends are registered
/// through the providers' list, as a backend module's would be.
@Suite struct TwoAccountsTests {
    static let logger = Logger(label: "test.accounts")

    struct World {
        let work = MemoryBackend(server: "https://work.memory.test/book")
        let home = MemoryBackend(server: "https://home.memory.test/book")
        let directory: AccountDirectory
        let accounts: WalletAccounts
        let keyring = MemorySecretStore()
        let folder: TemporaryFolder

        init(_ folder: TemporaryFolder) throws {
            self.folder = folder
            let store = TokenStore(path: folder.path("state/tokens.json"))
            let secrets = AccountSecrets(keyring: keyring, tokenStore: store, environment: [:])
            let context = ProviderContext(
                tokenStore: store, transport: StubTransport { _ in StubResponse(statusCode: 404) }, plugins: [],
                logger: TwoAccountsTests.logger,
                settings: ProviderSettings(), password: { try await secrets.password(for: $0) })
            directory = AccountDirectory(
                providers: Providers.standard + [MemoryProvider(work, home)], context: context, secrets: secrets,
                book: nil)
            let start = try #require(URL(string: work.server))
            accounts = WalletAccounts(
                directory: directory, account: nil, backend: try directory.backend(at: start),
                cacheEnvironment: nil, cacheLocation: CacheLocation(folder: folder.path("cache")),
                logger: TwoAccountsTests.logger, home: start)
        }
    }

    @Test func twoAccountsAreUsedAlternatelyEachWithItsOwnCacheAndOutbox() async throws {
        let folder = try TemporaryFolder("two-accounts")
        defer { folder.remove() }
        let world = try World(folder)
        let accounts = world.accounts

        // Two logins, the kind found by asking each address once (the memory provider answers).
        let work = try await accounts.logIn(
            LoginRequest(server: world.work.server, user: "ann@example.com", password: "secret", name: "work"))
        #expect(work.kind == MemoryProvider.kind)
        let home = try await accounts.logIn(
            LoginRequest(server: world.home.server, user: "ann@example.com", password: "secret", name: "home"))
        #expect(home.record?.name == "home")
        #expect(accounts.records().map(\.name) == ["home", "work"])
        #expect(try world.directory.tokenStore.defaultAccountRecord()?.name == "home", "the last login is the default")
        let workRecord = try #require(accounts.records().first { $0.name == "work" })
        let homeRecord = try #require(accounts.records().first { $0.name == "home" })

        // Work, offline: a change waits in work's outbox.
        try accounts.switchAccount(to: workRecord)
        let performer = CallPerformer(accounts: accounts)
        _ = await performer.perform(.loadCards(offset: 0, limit: 50, query: nil))
        world.work.setOffline(true)
        let made = await performer.perform(.createCard(CardFields(name: "Made offline at work"), imagePath: nil))
        guard case .success = made else {
            Issue.record("the create was not queued: \(made)")
            return
        }
        #expect(try #require(await accounts.cachedWallet()?.cache).pendingChanges().count == 1)

        // Home: its outbox is empty, nothing of work's reaches it.
        try accounts.switchAccount(to: homeRecord)
        #expect(await accounts.sendWaitingChanges() == nil)
        _ = await performer.perform(.createCard(CardFields(name: "Made at home"), imagePath: nil))
        #expect(world.home.cards.map(\.fields.name) == ["Made at home"])
        #expect(world.work.cards.isEmpty)

        // Work again, online: its change goes to work only.
        try accounts.switchAccount(to: workRecord)
        world.work.setOffline(false)
        let sent = await accounts.sendWaitingChanges()
        #expect(sent?.sent == 1)
        #expect(world.work.cards.map(\.fields.name) == ["Made offline at work"])
        #expect(world.home.cards.map(\.fields.name) == ["Made at home"])

        // Each account has a cache file of its own.
        let caches = try FileManager.default.subpathsOfDirectory(atPath: folder.path("cache"))
            .filter { $0.hasSuffix(".sqlite") }
        #expect(caches.count == 2, "\(caches)")

        // Logging out of work leaves home logged in, and home is the account in use.
        _ = try await accounts.logOut(workRecord)
        #expect(accounts.records().map(\.name) == ["home"])
        #expect(accounts.account?.name == "home")
        _ = await performer.perform(.loadCards(offset: 0, limit: 50, query: nil))
        #expect(accounts.backend.sessionState.account != nil)
    }

    @Test func aNameTakenByAnotherAccountIsRefusedBeforeAnythingIsSent() async throws {
        let folder = try TemporaryFolder("two-accounts")
        defer { folder.remove() }
        let world = try World(folder)
        _ = try await world.accounts.logIn(
            LoginRequest(server: world.work.server, user: "ann@example.com", password: "secret", name: "mine"))
        let error = await #expect(throws: AccountProblem.self) {
            _ = try await world.accounts.logIn(
                LoginRequest(server: world.home.server, user: "ann@example.com", password: "secret", name: "MINE"))
        }
        #expect(error?.description.contains("already an account called “mine”") == true)
        #expect(world.accounts.records().count == 1)
    }

    @Test func aKindAskedForIsNotProbedAndAnUnknownKindIsNamed() async throws {
        let folder = try TemporaryFolder("two-accounts")
        defer { folder.remove() }
        let world = try World(folder)
        let error = await #expect(throws: AccountProblem.self) {
            _ = try await world.accounts.logIn(
                LoginRequest(server: world.work.server, user: "ann@example.com", password: "secret", kind: "gopher"))
        }
        #expect(error?.description.contains("cardAPI, cardDAV, memory") == true, "\(String(describing: error))")
        let report = try await world.accounts.logIn(
            LoginRequest(server: world.work.server, user: "ann@example.com", password: "secret", kind: "memory"))
        #expect(report.record?.kind == "memory")
    }
}
