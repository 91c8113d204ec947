import CardWalletUI

/// Filtering as you type: each keystroke timed on its own (reduce + render + diff against the
/// frame before it), sizes round-robin.
struct FilterTimings {
    /// `first[s]`: the first key at size `s` (a scan of every card), one sample per round.
    var first: [[Double]]
    /// Every later key of the query (narrowing the previous result).
    var later: [[Double]]
    /// Every Backspace back to the empty query.
    var backspace: [[Double]]
    /// How many cards the full query kept, by size (checked against a plain re-count).
    var matches: [Int: Int]

    /// Types ``ListScaleFigure/query`` and deletes it again on a copy of each scene's state.
    ///
    /// - Throws: ``BenchError`` when the filter keeps a different number of cards than a plain
    ///   re-count, or the filter prompt does not open.
    static func measure(_ scenes: [Scene], sampler: Sampler) throws -> FilterTimings {
        let query = Array(ListScaleFigure.query)
        var timings = FilterTimings(
            first: Array(repeating: [], count: scenes.count), later: Array(repeating: [], count: scenes.count),
            backspace: Array(repeating: [], count: scenes.count), matches: [:])
        var prompts: [(state: AppState, frame: Grid)] = []
        for scene in scenes {
            var state = scene.state
            _ = state.reduce(.key(.char("/")))
            guard state.list.isEditingFilter else { throw BenchError("\"/\" did not open the filter prompt") }
            prompts.append((state, Renderer.render(state)))
        }
        for round in 0..<(sampler.warmup + sampler.rounds) {
            let keeps = round >= sampler.warmup
            for position in Sampler.order(count: scenes.count, round: round) {
                var state = prompts[position].state
                var previous = prompts[position].frame
                let clock = ContinuousClock()
                func time(_ key: Key) -> Double {
                    let start = clock.now
                    _ = state.reduce(.key(key))
                    let frame = Renderer.render(state)
                    blackHole(frame.changes(from: previous))
                    let elapsed = seconds(from: start, to: clock.now)
                    previous = frame
                    return elapsed
                }
                for (offset, character) in query.enumerated() {
                    let elapsed = time(.char(character))
                    guard keeps else { continue }
                    if offset == 0 {
                        timings.first[position].append(elapsed)
                    } else {
                        timings.later[position].append(elapsed)
                    }
                }
                let kept = state.list.cards.rows.count
                if round == 0 {
                    let cards = scenes[position].cards
                    let expected = WalletFixture.expectedMatches(String(query), cards: cards)
                    guard kept == expected, state.list.cards.query == String(query) else {
                        throw BenchError(
                            "the filter \"\(String(query))\" kept \(kept) of \(cards) cards; a plain re-count says \(expected)"
                        )
                    }
                    timings.matches[cards] = kept
                }
                for _ in query {
                    let elapsed = time(.backspace)
                    if keeps { timings.backspace[position].append(elapsed) }
                }
                guard state.list.cards.query.isEmpty, state.list.cards.rows.count == scenes[position].cards else {
                    throw BenchError("Backspace to an empty filter did not bring every card back")
                }
            }
        }
        return timings
    }
}
