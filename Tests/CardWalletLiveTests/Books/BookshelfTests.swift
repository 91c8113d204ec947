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
import Synchronization
import TestSupport
import Testing
import TokenStore

/// Every book in one wallet (issue 40), on two stored accounts of two memory servers: the All
/// view's list and an edit that goes to the card's own book, cards named by a prefix of their
/// id, moves and copies that leave the card in one place (or two for a copy), carried on after
/// a crash at every step, a merge that keeps what the wallet does not model, and the live sync.
@Suite struct BookshelfTests {
    static let logger = Logger(label: "test.books")

    struct World {
        let work = MemoryBackend(server: "https://work.memory.test/book")
        let home = MemoryBackend(server: "https://home.memory.test/book")
        let accounts: WalletAccounts
        let folder: TemporaryFolder

        /// Both accounts logged in (home last, so home is in use).
        static func make(_ folder: TemporaryFolder, early: Task<EarlyWallet?, Never>? = nil) async throws -> World {
            let world = try World(folder, early: early)
            _ = try await world.accounts.logIn(
                LoginRequest(server: world.work.server, user: "ann@example.com", password: "secret", name: "work"))
            _ = try await world.accounts.logIn(
                LoginRequest(server: world.home.server, user: "ann@example.com", password: "secret", name: "home"))
            return world
        }

        private init(_ folder: TemporaryFolder, early: Task<EarlyWallet?, Never>?) throws {
            self.folder = folder
            let store = TokenStore(path: folder.path("state/tokens.json"))
            let secrets = AccountSecrets(keyring: MemorySecretStore(), tokenStore: store, environment: [:])
            let context = ProviderContext(
                tokenStore: store, transport: StubTransport { _ in StubResponse(statusCode: 404) }, plugins: [],
                logger: BookshelfTests.logger,
                settings: ProviderSettings(), password: { try await secrets.password(for: $0) })
            let directory = AccountDirectory(
                providers: Providers.standard + [MemoryProvider(work, home)], context: context, secrets: secrets,
                book: nil)
            let start = try #require(URL(string: work.server))
            accounts = WalletAccounts(
                directory: directory, account: nil, backend: try directory.backend(at: start),
                cacheEnvironment: nil, cacheLocation: CacheLocation(folder: folder.path("cache")),
                logger: BookshelfTests.logger, early: early, home: start)
        }

        /// The two books, work's and home's, listed once (their caches filled).
        func books(_ shelf: Bookshelf) async throws -> (work: WalletBook, home: WalletBook) {
            let books = await shelf.books()
            let work = try #require(books.first { $0.account == "work" })
            let home = try #require(books.first { $0.account == "home" })
            _ = await shelf.listings(.online, books: books)
            return (work, home)
        }
    }

    @Test func theAllViewListsEveryBookAndAnEditGoesToTheCardsOwnBook() async throws {
        let folder = try TemporaryFolder("books")
        defer { folder.remove() }
        let world = try await World.make(folder)
        world.work.add(CardFields(name: "Ada Lovelace", email: "ada@work.example"))
        world.home.add(CardFields(name: "Bob Home"))
        let performer = CallPerformer(accounts: world.accounts)

        // One book: the list is the account in use's, its ids bare.
        guard case .success(.cards(let one)) = await performer.perform(.loadCards(offset: 0, limit: 50, query: nil))
        else {
            Issue.record("no list")
            return
        }
        #expect(one.cards.map(\.name) == ["Bob Home"])
        #expect(one.cards.allSatisfy { BookCardID.split($0.id) == nil })

        // B: the next book (work), then every book, each card's id naming its book.
        guard case .success(.switchedBook("work", _)) = await performer.perform(.nextBook) else {
            Issue.record("B did not go to the next book")
            return
        }
        guard case .success(.showingAllBooks(let labels, _)) = await performer.perform(.nextBook) else {
            Issue.record("B did not show every book")
            return
        }
        #expect(Set(labels.values) == ["work", "home"])
        guard case .success(.cards(let all)) = await performer.perform(.loadCards(offset: 0, limit: 50, query: nil))
        else {
            Issue.record("no All view")
            return
        }
        #expect(Set(all.cards.map(\.name)) == ["Ada Lovelace", "Bob Home"])
        let ada = try #require(all.cards.first { $0.name == "Ada Lovelace" })
        let adaTag = try #require(BookCardID.split(ada.id)?.book)
        #expect(labels[adaTag] == "work")

        // An edit of work's card in the All view goes to work only.
        guard case .success(.card(let loaded)) = await performer.perform(.loadCard(id: ada.id)) else {
            Issue.record("the card did not load")
            return
        }
        var fields = loaded.fields
        fields.title = "Countess"
        let edited = await performer.perform(.updateCard(id: ada.id, fields: fields, revision: loaded.revision))
        guard case .success = edited else {
            Issue.record("the edit failed: \(edited)")
            return
        }
        #expect(world.work.cards.map(\.fields.title) == ["Countess"])
        #expect(world.home.cards.map(\.fields.title) == [nil])
        #expect(world.home.calls.updates == 0)

        // B again: each book in turn, then All again.
        guard case .success(.switchedBook("home", _)) = await performer.perform(.nextBook) else {
            Issue.record("B did not go to the first book")
            return
        }
        guard case .success(.switchedBook("work", _)) = await performer.perform(.nextBook) else {
            Issue.record("B did not go to the other book")
            return
        }
        guard case .success(.showingAllBooks) = await performer.perform(.nextBook) else {
            Issue.record("B did not come back to every book")
            return
        }
    }

    @Test func cardsAreNamedByAUniquePrefixAndAnAmbiguousNameListsTheCandidates() async throws {
        let folder = try TemporaryFolder("books")
        defer { folder.remove() }
        let world = try await World.make(folder)
        world.work.add(CardFields(name: "Ada Lovelace"))  // m1 at work
        world.home.add(CardFields(name: "Bob Home"))  // m1 at home
        world.home.add(CardFields(name: "Cleo Home"))  // m2 at home
        let shelf = Bookshelf(accounts: world.accounts)
        let (work, home) = try await world.books(shelf)
        let books = [work, home]

        // A whole id two books hold: the current book's wins; from elsewhere it is ambiguous.
        #expect(try await shelf.card(named: "m1", among: books, current: work)?.summary.name == "Ada Lovelace")
        let sameID = await #expect(throws: AmbiguousCardName.self) {
            _ = try await shelf.card(named: "m1", among: books, current: nil)
        }
        // No more of the id tells them apart: the account does.
        #expect(sameID?.description.contains("say which account with --account NAME") == true)
        #expect(sameID?.description.contains("give more of the id") == false)
        // A prefix of one id, any letter case.
        #expect(try await shelf.card(named: "M2", among: books, current: nil)?.summary.name == "Cleo Home")
        // A prefix of several: the candidates, with their books.
        let ambiguous = await #expect(throws: AmbiguousCardName.self) {
            _ = try await shelf.card(named: "m", among: books, current: nil)
        }
        #expect(ambiguous?.total == 3)
        #expect(ambiguous?.description.contains("“m” names 3 cards") == true)
        #expect(ambiguous?.description.contains("give more of the id, or say which account") == true)
        #expect(ambiguous?.description.contains("Cleo Home") == true)
        #expect(ambiguous?.candidates.contains { $0.book == home } == true)
        // A query that finds one card; an unknown name finds none.
        #expect(try await shelf.card(named: "Cleo", among: books, current: nil)?.book == home)
        #expect(try await shelf.card(named: "zz-nothing", among: books, current: nil) == nil)

        // The shortest unique prefixes of long ids (CardDAV's resource names): at least eight
        // characters, longer where ids share more; an id of up to 24 is shown whole.
        let long = "b9cad878-f2cf-4f18-8a77-d080ece01e8c.vcf"
        let twin = "b9cad878-f2cf-4f18-0000-000000000000.vcf"
        let other = "7f3e1111-2222-3333-4444-555566667777.vcf"
        let prefixes = UniquePrefixes([long, other], among: [twin, "card_BipnWYtqmxg9JGz_"])
        #expect(prefixes.prefix(of: long) == "b9cad878-f2cf-4f18-8")
        #expect(prefixes.prefix(of: other) == "7f3e1111")
        #expect(prefixes.prefix(of: "card_BipnWYtqmxg9JGz_") == "card_BipnWYtqmxg9JGz_")
        #expect(UniquePrefixes(["m1"]).prefix(of: "m1") == "m1")
    }

    @Test func aMoveLeavesOneCardAndACopyTwo() async throws {
        let folder = try TemporaryFolder("books")
        defer { folder.remove() }
        let world = try await World.make(folder)
        world.work.add(CardFields(name: "Ada Lovelace", email: "ada@work.example", vcardProperties: ["X-FOO:kept"]))
        world.work.add(CardFields(name: "Bob Work"))
        let shelf = Bookshelf(accounts: world.accounts)
        let (work, home) = try await world.books(shelf)

        let ada = try #require(try await shelf.card(named: "Ada", among: [work, home], current: nil))
        let moved = try await shelf.transfer(.move, ada, to: home)
        #expect(moved.state == .done)
        #expect(world.work.cards.map(\.fields.name) == ["Bob Work"])
        #expect(world.home.cards.map(\.fields.name) == ["Ada Lovelace"])
        #expect(world.home.cards.first?.fields.vcardProperties == ["X-FOO:kept"])
        #expect(moved.written?.id == world.home.cards.first?.id)

        let bob = try #require(try await shelf.card(named: "Bob", among: [work, home], current: nil))
        #expect(try await shelf.transfer(.copy, bob, to: home).state == .done)
        #expect(world.work.cards.map(\.fields.name) == ["Bob Work"])
        #expect(Set(world.home.cards.map(\.fields.name)) == ["Ada Lovelace", "Bob Work"])

        // Into its own book: refused, nothing sent.
        await #expect(throws: TransferRefusal.self) { _ = try await shelf.transfer(.move, bob, to: work) }
        #expect(world.home.calls.creates == 2)
    }

    /// The steps a killed process can leave a move at, each carried on by the next replay.
    enum Crash: CaseIterable {
        /// The order recorded; nothing sent.
        case afterRecording
        /// The target made the card; the order does not know it yet.
        case afterCreating
        /// The order knows the card written; the source's delete not sent.
        case afterRecordingTheWrite
        /// The source deleted the card; the order not marked done.
        case afterDeleting
    }

    @Test(arguments: Crash.allCases, [TransferOrder.Mode.move, .copy])
    func aTransferInterruptedAtAnyStepEndsWithTheCardInOnePlace(_ crash: Crash, _ mode: TransferOrder.Mode)
        async throws
    {
        if mode == .copy && crash == .afterDeleting { return }  // a copy deletes nothing
        let folder = try TemporaryFolder("books")
        defer { folder.remove() }
        let world = try await World.make(folder)
        let original = world.work.add(CardFields(name: "Ada Lovelace", vcardProperties: ["X-FOO:kept"]))
        let shelf = Bookshelf(accounts: world.accounts)
        let (work, home) = try await world.books(shelf)
        let source = try await shelf.wallet(for: work)
        let cache = try #require(source.cache)

        // What the killed process left: the order in work's outbox, and the steps it took.
        var order = TransferOrder(
            mode: mode, sourceID: original.id, sourceRevision: original.revision, target: home.transferTarget,
            card: try await source.transferCard(of: original))
        if crash != .afterRecording {
            _ = try await world.home.create(order.card.fields, image: nil, key: order.key)
        }
        if crash == .afterRecordingTheWrite || crash == .afterDeleting {
            let made = try #require(world.home.cards.first)
            order.written = TransferWritten(id: made.id, revision: made.revision)
        }
        if crash == .afterDeleting {
            try await world.work.delete(id: original.id, revision: original.revision)
        }
        _ = try cache.enqueue(.transfer(order))
        // Meanwhile the card is in at least one place.
        #expect(world.work.cards.count + world.home.cards.count >= 1)

        // The next replay (`cardwallet sync`, the interface) carries it on.
        let reports = await shelf.replayEveryOutbox()
        #expect(reports.count == 1)
        #expect(try cache.pendingChanges().isEmpty)
        let refused = try cache.outbox().filter { $0.state == .failed }
        #expect(refused.isEmpty, "the replay was refused: \(refused.map(\.lastError))")
        #expect(world.home.cards.map(\.fields.name) == ["Ada Lovelace"], "one card in the target, never two")
        #expect(world.home.cards.first?.fields.vcardProperties == ["X-FOO:kept"])
        #expect(world.home.calls.creates == 1)
        #expect(world.work.cards.count == (mode == .move ? 0 : 1))

        // A second replay changes nothing.
        _ = await shelf.replayEveryOutbox()
        #expect(world.home.cards.count == 1)
        #expect(world.work.cards.count == (mode == .move ? 0 : 1))
    }

    @Test func aMoveWhoseTargetCannotBeReachedWaitsWithTheCardInItsBook() async throws {
        let folder = try TemporaryFolder("books")
        defer { folder.remove() }
        let world = try await World.make(folder)
        world.work.add(CardFields(name: "Ada Lovelace"))
        let shelf = Bookshelf(accounts: world.accounts)
        let (work, home) = try await world.books(shelf)
        let ada = try #require(try await shelf.card(named: "Ada", among: [work, home], current: nil))

        world.home.setOffline(true)
        let waiting = try await shelf.transfer(.move, ada, to: home)
        guard case .waiting = waiting.state else {
            Issue.record("the move did not wait: \(waiting)")
            return
        }
        #expect(world.work.cards.count == 1)
        #expect(world.home.cards.isEmpty)

        // Asked again while it waits: carried on, not asked twice.
        world.home.setOffline(false)
        #expect(try await shelf.transfer(.move, ada, to: home).state == .done)
        #expect(world.work.cards.isEmpty)
        #expect(world.home.cards.map(\.fields.name) == ["Ada Lovelace"])
    }

    @Test func aMergeKeepsBothCardsEmailsAndWhatTheWalletDoesNotModel() async throws {
        let folder = try TemporaryFolder("books")
        defer { folder.remove() }
        let world = try await World.make(folder)
        world.work.add(
            CardFields(name: "Ada Lovelace", email: "ada@work.example", vcardProperties: ["X-WORK:kept"]))
        world.home.add(
            CardFields(
                name: "Ada", title: "Countess", email: "ada@home.example", vcardProperties: ["X-HOME:kept too"]))
        let shelf = Bookshelf(accounts: world.accounts)
        let (work, home) = try await world.books(shelf)
        let left = try #require(world.work.cards.first)
        let right = try #require(world.home.cards.first)

        let plan = CardMergePlan(left: left, right: right)
        #expect(plan.keep == .left)
        #expect(plan.fields.name == "Ada Lovelace", "the fuller value wins")
        #expect(plan.fields.title == "Countess")
        let merged = try CardMerger.merged(plan)
        let outcome = try await shelf.merge(
            keep: NamedCard(book: work, summary: left.summary), at: left.revision,
            drop: NamedCard(book: home, summary: right.summary), merged: merged)
        #expect(outcome.state == .done)

        #expect(world.home.cards.isEmpty)
        let card = try #require(world.work.cards.first)
        #expect(world.work.cards.count == 1)
        #expect(card.fields.name == "Ada Lovelace")
        #expect(card.fields.title == "Countess")
        #expect(card.fields.email == "ada@work.example")
        #expect(card.fields.vcardProperties.contains("X-WORK:kept"))
        #expect(card.fields.vcardProperties.contains("X-HOME:kept too"))
        #expect(card.fields.vcardProperties.contains { $0.contains("ada@home.example") }, "both emails kept")
    }

    @Test func theLiveSyncShowsAChangeMadeElsewhereByItself() async throws {
        let folder = try TemporaryFolder("books")
        defer { folder.remove() }
        let world = try await World.make(folder)
        world.work.add(CardFields(name: "Ada Lovelace"))
        world.home.add(CardFields(name: "Bob Home"))
        let performer = CallPerformer(accounts: world.accounts)
        _ = await performer.perform(.nextBook)  // work
        _ = await performer.perform(.nextBook)  // every book
        #expect(performer.views.showsAll)
        _ = await performer.perform(.loadCards(offset: 0, limit: 50, query: nil))

        let delivered = Mutex<[AppAction]>([])
        let notes = Mutex<[String]>([])
        let sync = BackgroundSync(
            performer: performer, interval: .milliseconds(20),
            deliver: { action in delivered.withLock { $0.append(action) } },
            note: { line, _ in notes.withLock { $0.append(line) } })
        #expect(await sync.syncOnce() == .unchanged)

        sync.start()
        defer { sync.stop() }
        world.home.add(CardFields(name: "Made on a phone"))
        try await waitUntil("the new card in a synced list") {
            delivered.withLock { actions in
                actions.contains { action in
                    guard case .synced(let page) = action else { return false }
                    return page.cards.contains { $0.name == "Made on a phone" }
                        && page.cards.contains { $0.name == "Ada Lovelace" }
                }
            }
        }

        // A card added by another process on this machine (its own cache handle on the same
        // file, which it updates): shown too, though the cache knew it before the sync.
        let elsewhere = Bookshelf(accounts: world.accounts)
        let work = try #require(await elsewhere.books().first { $0.account == "work" })
        _ = try await elsewhere.wallet(for: work).create(CardFields(name: "Added by a command"), image: nil)
        try await waitUntil("the command's card in a synced list") {
            delivered.withLock { actions in
                actions.contains { action in
                    guard case .synced(let page) = action else { return false }
                    return page.cards.contains { $0.name == "Added by a command" }
                }
            }
        }

        // Offline: it backs off, and says so in the log pane.
        world.work.setOffline(true)
        try await waitUntil("the log pane told") {
            notes.withLock { $0.contains { $0.contains("trying again in") } }
        }
    }

    @Test func syncWatchSaysWhatChangedEvenWhenAnotherProcessSyncedItFirst() async throws {
        let folder = try TemporaryFolder("books")
        defer { folder.remove() }
        let world = try await World.make(folder)
        world.work.add(CardFields(name: "Ada Lovelace"))
        let shelf = Bookshelf(accounts: world.accounts)
        _ = try await world.books(shelf)
        world.home.add(CardFields(name: "Made on a phone"))

        let lines = Mutex<[String]>([])
        let watcher = SyncWatcher(shelf: shelf, allBooks: true, interval: .milliseconds(20))
        let watching = Task {
            try await watcher.run { line in
                lines.withLock { $0.append(line) }
            } problem: { _ in
            }
        }
        defer { watching.cancel() }
        try await waitUntil("home's new card reported") {
            lines.withLock { $0.contains { $0.hasSuffix("home: 1 added, 0 changed, 0 removed") } }
        }

        // Another process adds a card at work and records it in the same cache file.
        let elsewhere = Bookshelf(accounts: world.accounts)
        let work = try #require(await elsewhere.books().first { $0.account == "work" })
        _ = try await elsewhere.wallet(for: work).create(CardFields(name: "Added by a command"), image: nil)
        try await waitUntil("work's new card reported") {
            lines.withLock { $0.contains { $0.hasSuffix("work: 1 added, 0 changed, 0 removed") } }
        }
        #expect(lines.withLock { $0.count } == 2, "nothing else changed: \(lines.withLock { $0 })")
    }
}
