public import CardBackend
import CardCache
public import CardModels
import CardWalletUI
import Foundation

/// A card asked for by id that the server does not have.
public struct CardMissing: BackendFailure, Equatable {
    /// The id.
    public var id: String

    public var failureKind: BackendFailureKind { .notFound }

    public var description: String {
        "There is no card \(TerminalText.escaped(id)) in the wallet (or it was deleted meanwhile)."
    }
}

/// The reads of `export`, `query`, `qr` and `image`: whole cards, the server's query and card
/// pictures, recorded in the cache online and answered from it offline (docs/Cache.md).
extension CachedWallet {
    /// Whole cards, in this order (`ids`), or every card of the wallet in wallet order (`nil`).
    ///
    /// Online, the backend reads them in its batches (`progress` is told how many have come)
    /// and they are recorded; when the server cannot be reached, the cache answers, and only
    /// when it holds every one of them in full (a card never read in full while online is not
    /// cached).
    ///
    /// - Throws: what the server threw (a card asked for by id that does not exist is "not
    ///   found"), or ``OfflineReadError``.
    public func wholeCards(
        ids: [String]?, _ mode: WalletReadMode, progress: (@Sendable (_ done: Int, _ total: Int) -> Void)? = nil
    ) async throws -> WalletAnswer<[Card]> {
        if mode == .offline { return try offlineWholeCards(ids: ids) }
        do {
            var wanted = ids ?? []
            if ids == nil {
                let listed = try await list(.online)
                // The list came from the cache: the server cannot be reached.
                if listed.offlineAsOf != nil { return try offlineWholeCards(ids: nil) }
                wanted = listed.value.map(\.id)
            }
            let total = wanted.count
            progress?(0, total)
            var reporter: (@Sendable (Int) -> Void)?
            if let progress { reporter = { done in progress(done, total) } }
            let cards = try await backend.cards(ids: wanted, progress: reporter)
            if ids != nil, cards.count < wanted.count {
                let found = Set(cards.map(\.id))
                let gone = wanted.first { !found.contains($0) } ?? ""
                // The backend's own answer for it (the server's "no such card"), when it has one.
                _ = try await backend.card(id: gone)
                throw CardMissing(id: gone)
            }
            if let cache { attempt { try cache.storeCards(cards, confirmedAt: Date()) } }
            return WalletAnswer(value: cards, offlineAsOf: nil)
        } catch  where BackendFailures.isNetworkFailure(error) && cache != nil {
            return try offlineWholeCards(ids: ids)
        }
    }

    /// The cards whose name, company, title or email contains `text` (as the server's `query`
    /// matches: ignoring case and width), in wallet order.
    public func matching(_ text: String, _ mode: WalletReadMode) async throws -> WalletAnswer<[CardSummary]> {
        if mode == .online {
            do {
                if backend.capabilities.searchesOnServer {
                    return WalletAnswer(value: try await backend.search(text), offlineAsOf: nil)
                }
                _ = try await list(.online)
            } catch  where !BackendFailures.isNetworkFailure(error) || cachedList() == nil {
                throw error
            } catch {}
        }
        let list = try offlineListAnswer()
        let needle = Self.fold(text.trimmingCharacters(in: .whitespacesAndNewlines))
        let cards = list.value.filter { card in
            needle.isEmpty
                || [card.name, card.company, card.title, card.email].contains {
                    $0.map(Self.fold)?.contains(needle) == true
                }
        }
        return WalletAnswer(value: cards, offlineAsOf: list.offlineAsOf)
    }

    /// The cached whole cards with these ids (`nil` for one the cache does not hold in full).
    public func cachedCards(ids: [String]) -> [Card?] {
        guard let cache, let kept = attempt({ try cache.cards(ids: ids) }) else {
            return Array(repeating: nil, count: ids.count)
        }
        return kept.map { $0?.card }
    }

    /// The picture of `card` (which has one). Online (`offline` false) it is read from the
    /// server and recorded for the card's revision; when the server cannot be reached, or when
    /// `offline`, the cache's picture of that very revision answers.
    ///
    /// - Throws: what the server threw, or ``OfflineReadError`` when the picture is not cached.
    public func image(of card: Card, offline: Bool) async throws -> WalletAnswer<CardImage> {
        if !offline {
            do {
                let image = try await backend.image(of: card.id)
                if let cache {
                    attempt {
                        try cache.storeImage(
                            cardID: card.id, revision: image.revision ?? card.revision, contentType: image.contentType,
                            data: image.data, confirmedAt: Date())
                    }
                }
                return WalletAnswer(value: image, offlineAsOf: nil)
            } catch  where !BackendFailures.isNetworkFailure(error) || cache == nil {
                throw error
            } catch {}
        }
        guard let cache, let kept = attempt({ try cache.image(cardID: card.id) }) ?? nil,
            kept.revision == card.revision
        else {
            throw OfflineReadError(
                "offline, and the image of this card is not cached: it was never shown or exported while online")
        }
        let image = CardImage(
            data: kept.data, contentType: kept.contentType, format: CardImageFormat(sniffing: [UInt8](kept.data)),
            revision: kept.revision)
        return WalletAnswer(value: image, offlineAsOf: kept.confirmedAt)
    }

    /// The picture of card `id` at `revision` for the interface's detail view: read from the
    /// server and recorded in the cache for that revision; when the server cannot be reached,
    /// the cache's picture of that very revision.
    ///
    /// - Throws: ``CardWalletUI/UIFailure``: the server's failure, or, offline, that the
    ///   picture is not cached.
    func picture(id: String, revision: CardRevision) async throws(UIFailure) -> CardImage {
        let card = Card(
            id: id, fields: CardFields(name: ""), createdAt: Date(timeIntervalSince1970: 0),
            updatedAt: Date(timeIntervalSince1970: 0), revision: revision)
        do {
            return try await image(of: card, offline: false).value
        } catch let error as any BackendFailure {
            throw UIFailure(error)
        } catch {
            throw UIFailure(.other, message: "Offline: this picture was never shown while online, so it is not cached")
        }
    }

    private func offlineListAnswer() throws -> WalletAnswer<[CardSummary]> {
        guard let list = cachedList() else {
            throw OfflineReadError(
                "offline, and no cards are cached for this account yet: run a command once while the server can be reached"
            )
        }
        return WalletAnswer(value: list.cards, offlineAsOf: list.confirmedAt)
    }

    private func offlineWholeCards(ids: [String]?) throws -> WalletAnswer<[Card]> {
        let list = try offlineListAnswer()
        let wanted = ids ?? list.value.map(\.id)
        let known = Set(list.value.map(\.id))
        if wanted.contains(where: { !known.contains($0) }) {
            throw OfflineReadError("offline, and there is no card with this id in the cached wallet", isNotFound: true)
        }
        let kept = cache.flatMap { cache in attempt { try cache.cards(ids: wanted) } } ?? []
        let cards = kept.compactMap { $0 }
        guard cards.count == wanted.count, kept.count == wanted.count else {
            // Never a card cut down to its list entry: say which ones lack their whole card.
            let lacking = kept.count == wanted.count ? zip(wanted, kept).filter { $0.1 == nil }.map(\.0) : wanted
            throw OfflineReadError(Self.lackingText(lacking, in: list.value))
        }
        let asOf = ([list.offlineAsOf].compactMap { $0 } + cards.map(\.confirmedAt)).min()
        return WalletAnswer(value: cards.map(\.card), offlineAsOf: asOf ?? Date())
    }

    /// The cards the cache knows only from the list, by name and id (at most 5 named).
    static func lackingText(_ ids: [String], in cards: [CardSummary]) -> String {
        let names = Dictionary(cards.map { ($0.id, $0.name) }, uniquingKeysWith: { first, _ in first })
        let shown = ids.prefix(5).map { id in
            "“\(TerminalText.escaped(names[id] ?? ""))” (\(TerminalText.escaped(id)))"
        }
        let more = ids.count > shown.count ? " and \(ids.count - shown.count) more" : ""
        let count = ids.count == 1 ? "1 card is" : "\(ids.count) cards are"
        return "offline, and \(count) cached only as a list entry, without the whole card "
            + "(run `cardwallet sync` while the server can be reached): "
            + shown.joined(separator: ", ") + more + "; nothing was exported"
    }

    /// Folds case and width, as the server's query does.
    static func fold(_ text: String) -> String {
        text.folding(options: [.caseInsensitive, .widthInsensitive], locale: nil)
    }
}
