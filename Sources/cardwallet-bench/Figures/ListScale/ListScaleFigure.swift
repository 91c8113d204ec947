import CardWalletUI

/// §3: the TUI core with 1,000 / 10,000 / 100,000 cards — frame time, `j`, filtering as you
/// type, and resident memory (the last in child processes, see ``MemoryProbeCommand``).
struct ListScaleFigure: Figure {
    /// The query typed into the filter, one keystroke at a time: the first key scans every
    /// card, later keys narrow the previous result, Backspace pops back to it.
    static let query = "grace 1"
    static let width = 200
    static let height = 60

    func run(_ context: BenchContext) async throws -> [ResultTable] {
        let sizes = context.pick(full: [1_000, 10_000, 100_000], quick: [100, 1_000])
        let largest = sizes.max() ?? 0
        let sampler = Sampler(warmup: context.pick(full: 20, quick: 2), rounds: context.pick(full: 300, quick: 5))
        let filterSampler = Sampler(warmup: context.pick(full: 2, quick: 1), rounds: context.pick(full: 30, quick: 2))

        let clock = ContinuousClock()
        var scenes: [Scene] = []
        for size in sizes {
            context.progress("list-scale: loading \(Formatting.grouped(size)) cards")
            let start = clock.now
            let state = try WalletFixture.state(cards: size, width: Self.width, height: Self.height)
            let loadSeconds = seconds(from: start, to: clock.now)
            scenes.append(try Scene(state: state, cards: size, loadSeconds: loadSeconds))
        }

        context.progress("list-scale: frames and j")
        let render = try sampler.roundRobin(timing: scenes.map { scene in { blackHole(Renderer.render(scene.state)) } })
        let moveDown = try sampler.roundRobin(
            timing: scenes.map { scene in { blackHole(scene.pressJ(on: scene.state, previous: scene.frame)) } })
        let moveDownScrolling = try sampler.roundRobin(
            timing: scenes.map { scene in
                { blackHole(scene.pressJ(on: scene.bottomEdge, previous: scene.bottomEdgeFrame)) }
            })
        let diffOnly = try sampler.roundRobin(
            timing: scenes.map { scene in { blackHole(scene.frameAfterJ.changes(from: scene.frame)) } })

        context.progress("list-scale: filter keystrokes")
        let filter = try FilterTimings.measure(scenes, sampler: filterSampler)

        var table = ResultTable(
            title: "§3 List scale — one \(Self.width)×\(Self.height) frame, one keystroke (reduce + render + diff)",
            ratioHeader: "÷ \(Formatting.grouped(sizes[0])) cards")
        /// Rows for each size; the largest gets the targets (`flat` only for frames and `j`).
        func add(_ label: String, _ samples: [[Double]], limit: Double?, limitLabel: String, flat: Bool = false) {
            for (position, scene) in scenes.enumerated() {
                let targeted = !context.quick && scene.cards == largest
                let ratio = Summary.pairedRatios(samples[position], samples[0])
                var targets: [Target] = []
                if targeted, let limit {
                    targets.append(.median(.atMost(limit), limitLabel))
                    if flat {
                        targets.append(.ratio(.atMost(Self.flatRatio), "flat: ≤ \(Formatting.ratio(Self.flatRatio))×"))
                    }
                }
                table.rows.append(
                    ResultRow(
                        label: label, size: scene.sizeLabel, summary: Summary(samples[position]), quantity: .time,
                        ratio: position == 0 ? nil : ratio, targets: targets))
            }
        }
        add("render a full frame", render, limit: 0.001, limitLabel: "median ≤ 1 ms", flat: true)
        add("j (selection moves one row)", moveDown, limit: 0.001, limitLabel: "median ≤ 1 ms", flat: true)
        add(
            "j at the last visible row (scrolls)", moveDownScrolling, limit: 0.001, limitLabel: "median ≤ 1 ms",
            flat: true)
        add("  of which Grid.changes alone", diffOnly, limit: nil, limitLabel: "")
        add("filter: 1st key (scans every card)", filter.first, limit: 0.016, limitLabel: "median ≤ 16 ms")
        add("filter: each later key (narrows)", filter.later, limit: 0.016, limitLabel: "median ≤ 16 ms")
        add("filter: Backspace", filter.backspace, limit: 0.016, limitLabel: "median ≤ 16 ms")
        for scene in scenes {
            table.rows.append(
                ResultRow(
                    label: "load the cards (pages of 200 via reduce), once", size: scene.sizeLabel,
                    summary: Summary(single: scene.loadSeconds), quantity: .time))
        }
        table.notes = [
            "Each keystroke row times reduce(.key) + Renderer.render + Grid.changes(from: previous frame); sizes run round-robin, \(sampler.rounds) rounds after \(sampler.warmup) warm-up.",
            "Filter: \"/\" then \"\(Self.query)\" typed key by key, then Backspace to empty; \(filterSampler.rounds) rounds. Matches checked against a plain re-count: "
                + scenes.map {
                    "\(Formatting.grouped($0.cards)) → \(Formatting.grouped(filter.matches[$0.cards] ?? 0))"
                }.joined(separator: ", ") + ".",
            "Cells repainted by j: " + scenes.map { "\($0.changedCells) (\($0.sizeLabel))" }.joined(separator: ", ")
                + "; by a scrolling j: " + scenes.map { "\($0.changedCellsScrolling)" }.joined(separator: ", ") + ".",
            "\"flat\" (our reading of \"flat in N\"): the largest N's median within \(Formatting.ratio(Self.flatRatio))× the smallest's, paired round by round.",
        ]

        context.progress("list-scale: resident memory (one child process per size)")
        let memory = try await MemoryProbe.table(sizes: sizes, context: context)
        return [table, memory]
    }

    /// How much slower the largest size may be than the smallest and still count as flat.
    static let flatRatio = 1.5
}

/// One size's states and frames, prepared before timing.
struct Scene: Sendable {
    let cards: Int
    let loadSeconds: Double
    let state: AppState
    let frame: Grid
    let frameAfterJ: Grid
    let bottomEdge: AppState
    let bottomEdgeFrame: Grid
    let changedCells: Int
    let changedCellsScrolling: Int

    init(state: AppState, cards: Int, loadSeconds: Double) throws {
        self.cards = cards
        self.loadSeconds = loadSeconds
        self.state = state
        frame = Renderer.render(state)
        var moved = state
        _ = moved.reduce(.key(.char("j")))
        frameAfterJ = Renderer.render(moved)
        bottomEdge = WalletFixture.atBottomEdge(of: state)
        bottomEdgeFrame = Renderer.render(bottomEdge)
        changedCells = Self.cellCount(frameAfterJ.changes(from: frame))
        changedCellsScrolling = Self.cellCount(Self.press("j", on: bottomEdge).changes(from: bottomEdgeFrame))
        guard moved.list.selection == 1, changedCells > 0 else {
            throw BenchError("j did not move the selection to row 1 with \(cards) cards (or changed no cell)")
        }
        guard changedCellsScrolling > 0, bottomEdge.list.selection > 0 else {
            throw BenchError("could not put the selection on the last visible row with \(cards) cards")
        }
        guard frame.text.contains("\(cards) cards") else {
            throw BenchError("the frame's title does not show \(cards) cards")
        }
    }

    var sizeLabel: String { "\(Formatting.grouped(cards)) cards" }

    /// The whole keystroke: reduce, render, and the cells to repaint against `previous`.
    func pressJ(on state: AppState, previous: Grid) -> [Grid.Run] {
        Self.press("j", on: state).changes(from: previous)
    }

    static func press(_ character: Character, on state: AppState) -> Grid {
        var state = state
        _ = state.reduce(.key(.char(character)))
        return Renderer.render(state)
    }

    static func cellCount(_ runs: [Grid.Run]) -> Int { runs.reduce(0) { $0 + $1.cells.count } }
}
