import CardModels
import CardWalletUI

/// An ``AppState`` on the list screen with N sample cards loaded, built the way the app builds
/// it: a session starts, pages of 200 arrive through the reducer, and `End` asks for the next
/// page whenever the list stops loading ahead.
enum WalletFixture {
    static let server = "http://127.0.0.1:8080/v1"
    static let email = "bench@cardwallet.dev"

    /// The list screen at `width`×`height` with the first `count` sample cards loaded and the
    /// first card selected.
    ///
    /// - Throws: ``BenchError`` when the reducer stops asking for pages before all are loaded.
    static func state(cards count: Int, width: Int = 200, height: Int = 60) throws -> AppState {
        var state = AppState(server: server, width: width, height: height, pageSize: ListState.maximumPageSize)
        var effects = state.reduce(.session(.loggedIn(email: email, server: server)))
        var stalls = 0
        while state.list.cards.loadedCount < count || pendingLoad(effects) != nil {
            guard let (id, offset, limit) = pendingLoad(effects) else {
                // Nothing asked for: go to the end of the list, which loads ahead.
                stalls += 1
                guard stalls < 3 else {
                    throw BenchError("the list stopped loading at \(state.list.cards.loadedCount) of \(count) cards")
                }
                effects = state.reduce(.key(.end))
                continue
            }
            stalls = 0
            let page = SampleCards.page(offset: offset, limit: limit, total: count)
            effects = state.reduce(.completed(id, .success(.cards(page))))
        }
        _ = state.reduce(.key(.home))
        guard state.screen == .list, state.list.cards.loadedCount == count, state.list.cards.isComplete else {
            throw BenchError(
                "expected the list with \(count) cards, got \(state.list.cards.loadedCount) on \(state.screen)")
        }
        return state
    }

    /// The load request among `effects`, if any.
    private static func pendingLoad(_ effects: [Effect]) -> (CallID, offset: Int, limit: Int)? {
        for effect in effects {
            if case .perform(let id, .loadCards(let offset, let limit, _)) = effect { return (id, offset, limit) }
        }
        return nil
    }

    /// `state` with the selection moved down until one more `j` would scroll the list.
    static func atBottomEdge(of state: AppState) -> AppState {
        var current = state
        for _ in 0..<1_000 {
            var next = current
            _ = next.reduce(.key(.char("j")))
            if next.list.scrollTop != current.list.scrollTop || next.list.selection == current.list.selection {
                return current
            }
            current = next
        }
        return current
    }

    /// How many of the first `count` sample cards a filter for `query` must keep: every word
    /// of the query, lower-cased, occurs in the name, company, title or email. A slow, obvious
    /// re-implementation that checks the fast one (ASCII queries only).
    static func expectedMatches(_ query: String, cards count: Int) -> Int {
        let words = query.lowercased().split(separator: " ").map(String.init)
        return (0..<count).count { number in
            let card = SampleCards.summary(number: number)
            let fields = [card.name, card.company ?? "", card.title ?? "", card.email ?? ""].map { $0.lowercased() }
            return words.allSatisfy { word in fields.contains { $0.contains(word) } }
        }
    }
}
