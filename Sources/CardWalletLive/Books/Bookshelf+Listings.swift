import CardCache
public import CardModels
import CardWalletUI
public import Foundation

/// One book's part of a listing of several.
public struct BookListing: Sendable {
    /// The book.
    public var book: WalletBook
    /// Its cards, in its wallet order (their own ids).
    public var cards: [CardSummary]
    /// `nil` when its server just answered; else when the server last confirmed what the cache gave.
    public var offlineAsOf: Date?
    /// Why its cards are not the server's now (it cannot be reached, the session is over): one
    /// sentence for people. `nil` when the server answered.
    public var problem: String?
}

extension Bookshelf {
    /// Every book's cards, listed as `mode` says — online: each book's server at once, recorded
    /// in its cache, its cache when it cannot be reached or its session is over; offline: the
    /// caches — in the order of `books`. A book neither its server nor its cache can answer for
    /// is listed empty, with why.
    public func listings(_ mode: WalletReadMode, books: [WalletBook]) async -> [BookListing] {
        await withTaskGroup(of: (Int, BookListing).self) { group in
            for (index, book) in books.enumerated() {
                group.addTask { (index, await self.listing(mode, of: book)) }
            }
            var found: [(Int, BookListing)] = []
            for await item in group { found.append(item) }
            return found.sorted { $0.0 < $1.0 }.map(\.1)
        }
    }

    private func listing(_ mode: WalletReadMode, of book: WalletBook) async -> BookListing {
        let wallet: CachedWallet
        do {
            wallet = try await self.wallet(for: book)
        } catch {
            return BookListing(book: book, cards: [], offlineAsOf: nil, problem: CachedWallet.text(error))
        }
        do {
            let answer = try await wallet.list(mode)
            return BookListing(
                book: book, cards: answer.value, offlineAsOf: answer.offlineAsOf,
                problem: answer.offlineAsOf != nil && mode == .online ? "its server cannot be reached" : nil)
        } catch {
            let problem = CachedWallet.text(error)
            if let cached = wallet.cachedList() {
                return BookListing(
                    book: book, cards: cached.cards, offlineAsOf: cached.confirmedAt, problem: problem)
            }
            return BookListing(book: book, cards: [], offlineAsOf: nil, problem: problem)
        }
    }

    /// Every book's cards as its cache has them, changes waiting in its outbox applied, without
    /// the network: the All view's first frame. Books never synced here are left out.
    ///
    /// - Parameters:
    ///   - early: the caches read at the start (``EarlyShelf``): a book read there is not read
    ///     again, and its cache becomes its wallet's.
    ///   - tagged: each book's card ids made to name their book (as ``merged(_:)`` does) in the
    ///     same task as its read, the books' at once: the All view's first frame.
    public func cachedListings(books: [WalletBook], early: EarlyShelf? = nil, tagged: Bool = false) async
        -> [BookListing]
    {
        // Each book's cache opened and read at once (the first frame waits for the slowest).
        await withTaskGroup(of: (Int, BookListing?).self) { group in
            for (index, book) in books.enumerated() {
                group.addTask {
                    let tag = tagged ? self.tag(of: book) : nil
                    var list: CachedList?
                    if let read = early?.take(walletKey: book.walletKey, user: book.user) {
                        self.keepEarlyCache(read.cache, for: book)
                        list = read.list
                        list?.cards.retag(from: read.tag, to: tag)
                    } else if let wallet = await self.existingWallet(for: book) {
                        list = self.accounts.cachedList(of: wallet, tag: tag)
                    }
                    guard let list else { return (index, nil) }
                    return (
                        index,
                        BookListing(book: book, cards: list.cards, offlineAsOf: list.confirmedAt, problem: nil)
                    )
                }
            }
            var found: [(Int, BookListing)] = []
            for await (index, listing) in group {
                if let listing { found.append((index, listing)) }
            }
            return found.sorted { $0.0 < $1.0 }.map(\.1)
        }
    }

    /// `listings` as one list for the interface: each card's id names its book
    /// (``CardWalletUI/BookCardID``), books in order, each in its wallet order.
    public func merged(_ listings: [BookListing]) -> [CardSummary] {
        var cards: [CardSummary] = []
        cards.reserveCapacity(listings.reduce(0) { $0 + $1.cards.count })
        for listing in listings {
            var tagged = listing.cards
            tagged.retag(from: nil, to: tag(of: listing.book))
            cards += tagged
        }
        return cards
    }

    /// The labels the interface's BOOK column shows, by tag.
    public func labels(_ books: [WalletBook]) -> [String: String] {
        Dictionary(books.map { (tag(of: $0), $0.label) }, uniquingKeysWith: { first, _ in first })
    }
}
