import CardCache
import Foundation

/// #17: the local cache. Search per keystroke over every field of 100,000 cached cards (each
/// prefix of a query typed, as the TUI's `/` asks it: every match's id in wallet order, and a
/// screenful of hits with the field that matched and its excerpt), and
/// opening the cache and reading the wallet for the first frame at 1,000 cards, in-process.
struct CacheFigure: Figure {
    /// The queries typed, one keystroke at a time: Latin (a bio word), Hangul (a substring of a
    /// company), a phone number's digits written with punctuation, a name with an accent typed without.
    static let queries = ["sourdough", "데이터랩", "10-1234", "zoe ang"]
    /// Hits fetched per keystroke: a tall terminal's list.
    static let screenful = 100

    func run(_ context: BenchContext) async throws -> [ResultTable] {
        let searchSize = context.pick(full: 100_000, quick: 2_000)
        let frameSize = context.pick(full: 1_000, quick: 200)
        let sampler = Sampler(warmup: context.pick(full: 2, quick: 0), rounds: context.pick(full: 15, quick: 2))
        context.progress("cache: filling a cache with \(Formatting.grouped(searchSize)) cards")
        let big = try CacheFixture(count: searchSize, label: "search")
        context.progress("cache: filling a cache with \(Formatting.grouped(frameSize)) cards")
        let small = try CacheFixture(count: frameSize, label: "frame")
        defer {
            big.folder.remove()
            small.folder.remove()
        }
        let cache = try big.open()
        defer { cache.close() }

        var table = ResultTable(
            title: "#17 Cache — search per keystroke over every field, \(Formatting.grouped(searchSize)) cards",
            ratioHeader: "÷ first keystroke")
        var notes: [String] = []
        for query in Self.queries {
            let prefixes = (1...query.count).map { String(query.prefix($0)) }
            let searches: [() throws -> Void] = prefixes.map { prefix in
                { () throws -> Void in
                    blackHole(try cache.search(prefix, limit: Self.screenful, allIDs: true, excerpts: true))
                }
            }
            let samples = try sampler.roundRobin(timing: searches)
            let found = try cache.search(query, limit: Self.screenful).total
            guard found > 0 else { throw BenchError("the query \"\(query)\" found nothing in the fixture") }
            notes.append("“\(query)” finds \(Formatting.grouped(found)) cards.")
            let medians: [Double] = samples.map { (column: [Double]) -> Double in Summary(column)?.median ?? 0 }
            var worst = 0
            for index in medians.indices where medians[index] > medians[worst] { worst = index }
            let size = Formatting.grouped(searchSize)
            let targets: [Target] = context.quick ? [] : [.median(.atMost(0.016), "≤ 16 ms")]
            for (index, prefix) in prefixes.enumerated()
            where index == 0 || index == worst || index == prefixes.count - 1 {
                let label = "“" + prefix + "”" + (index == worst ? " (slowest key)" : "")
                let ratio = Summary.pairedRatios(samples[index], samples[0])
                table.rows.append(
                    ResultRow(
                        label: label, size: size, summary: Summary(samples[index]), quantity: .time, ratio: ratio,
                        targets: targets))
            }
        }
        table.notes =
            notes + [
                "Each keystroke: CardCache.search(prefix, limit: \(Self.screenful), allIDs: true, excerpts: true), what the TUI's `/` asks — the FTS5 query, every match's id in wallet order, and for the first \(Self.screenful) the field that matched and its excerpt.",
                "One or two characters use the word index (word starts); three or more the trigram index (substrings); six or more ask for the trigrams every third character, checked by the cardwallet_spaced FTS5 function.",
            ]

        // Opening the cache and reading the wallet, as the first frame needs it.
        var frame = ResultTable(
            title: "#17 Cache — open and read the wallet for the first frame", ratioHeader: "÷ open only")
        let openings = try sampler.roundRobin(
            timing: [
                { () throws -> Void in try small.open().close() },
                { () throws -> Void in
                    let opened = try small.open()
                    defer { opened.close() }
                    guard let list = try? opened.list(), list.cards.count == frameSize else {
                        throw BenchError("the cached list lost cards")
                    }
                    blackHole(list)
                },
            ])
        frame.rows = [
            ResultRow(
                label: "open (checks, migrations, identity)", size: Formatting.grouped(frameSize),
                summary: Summary(openings[0]), quantity: .time, ratio: nil),
            ResultRow(
                label: "open + read every summary", size: Formatting.grouped(frameSize), summary: Summary(openings[1]),
                quantity: .time,
                ratio: Summary.pairedRatios(openings[1], openings[0])),
        ]
        frame.notes = [
            "In-process: the startup figure (§6) spawns the whole program; this is the cache's share of a first frame."
        ]
        return [table, frame]
    }
}
