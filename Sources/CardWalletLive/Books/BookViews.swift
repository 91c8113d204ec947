import CardModels
import Foundation
import Synchronization

/// What the interface's list shows: one book (the account in use's), or every book of every
/// account at once (the All view), and the All view's list as last read, sliced into the
/// interface's pages.
public final class BookViews: Sendable {
    private struct State {
        var showsAll: Bool
        var merged: [CardSummary] = []
        var generation = 0
    }

    private let state: Mutex<State>

    /// One book, or every book when `showsAll` (what the wallet remembers: ``RememberedBooks/showsAll``).
    public init(showsAll: Bool) {
        state = Mutex(State(showsAll: showsAll))
    }

    /// Whether every book shows at once.
    public var showsAll: Bool {
        get { state.withLock { $0.showsAll } }
        set {
            state.withLock { state in
                state.showsAll = newValue
                state.generation += 1
            }
        }
    }

    /// Counts the changes of what is shown (a book switched, the All view shown or left): a
    /// background sync of what was shown before is dropped.
    var generation: Int { state.withLock { $0.generation } }

    /// Another book shows (one book's view to another's).
    func switched() {
        state.withLock { $0.generation += 1 }
    }

    /// The All view's list as last kept.
    var kept: [CardSummary] { state.withLock { $0.merged } }

    /// Keeps the All view's list (its cards' ids name their books) for the pages after the first.
    func keep(_ merged: [CardSummary]) {
        state.withLock { $0.merged = merged }
    }

    /// The page of the All view's list from `offset` (the first page: all of it, as the
    /// interface's whole listings come).
    func page(offset: Int, limit: Int) -> CardPage {
        state.withLock { state in
            let slice = Array(state.merged.dropFirst(offset).prefix(offset == 0 ? state.merged.count : limit))
            return CardPage(cards: slice, total: state.merged.count, offset: offset, limit: max(1, slice.count))
        }
    }
}
