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
import TokenStore

/// The All view's books read at the very start (`EarlyShelf`, issue 40's first frame): read
/// only when the list last showed every book, each taken once by the book the shelf lists under
/// the same cache key, never read a second time, and closed when no book takes it.
@Suite struct EarlyShelfTests {
    static let logger = Logger(label: "test.early-shelf")

    /// An earlier run: two accounts' books cached (work: Ada, home: Bob), home in use.
    private func cachedByAnEarlierRun(_ folder: TemporaryFolder) async throws -> (
        records: [AccountRecord], work: WalletBook, home: WalletBook
    ) {
        let before = try await BookshelfTests.World.make(folder)
        before.work.add(CardFields(name: "Ada Lovelace"))
        before.home.add(CardFields(name: "Bob Home"))
        let (work, home) = try await before.books(Bookshelf(accounts: before.accounts))
        return (before.accounts.records(), work, home)
    }

    @Test func theOtherBooksAreReadAtTheStartOnlyWhenTheAllViewWasShownLast() async throws {
        let folder = try TemporaryFolder("early-shelf")
        defer { folder.remove() }
        let location = CacheLocation(folder: folder.path("cache"))
        let (records, work, home) = try await cachedByAnEarlierRun(folder)

        let one = try #require(
            await EarlyWallet.read(
                server: home.walletKey, account: home.user, records: records, location: location,
                logger: Self.logger))
        #expect(one.shelf == nil, "one book shown last: only its own cache is read")
        #expect(one.list?.cards.map(\.name) == ["Bob Home"])
        one.close()

        RememberedBooks(location: location).showsAll = true
        let all = try #require(
            await EarlyWallet.read(
                server: home.walletKey, account: home.user, records: records, location: location,
                logger: Self.logger))
        defer { all.close() }
        let shelf = try #require(all.shelf)
        // Its own book tagged as the All view shows it; its one-book first frame untagged.
        #expect(all.listTag == "1")
        #expect(all.list?.cards.allSatisfy { BookCardID.split($0.id)?.book == "1" } == true)
        guard case .cachedWallet(let page, _) = try #require(all.firstFrame) else {
            Issue.record("no first frame")
            return
        }
        #expect(page.cards.map(\.id) == one.list?.cards.map(\.id))
        #expect(shelf.take(walletKey: home.walletKey, user: home.user) == nil, "its own book is the wallet's read")
        let read = try #require(shelf.take(walletKey: work.walletKey, user: work.user.uppercased()))
        #expect(read.list?.cards.map(\.name) == ["Ada Lovelace"])
        // Tagged as the shelf will tag them: books in the accounts' order by name (home, work).
        #expect(read.tag == "2")
        #expect(read.list?.cards.allSatisfy { BookCardID.split($0.id)?.book == "2" } == true)
        #expect(shelf.take(walletKey: work.walletKey, user: work.user) == nil, "taken once")
        read.cache.close()
    }

    @Test func theFirstFrameUsesTheStartsReadsAndClosesTheOnesNoBookTook() async throws {
        let folder = try TemporaryFolder("early-shelf")
        defer { folder.remove() }
        let location = CacheLocation(folder: folder.path("cache"))
        let (_, work, home) = try await cachedByAnEarlierRun(folder)
        RememberedBooks(location: location).showsAll = true

        // The start's reads, each list marked with a card the caches do not have: what the first
        // frame shows comes from these lists, not from a second read of the caches.
        func read(_ book: WalletBook, marker: String) throws -> (CardCache, CachedList) {
            let cache = try CardCache.open(
                server: book.walletKey, account: book.user, location: location, logger: Self.logger)
            var list = try #require(try cache.list())
            list.cards.append(CardSummary(id: "early-\(marker)", name: marker, updatedAt: list.confirmedAt))
            return (cache, list)
        }
        var (workCache, workList) = try read(work, marker: "Only in work's early read")
        let adaID = try #require(workList.cards.first?.id)
        // Tagged for a book order the shelf does not have: tagged again, not twice.
        workList.cards = workList.cards.map { card in
            var card = card
            card.id = BookCardID.make(book: "7", id: card.id)
            return card
        }
        let (homeCache, homeList) = try read(home, marker: "Only in home's early read")
        let stray = try CardCache.open(
            server: "https://gone.memory.test/book", account: home.user, location: location, logger: Self.logger)
        let shelf = EarlyShelf([
            EarlyShelf.Read(walletKey: work.walletKey, user: work.user, cache: workCache, list: workList, tag: "7"),
            EarlyShelf.Read(walletKey: "https://gone.memory.test/book", user: home.user, cache: stray, list: nil),
        ])
        let early = EarlyWallet(
            server: home.walletKey, account: home.user, cache: homeCache, list: homeList, shelf: shelf)

        // The next start, on the same folders.
        let world = try await BookshelfTests.World.make(folder, early: Task { early })
        let bookshelf = Bookshelf(accounts: world.accounts)
        let views = BookViews(showsAll: true)
        let actions = await bookshelf.firstFrame(views: views)
        let page = try #require(
            actions.lazy.compactMap { action -> CardPage? in
                if case .cachedWallet(let page, _) = action { return page } else { return nil }
            }.first)
        #expect(
            Set(page.cards.map(\.name)) == [
                "Ada Lovelace", "Only in work's early read", "Bob Home", "Only in home's early read",
            ])
        #expect(views.showsAll)

        // Each book's wallet goes on with the cache the start opened; the stray read is closed.
        let books = await bookshelf.books()
        let shownWork = try #require(books.first { $0.account == "work" })
        let shownHome = try #require(books.first { $0.account == "home" })
        #expect(
            page.cards.first { $0.name == "Ada Lovelace" }?.id
                == BookCardID.make(book: bookshelf.tag(of: shownWork), id: adaID))
        #expect(
            page.cards.allSatisfy { card in
                let tag = BookCardID.split(card.id)?.book
                return tag
                    == bookshelf.tag(
                        of: card.name.contains("work") || card.name == "Ada Lovelace" ? shownWork : shownHome)
            })
        #expect(try await bookshelf.wallet(for: shownWork).cache === workCache)
        #expect(await world.accounts.cachedWallet()?.cache === homeCache)
        #expect(throws: CacheError.self, "closed") { try stray.list() }
        #expect(try workCache.list()?.cards.map(\.name) == ["Ada Lovelace"])
    }
}
