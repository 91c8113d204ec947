import CardBackend
import CardCache
import CardModels
import CardWalletLive
import CardWalletUI
import Foundation
import InMemoryBackend
import Logging
import TestSupport
import Testing

/// The seam is enough for a server that is not the card API: the memory backend (string
/// revisions, sync tokens, no order of its own) under the cached wallet, the one write path,
/// the outbox, the lifecycle of an account and the interface's glue.
@Suite struct MemoryBackendSeamTests {
    private static let account = "ann@example.com"
    private static let password = "secret"
    private static let logger = Logger(label: "test.seam")

    /// A backend with the account logged in, and its accounts with a cache in `folder`.
    private static func world(_ folder: TemporaryFolder) async throws -> (MemoryBackend, WalletAccounts) {
        let backend = MemoryBackend()
        _ = try await backend.logIn(account: account, password: password)
        let accounts = WalletAccounts(
            backend: backend, cacheEnvironment: nil, cacheLocation: CacheLocation(folder: folder.path("cache")),
            logger: logger
        ) { _ in backend }
        return (backend, accounts)
    }

    /// A listing that hands its cards over in batches (as CardDAV does) leaves their search
    /// index for later: a search indexes them first, and the interface does it in the
    /// background right after the list.
    @Test func aBatchedListingIsIndexedBeforeTheFirstSearchAndInTheBackground() async throws {
        let folder = try TemporaryFolder("seam-backlog")
        defer { folder.remove() }
        let backend = MemoryBackend(batchSize: 2)
        _ = try await backend.logIn(account: Self.account, password: Self.password)
        for number in 0..<5 {
            backend.add(CardFields(name: "Person \(number)", bio: "likes number \(number * 11)"))
        }
        let accounts = WalletAccounts(
            backend: backend, cacheEnvironment: nil, cacheLocation: CacheLocation(folder: folder.path("cache")),
            logger: Self.logger
        ) { _ in backend }
        let wallet = await accounts.wallet()
        let cache = try #require(wallet.cache)
        _ = try await wallet.list(.online)
        #expect(try cache.backlogCount() == 5, "stored, not yet indexed")
        // A search (the scripting commands' path) indexes them first, and finds a whole-card field.
        let found = try await wallet.search("number 33", .offline)
        #expect(found.value.map(\.0.name) == ["Person 3"])
        #expect(try cache.backlogCount() == 0)

        // The interface: the list's answer, then the background indexes what a sync left.
        backend.add(CardFields(name: "Person 5", bio: "likes number 55"))
        backend.changeElsewhere(id: try #require(backend.cards.first?.id)) { $0.bio = "likes number 99" }
        let performer = CallPerformer(accounts: accounts)
        guard case .success = await performer.perform(.loadCards(offset: 0, limit: 100, query: nil)) else {
            Issue.record("no list")
            return
        }
        await accounts.settleBackgroundReads()
        #expect(try cache.backlogCount() == 0, "indexed in the background")
        guard case .success(.cacheMatches(_, let ids, _)) = await performer.perform(.searchCache(query: "number 99"))
        else {
            Issue.record("no search")
            return
        }
        #expect(ids == [try #require(backend.cards.first?.id)])
    }

    @Test func listingsSyncByTokenIntoTheCache() async throws {
        let folder = try TemporaryFolder("seam")
        defer { folder.remove() }
        let (backend, accounts) = try await Self.world(folder)
        let ada = backend.add(CardFields(name: "Ada Lovelace"))
        backend.add(CardFields(name: "Grace Hopper"))
        let wallet = await accounts.wallet()
        let cache = try #require(wallet.cache)

        let first = try await wallet.list(.online)
        #expect(first.value.map(\.name) == ["Ada Lovelace", "Grace Hopper"])
        #expect(backend.calls.wholeListings == 1)
        #expect(try cache.cards(ids: [ada.id]).first??.card == ada, "the listing carried whole cards")

        // Someone changes one card and adds another: the next list asks only for the changes.
        backend.changeElsewhere(id: ada.id) { $0.title = "Countess" }
        backend.add(CardFields(name: "Katherine Johnson"))
        let second = try await wallet.list(.online)
        #expect(backend.calls.changeListings == 1 && backend.calls.wholeListings == 1)
        #expect(second.value.map(\.name) == ["Ada Lovelace", "Grace Hopper", "Katherine Johnson"])
        #expect(try cache.card(id: ada.id)?.card.fields.title == "Countess")

        // A deletion elsewhere comes as a removed id.
        let grace = try #require(backend.cards.first { $0.fields.name == "Grace Hopper" })
        try await backend.delete(id: grace.id, revision: nil)
        let third = try await wallet.list(.online)
        #expect(third.value.map(\.name) == ["Ada Lovelace", "Katherine Johnson"])
        #expect(backend.calls.wholeListings == 1, "still one whole listing: the token held")
    }

    @Test func everyWriteGoesThroughTheWalletAndTheCacheHoldsTheAnswer() async throws {
        let folder = try TemporaryFolder("seam")
        defer { folder.remove() }
        let (backend, accounts) = try await Self.world(folder)
        let wallet = await accounts.wallet()
        let cache = try #require(wallet.cache)
        _ = try await wallet.list(.online)

        let made = try await wallet.create(CardFields(name: "Ada")).value
        #expect(try cache.card(id: made.id)?.card == made)
        #expect(made.revision.rawValue.hasPrefix("m-") && made.revision.number == nil, "an opaque revision")

        var fields = made.fields
        fields.company = "Analytical Engines"
        let saved = try await wallet.update(id: made.id, fields: fields, revision: made.revision).value
        #expect(saved.revision != made.revision)
        #expect(try cache.card(id: made.id)?.card.fields.company == "Analytical Engines")

        // A change based on a revision the server no longer has is a conflict, never applied.
        await #expect {
            _ = try await wallet.update(id: made.id, fields: CardFields(name: "Stale"), revision: made.revision)
        } throws: { BackendFailures.kind(of: $0) == .conflict }
        #expect(backend.cards.first?.fields.name == "Ada")
        #expect(await wallet.conflictingCard(id: made.id) == saved)

        // No order of its own: the wallet keeps it, here.
        let other = try await wallet.create(CardFields(name: "Zoë")).value
        let order = try await wallet.reorder([other.id, made.id]).value
        #expect(order == [other.id, made.id])
        #expect(wallet.cachedList()?.cards.map(\.id) == [other.id, made.id])

        _ = try await wallet.delete(id: made.id, revision: saved.revision)
        #expect(try cache.card(id: made.id) == nil)
        #expect(backend.cards.map(\.id) == [other.id])
    }

    @Test func changesMadeOfflineAreSentOnceWhenTheServerIsBack() async throws {
        let folder = try TemporaryFolder("seam")
        defer { folder.remove() }
        let (backend, accounts) = try await Self.world(folder)
        let ada = backend.add(CardFields(name: "Ada"))
        let performer = CallPerformer(accounts: accounts)
        _ = try await performer.perform(.loadCards(offset: 0, limit: 50, query: nil)).get()
        _ = try await performer.perform(.loadCard(id: ada.id)).get()

        backend.setOffline(true)
        let added = await performer.perform(.createCard(CardFields(name: "Made offline"), imagePath: nil))
        guard case .success(.queued(.card)) = added else {
            Issue.record("not queued: \(added)")
            return
        }
        var edited = ada.fields
        edited.title = "Edited offline"
        let edit = await performer.perform(.updateCard(id: ada.id, fields: edited, revision: ada.revision))
        guard case .success(.queued) = edit else {
            Issue.record("not queued: \(edit)")
            return
        }
        let offlineList = await performer.perform(.loadCards(offset: 0, limit: 50, query: nil))
        guard case .success(.cachedCards(let shown, _)) = offlineList else {
            Issue.record("not from the cache: \(offlineList)")
            return
        }
        #expect(shown.cards.map(\.name) == ["Ada", "Made offline"], "the addition shows while it waits")

        backend.setOffline(false)
        _ = try await performer.perform(.loadCards(offset: 0, limit: 50, query: nil)).get()
        _ = try await performer.perform(.loadCards(offset: 0, limit: 50, query: nil)).get()
        #expect(backend.calls.creates == 1, "the offline addition, once (Ada was there)")
        #expect(backend.calls.updates == 1)
        #expect(backend.cards.map(\.fields.name) == ["Ada", "Made offline"])
        #expect(backend.cards.first?.fields.title == "Edited offline")
        #expect(try #require(await accounts.cachedWallet()?.cache).pendingChanges().isEmpty)
    }

    @Test func anEndedSessionWipesTheCardsAndKeepsTheOutboxForTheNextLogin() async throws {
        let folder = try TemporaryFolder("seam")
        defer { folder.remove() }
        let (backend, accounts) = try await Self.world(folder)
        backend.add(CardFields(name: "Ada"))
        let performer = CallPerformer(accounts: accounts)
        _ = try await performer.perform(.loadCards(offset: 0, limit: 50, query: nil)).get()

        // Offline, a card is added; the interface closes.
        backend.setOffline(true)
        _ = try await performer.perform(.createCard(CardFields(name: "Offline Olga"), imagePath: nil)).get()
        // The server is back, but it ended the session meanwhile.
        backend.setOffline(false)
        backend.endSession()
        let next = CallPerformer(
            accounts: WalletAccounts(
                backend: backend, cacheEnvironment: nil, cacheLocation: CacheLocation(folder: folder.path("cache")),
                logger: Self.logger
            ) { _ in backend })
        let ended = await next.perform(.loadCards(offset: 0, limit: 50, query: nil))
        guard case .failure(let failure) = ended, failure.kind == .mustLogIn else {
            Issue.record("not a session end: \(ended)")
            return
        }
        let kept = try #require(await next.accounts.cachedWallet()?.cache)
        #expect(try kept.list() == nil, "the cards are gone")
        #expect(try kept.pendingChanges().count == 1, "the change made offline is kept")

        // Logging in again as the same account: it is sent, once.
        let login = await next.perform(.logIn(server: backend.server, email: Self.account, password: Self.password))
        #expect((try? login.get()) != nil)
        _ = try await next.perform(.loadCards(offset: 0, limit: 50, query: nil)).get()
        #expect(backend.cards.map(\.fields.name) == ["Ada", "Offline Olga"])
        #expect(backend.calls.creates == 1, "sent once")
    }

    @Test func theInterfaceCoreRunsOnTheMemoryBackend() async throws {
        let folder = try TemporaryFolder("seam")
        defer { folder.remove() }
        let backend = MemoryBackend()
        backend.add(CardFields(name: "Ada Lovelace", company: "Analytical Engines"))
        let accounts = WalletAccounts(
            backend: backend, cacheEnvironment: nil, cacheLocation: CacheLocation(folder: folder.path("cache")),
            logger: Self.logger
        ) { _ in backend }
        let performer = CallPerformer(accounts: accounts)
        var state = AppState(server: backend.server, email: Self.account, password: Self.password)
        var effects = state.reduce(.key(.enter))
        while let effect = effects.first {
            effects.removeFirst()
            guard case .perform(let id, let call) = effect else { continue }
            effects += state.reduce(.completed(id, await performer.perform(call)))
        }
        #expect(state.screen == .list, "\(state.login)")
        #expect(state.list.cards.rows.count == 1)
        #expect(state.list.selectedCard?.name == "Ada Lovelace")
    }
}
