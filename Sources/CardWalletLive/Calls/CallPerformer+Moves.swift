import CardBackend
import CardCache
import CardModels
import CardWalletUI
import Foundation

/// The interface's moves, copies and merges (issue 40): `m` and `c` pick a book from every
/// stored account's, `M` merges two marked cards; each is one outbox entry carried out at once
/// (docs/Cache.md, *Moves, copies and merges*).
extension CallPerformer {
    /// The answer to a call about moves, copies and merges; `nil` for the others.
    func performMoves(_ call: AppCall) async -> CallOutcome? {
        switch call {
        case .listBooks:
            let books = await shelf.books(refresh: true)
            let current = await shelf.currentBook(among: books)
            return .success(
                .books(
                    books.map {
                        BookChoice(tag: shelf.tag(of: $0), label: $0.label, account: $0.account, inUse: $0 == current)
                    }))
        case .transferCard(let id, let tag, let copy):
            return await transfer(id: id, toBook: tag, copy: copy)
        case .loadMerge(let left, let right):
            return await loadMerge(left, right)
        case .mergeCards(let plan):
            return await merge(plan)
        default:
            return nil
        }
    }

    /// The book and own id of a card of the list: its book's when the id names one (the All
    /// view), else the book in use's.
    private func located(_ id: String) async -> (book: WalletBook, id: String)? {
        if let found = book(of: id) { return found }
        let books = shelf.knownBooks.isEmpty ? await shelf.books() : shelf.knownBooks
        guard let current = await shelf.currentBook(among: books) else { return nil }
        return (current, BookCardID.bare(id))
    }

    private func transfer(id: String, toBook tag: String, copy: Bool) async -> CallOutcome {
        guard case (let book, let own)? = await located(id), let target = shelf.book(tagged: tag) else {
            return .failure(UIFailure(.other, message: "That book is not known any more: press B to look again"))
        }
        do {
            let wallet = try await shelf.wallet(for: book)
            let card = try await wallet.card(id: own, .online).value
            let outcome = try await shelf.transfer(
                copy ? .copy : .move, NamedCard(book: book, summary: card.summary), to: target)
            let name = "“\(card.fields.name)”"
            switch outcome.state {
            case .done:
                return .success(.transferred("\(copy ? "Copied" : "Moved") \(name) to \(target.label)"))
            case .waiting(let why):
                return .success(
                    .transferred(
                        "The \(copy ? "copy" : "move") of \(name) waits in the outbox (\(why)); it goes on by itself"))
            case .refused(let why):
                return .failure(UIFailure(.other, message: "The \(copy ? "copy" : "move") was refused: \(why)"))
            }
        } catch let refusal as TransferRefusal {
            return .failure(UIFailure(.other, message: refusal.description))
        } catch {
            return .failure(UIFailure(any: error))
        }
    }

    private func loadMerge(_ left: String, _ right: String) async -> CallOutcome {
        guard let one = await located(left), let other = await located(right) else {
            return .failure(UIFailure(.other, message: "Those cards are not known any more: reload (r)"))
        }
        do {
            var first = try await shelf.wallet(for: one.book).card(id: one.id, .online)
            var second = try await shelf.wallet(for: other.book).card(id: other.id, .online)
            guard first.offlineAsOf == nil, second.offlineAsOf == nil else {
                return .failure(UIFailure(.other, message: "Offline: cards are merged only while their servers answer"))
            }
            // The ids the list knows them by.
            first.value.id = left
            second.value.id = right
            return .success(
                .mergeCandidates(
                    left: first.value, right: second.value, leftBook: one.book.label, rightBook: other.book.label))
        } catch {
            return .failure(UIFailure(any: error))
        }
    }

    private func merge(_ plan: CardMergePlan) async -> CallOutcome {
        guard let keptPlace = await located(plan.card(plan.keep).id),
            let droppedPlace = await located(plan.card(plan.keep.other).id)
        else { return .failure(UIFailure(.other, message: "Those cards are not known any more: reload (r)")) }
        do {
            var bare = plan
            bare.left.id = BookCardID.bare(plan.left.id)
            bare.right.id = BookCardID.bare(plan.right.id)
            let kept = bare.card(bare.keep)
            let dropped = bare.card(bare.keep.other)
            var picture: (data: Data, type: String)?
            if !kept.hasImage, dropped.hasImage, dropped.source == nil {
                let image = try await shelf.wallet(for: droppedPlace.book).image(of: dropped, offline: false).value
                picture = (image.data, image.contentType)
            }
            let merged = try CardMerger.merged(bare, droppedPicture: picture)
            let outcome = try await shelf.merge(
                keep: NamedCard(book: keptPlace.book, summary: kept.summary), at: kept.revision,
                drop: NamedCard(book: droppedPlace.book, summary: dropped.summary), merged: merged)
            switch outcome.state {
            case .done:
                return .success(.transferred("Merged into “\(bare.fields.name)” in \(keptPlace.book.label)"))
            case .waiting(let why):
                return .success(.transferred("The merge waits in the outbox (\(why)); it goes on by itself"))
            case .refused(let why):
                return .failure(UIFailure(.other, message: "The merge was refused: \(why)"))
            }
        } catch let refusal as TransferRefusal {
            return .failure(UIFailure(.other, message: refusal.description))
        } catch {
            return .failure(UIFailure(any: error))
        }
    }
}
