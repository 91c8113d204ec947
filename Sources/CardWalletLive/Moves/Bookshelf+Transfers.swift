public import CardCache
public import CardModels
import Foundation

/// How a move, a copy or a merge ended.
public struct TransferOutcome: Sendable, Equatable {
    /// Where it stands.
    public enum State: Sendable, Equatable {
        /// Done: the card is in its new book (and gone from the old one for a move or a merge).
        case done
        /// It waits in the outbox of the card's book (its server, or the other's, cannot be
        /// reached now, or the session is over): sent by the next replay (`cardwallet sync`, the
        /// interface); the card is in at least one of the two books meanwhile.
        case waiting(String)
        /// A server refused it (the card changed, the other book refused its values): it stays
        /// in the outbox, refused; the card is where it was (or in both).
        case refused(String)
    }

    /// Where it stands.
    public var state: State
    /// The card in its new book, once written.
    public var written: TransferWritten?
}

/// Why a transfer cannot be asked for: nothing was recorded or sent.
public struct TransferRefusal: Error, Sendable, CustomStringConvertible {
    public let description: String

    init(_ description: String) { self.description = description }
}

extension Bookshelf {
    /// Moves or copies `card` to `target` (docs/Cache.md, *Moves, copies and merges*): the card
    /// is read whole, the order recorded in the outbox of its book as one entry, then carried
    /// out at once (after the changes that wait before it). A move or copy of this card that
    /// waits already (interrupted) is carried on instead, not asked for twice.
    ///
    /// - Throws: ``TransferRefusal`` when it cannot be asked for (the same book, no cache to
    ///   record it in); the source's failure reading the card (not found, offline…).
    public func transfer(_ mode: TransferOrder.Mode, _ card: NamedCard, to target: WalletBook) async throws
        -> TransferOutcome
    {
        guard mode != .merge else { throw TransferRefusal("a merge needs the merged card: use merge") }
        if target.key == card.book.key {
            throw TransferRefusal("“\(TerminalText.escaped(card.summary.name))” is in \(target.label) already.")
        }
        let source = try await wallet(for: card.book)
        guard let cache = source.cache else {
            throw TransferRefusal("a move or a copy is recorded in the card cache first, and there is none here")
        }
        if let waiting = try cache.pendingTransfers(of: card.id).first {
            return await carryOn(waiting.id, in: source)
        }
        let whole = try await source.card(id: card.id, .online)
        guard whole.offlineAsOf == nil else {
            throw TransferRefusal("offline: the card is read from its server before it moves; nothing was changed")
        }
        let order = TransferOrder(
            mode: mode, sourceID: card.id, sourceRevision: whole.value.revision, target: target.transferTarget,
            card: try await source.transferCard(of: whole.value))
        let entry = try cache.enqueue(.transfer(order))
        TransferStep.recorded.reached()
        return await carryOn(entry.id, in: source)
    }

    /// Writes `merged` over `keep` (its book keeps the merged card) and deletes `drop`, as one
    /// order in the outbox of `drop`'s book, carried out at once.
    ///
    /// - Throws: ``TransferRefusal`` for one card twice or no cache.
    public func merge(keep: NamedCard, at revision: CardRevision, drop: NamedCard, merged: TransferCard) async throws
        -> TransferOutcome
    {
        guard !(keep.book.key == drop.book.key && keep.id == drop.id) else {
            throw TransferRefusal("a card is not merged with itself")
        }
        let source = try await wallet(for: drop.book)
        guard let cache = source.cache else {
            throw TransferRefusal("a merge is recorded in the card cache first, and there is none here")
        }
        let current = try await source.card(id: drop.id, .online)
        guard current.offlineAsOf == nil else {
            throw TransferRefusal(
                "offline: the cards are read from their servers before they merge; nothing was changed")
        }
        let order = TransferOrder(
            mode: .merge, sourceID: drop.id, sourceRevision: current.value.revision, target: keep.book.transferTarget,
            card: merged, over: TransferWritten(id: keep.id, revision: revision))
        let entry = try cache.enqueue(.transfer(order))
        TransferStep.recorded.reached()
        return await carryOn(entry.id, in: source)
    }

    /// Replays the outbox of `source` (every book within reach) and says where entry `id` stands.
    func carryOn(_ id: Int64, in source: CachedWallet) async -> TransferOutcome {
        let watch = TransferWatch()
        let report = await replay(source, watchedBy: watch)
        let entry = (try? source.cache?.outbox())?.first { $0.id == id }
        switch entry?.state {
        case nil, .sent?:
            return TransferOutcome(state: .done, written: watch.written(of: id))
        case .failed?:
            return TransferOutcome(state: .refused(entry?.lastError ?? "refused"), written: nil)
        case .pending?, .sending?:
            let why =
                report.stoppedForLogin
                ? "a session is over: log in again, then `cardwallet sync`"
                : (entry?.lastError ?? "a server cannot be reached")
            return TransferOutcome(state: .waiting(why), written: nil)
        }
    }

    /// `source`'s outbox replayed, its transfers reaching the other books and told to `watch`.
    /// A function of its own, not inlined, so that the bindings' values are made before it (see
    /// ``CachedWallet/transferWatch``).
    @inline(never)
    private func replay(_ source: CachedWallet, watchedBy watch: TransferWatch) async -> OutboxReplayReport {
        await CachedWallet.$transferPeers.withValue(self) {
            await CachedWallet.$transferWatch.withValue(watch) { await source.replayOutbox() }
        }
    }

    /// Carries on every move, copy and merge (and every other change) waiting in any book's
    /// outbox: what `cardwallet sync` does for the books it does not list.
    public func replayEveryOutbox() async -> [(WalletBook, OutboxReplayReport)] {
        var reports: [(WalletBook, OutboxReplayReport)] = []
        for book in await books() {
            guard let wallet = await existingWallet(for: book), let cache = wallet.cache,
                let waiting = try? cache.pendingChanges(), !waiting.isEmpty
            else { continue }
            let report = await CachedWallet.$transferPeers.withValue(self) { await wallet.replayOutbox() }
            reports.append((book, report))
        }
        return reports
    }
}
