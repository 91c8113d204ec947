import CardBackend
import CardCache
import CardModels
public import CardWalletUI
import Foundation
import Logging

/// The interface's calls across books (issue 40): `B` cycles through the All view and each book;
/// in the All view the list, the search and the export span every book of every account, and a
/// card's calls (open, edit, delete, its picture, undo) go to the book its id names
/// (``CardWalletUI/BookCardID``), through that book's own backend and cache.
extension CallPerformer {
    /// The call's answer when it concerns books (the All view, a card of it); `nil` for the calls
    /// one book answers as before.
    func performOnBooks(_ call: AppCall, progress: ProgressReporter) async -> CallOutcome? {
        viewChanging(call)
        if let moved = await performMoves(call) { return moved }
        switch call {
        case .nextBook:
            return await nextView()
        case .logIn, .switchAccount:
            // A login or another account lands on that account's book.
            views.showsAll = false
            return nil
        case .loadCards(let offset, let limit, nil) where views.showsAll:
            return await allBooksPage(offset: offset, limit: limit)
        case .searchCache(let query) where views.showsAll:
            return await searchAllBooks(query)
        case .reorderCards where views.showsAll:
            return .failure(
                UIFailure(
                    .other,
                    message: "The All view has no order of its own: press B to show one book, then move its cards"))
        case .exportCards(let request) where views.showsAll:
            return await exportAcrossBooks(request, progress: progress)
        case .createCard where views.showsAll:
            // A new card goes to the book of the account in use, and shows under its tag.
            guard let book = await shelf.currentBook(among: shelf.knownBooks) else { return nil }
            return await perform(call, on: book)
        case .loadCard(let id):
            guard case (let book, let own)? = book(of: id) else { return nil }
            return await perform(.loadCard(id: own), on: book)
        case .deleteCard(let id):
            guard case (let book, let own)? = book(of: id) else { return nil }
            return await perform(.deleteCard(id: own), on: book)
        case .updateCard(let id, let fields, let revision):
            guard case (let book, let own)? = book(of: id) else { return nil }
            return await perform(.updateCard(id: own, fields: fields, revision: revision), on: book)
        case .restoreCard(var deleted):
            guard case (let book, let own)? = book(of: deleted.card.id) else { return nil }
            deleted.card.id = own
            return await perform(.restoreCard(deleted), on: book)
        case .cardPicture(let id, let revision, let box):
            guard case (let book, let own)? = book(of: id) else { return nil }
            do throws(UIFailure) {
                let wallet: CachedWallet
                do {
                    wallet = try await shelf.wallet(for: book)
                } catch {
                    throw UIFailure(any: error)
                }
                // Kept in memory under the id that names the book: two books may hold one id.
                return .success(
                    .picture(
                        try await pictures.picture(id: id, revision: revision, box: box) { () throws(UIFailure) in
                            try await wallet.picture(id: own, revision: revision)
                        }))
            } catch {
                return .failure(error)
            }
        default:
            return nil
        }
    }

    /// The book and own id of an All view card id; `nil` for an id of the book in use.
    func book(of id: String) -> (book: WalletBook, id: String)? {
        guard let split = BookCardID.split(id), let book = shelf.book(tagged: split.book) else { return nil }
        return (book, split.id)
    }

    /// Performs a card's call through its book's wallet; the answer's cards carry their book.
    private func perform(_ call: AppCall, on book: WalletBook) async -> CallOutcome {
        let tag = shelf.tag(of: book)
        let wallet: CachedWallet
        do {
            wallet = try await shelf.wallet(for: book)
        } catch {
            return .failure(UIFailure(any: error))
        }
        do {
            return .success(Self.qualify(try await send(call, wallet: wallet), tag: tag))
        } catch {
            var failure = UIFailure(any: error)
            if BackendFailures.kind(of: error) == .conflict, case .updateCard(let id, _, _) = call,
                let backendFailure = error as? any BackendFailure
            {
                var current = await wallet.conflictingCard(id: id)
                current?.id = BookCardID.make(book: tag, id: id)
                failure = UIFailure(backendFailure, current: current)
            }
            if failure.kind == .mustLogIn, await !isInUse(book) {
                // Not the account in use: the session-expired dialog would log in to that one.
                failure = UIFailure(
                    .other,
                    message:
                        "\(TerminalText.escaped(book.account)) must log in again: A switches to it, then log in")
            }
            return .failure(failure)
        }
    }

    private func isInUse(_ book: WalletBook) async -> Bool {
        await shelf.currentBook(among: [book]) != nil
    }

    /// `result` with the ids of the cards in it naming the book tagged `tag`.
    static func qualify(_ result: CallResult, tag: String) -> CallResult {
        switch result {
        case .card(var card):
            card.id = BookCardID.make(book: tag, id: BookCardID.bare(card.id))
            return .card(card)
        case .deleted(let id, var backup):
            backup?.card.id = BookCardID.make(book: tag, id: BookCardID.bare(id))
            return .deleted(id: BookCardID.make(book: tag, id: BookCardID.bare(id)), backup: backup)
        case .queued(let shown):
            return .queued(qualify(shown, tag: tag))
        default:
            return result
        }
    }

    // MARK: The All view

    /// `B`: the All view, then each book in turn, then the All view again. With one book there
    /// is nothing to cycle through: it says so, as before.
    private func nextView() async -> CallOutcome {
        let books = await shelf.books(refresh: true)
        guard books.count > 1 else {
            do {
                return .success(try await send(.nextBook, wallet: await accounts.wallet()))
            } catch {
                return .failure(UIFailure(any: error))
            }
        }
        let current = await shelf.currentBook(among: books)
        let position = views.showsAll ? 0 : (current.flatMap { books.firstIndex(of: $0) }.map { $0 + 1 } ?? 0)
        let next = (position + 1) % (books.count + 1)
        if next == 0 {
            views.showsAll = true
            shelf.remembered?.showsAll = true
            return .success(.showingAllBooks(labels: shelf.labels(books), session: sessionStatus()))
        }
        let book = books[next - 1]
        do {
            try await accounts.use(book, from: shelf)
        } catch {
            return .failure(UIFailure(any: error))
        }
        views.showsAll = false
        shelf.remembered?.showsAll = false
        return .success(.switchedBook(book.label, session: sessionStatus()))
    }

    /// A background sync of the list shown now would be of another list once this call is
    /// done (another account, another book): dropped.
    func viewChanging(_ call: AppCall) {
        switch call {
        case .nextBook, .switchAccount, .logIn, .logOut: views.switched()
        default: break
        }
    }

    private func sessionStatus() -> SessionStatus {
        SessionStatus(accounts.backend.sessionState)
    }

    /// The All view's page: at the first, each book's changes made offline are sent, then every
    /// book is listed at once (from its cache when its server cannot be reached).
    private func allBooksPage(offset: Int, limit: Int) async -> CallOutcome {
        guard offset == 0 else { return .success(.cards(views.page(offset: offset, limit: limit))) }
        await shelf.firstFrameSettled()
        let books = await shelf.books()
        var conflicts: [OfflineConflict] = []
        for book in books {
            guard let wallet = try? await shelf.wallet(for: book), wallet.cache != nil else { continue }
            let tag = shelf.tag(of: book)
            conflicts += await outbox.send(wallet).map { conflict in
                var conflict = conflict
                conflict.server.id = BookCardID.make(book: tag, id: conflict.server.id)
                return conflict
            }
        }
        let listings = await shelf.listings(.online, books: books)
        for listing in listings {
            if let problem = listing.problem {
                accounts.logger.notice("The book \(listing.book.label) (\(listing.book.account)): \(problem)")
            }
        }
        let merged = shelf.merged(listings)
        views.keep(merged)
        let page = views.page(offset: 0, limit: limit)
        let answered = listings.contains { $0.offlineAsOf == nil && $0.problem == nil }
        let result: CallResult
        if !answered, !listings.isEmpty {
            guard let asOf = listings.compactMap(\.offlineAsOf).min() else { return .success(.offlineNothingCached) }
            result = .cachedCards(page, asOf: asOf)
        } else {
            // Some books answered: those that did not are named in the status bar.
            let behind = listings.compactMap { listing in
                listing.problem.map { BookBehind(label: listing.book.label, problem: $0, asOf: listing.offlineAsOf) }
            }
            result = behind.isEmpty ? .cards(page) : .withBooksBehind(behind, .cards(page))
        }
        guard !conflicts.isEmpty else { return .success(result) }
        outbox.delivered(conflicts)
        return .success(.withOfflineConflicts(conflicts, result))
    }

    /// `/` in the All view: every book's cache searched, the ids naming their books.
    private func searchAllBooks(_ query: String) async -> CallOutcome {
        var ids: [String] = []
        var fields: [String: FieldMatch] = [:]
        for book in shelf.knownBooks {
            guard let wallet = await shelf.existingWallet(for: book), let cache = wallet.cache else { continue }
            let tag = shelf.tag(of: book)
            do {
                let found = try cache.search(
                    query, limit: Self.searchHitsWithFields, allIDs: true, excerpts: true)
                ids += found.allIDs.map { BookCardID.make(book: tag, id: $0) }
                for hit in found.hits where hit.field != .name {
                    fields[BookCardID.make(book: tag, id: hit.cardID)] = FieldMatch(
                        field: hit.field, excerpt: hit.excerpt ?? "")
                }
            } catch {
                return .failure(
                    UIFailure(.other, message: "the card cache cannot be searched: \(CachedWallet.text(error))"))
            }
        }
        return .success(.cacheMatches(query: query, ids: ids, fields: fields))
    }

    /// `x` and `X` in the All view: the cards chosen (or every card of every book), each read
    /// through its own book, into one file.
    private func exportAcrossBooks(_ request: ExportRequest, progress: ProgressReporter) async -> CallOutcome {
        var parts: [(wallet: CachedWallet, ids: [String]?)] = []
        do {
            switch request.cards {
            case .all:
                for book in shelf.knownBooks { parts.append((try await shelf.wallet(for: book), nil)) }
            case .ids(let ids):
                var byBook: [(WalletBook, [String])] = []
                for id in ids {
                    guard let routed = book(of: id) else { continue }
                    let (book, own) = (routed.book, routed.id)
                    if let index = byBook.firstIndex(where: { $0.0 == book }) {
                        byBook[index].1.append(own)
                    } else {
                        byBook.append((book, [own]))
                    }
                }
                for (book, own) in byBook { parts.append((try await shelf.wallet(for: book), own)) }
            }
        } catch {
            return .failure(UIFailure(any: error))
        }
        do throws(UIFailure) {
            return .success(try await CardExport.run(request, parts: parts, progress: progress))
        } catch {
            return .failure(error)
        }
    }
}

extension Bookshelf {
    /// The interface's first frame: the All view's cards from every book's cache (with the
    /// labels of the BOOK column first) when the list last showed every book, else the account's
    /// own cached wallet (``WalletAccounts/firstFrame()``).
    public func firstFrame(views: BookViews) async -> [AppAction] {
        guard views.showsAll else { return await accounts.firstFrame().map { [$0] } ?? [] }
        let shown = await self.books()
        guard shown.count > 1 else {
            views.showsAll = false
            return await accounts.firstFrame().map { [$0] } ?? []
        }
        // The account's own book from its early read (kept by its wallet), the others from the
        // early shelf; whatever the start did not read is read now.
        let early = await accounts.earlyShelf()
        defer { early?.closeRest() }
        let listings = await cachedListings(books: shown, early: early, tagged: true)
        let cards = Array(listings.map(\.cards).joined())
        views.keep(cards)
        let showing = AppAction.showingBooks(self.labels(shown))
        guard let asOf = listings.map({ $0.offlineAsOf ?? .distantPast }).min() else { return [showing] }
        let page = CardPage(cards: cards, total: cards.count, offset: 0, limit: max(1, cards.count))
        return [showing, .cachedWallet(page, asOf: asOf)]
    }
}
