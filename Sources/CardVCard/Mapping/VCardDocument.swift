/// A whole input read and mapped: its cards, the problems of the blocks it skipped, the warnings
/// about what stood outside the cards, or why it was refused as a whole.
///
/// Every block of the input is either a card (``cards``) or skipped (``skipped``, the first of
/// them in ``problems``): `cards.count + skipped == statistics.blocks`.
public struct VCardDocument: Sendable {
    /// The cards to import, in file order (each with its own warnings).
    public var cards: [ImportedCard]
    /// The first problems (at most the `maximumProblems` given to ``read(source:importer:limits:maximumProblems:progress:)``).
    public var problems: [VCardProblem]
    /// How many blocks were skipped in all.
    public var skipped: Int
    /// The first warnings about what stood outside the cards (text around them, stray bytes, the
    /// odd last byte of a UTF-16 file), at most as many as problems are kept.
    public var warnings: [VCardProblem]
    /// How many such warnings there were in all.
    public var warningCount: Int
    /// Why the input is not vCard at all; then ``cards``, ``problems`` and ``warnings`` are empty.
    public var refusal: VCardRefusal?
    /// What the reader saw.
    public var statistics: VCardReader.Statistics

    /// Reads and maps every card of `source`.
    ///
    /// - Parameters:
    ///   - source: the bytes.
    ///   - importer: the mapping.
    ///   - limits: the reader's bounds.
    ///   - maximumProblems: how many problems (and warnings) to keep (the rest are counted), so
    ///     that a file of 50,000 broken cards costs no more memory than one of 100.
    ///   - progress: called with the number of cards read so far, every 500 cards.
    public static func read(
        source: some VCardByteSource, importer: VCardImporter = VCardImporter(), limits: VCardLimits = .standard,
        maximumProblems: Int = 100, progress: ((Int) -> Void)? = nil
    ) -> VCardDocument {
        var reader = VCardReader(source: source, limits: limits)
        var document = VCardDocument(
            cards: [], problems: [], skipped: 0, warnings: [], warningCount: 0, refusal: nil, statistics: .init())
        var seen = 0
        func note(_ problem: VCardProblem) {
            document.skipped += 1
            if document.problems.count < maximumProblems { document.problems.append(problem) }
        }
        while let item = reader.next() {
            switch item {
            case .card(let card):
                switch importer.card(from: card) {
                case .success(let imported): document.cards.append(imported)
                case .failure(let problem): note(problem)
                }
            case .problem(let problem):
                note(problem)
            case .warning(let warning):
                document.warningCount += 1
                if document.warnings.count < maximumProblems { document.warnings.append(warning) }
                continue
            }
            seen += 1
            if seen % 500 == 0 { progress?(seen) }
        }
        document.statistics = reader.statistics
        if let refusal = reader.refusal {
            document = VCardDocument(
                cards: [], problems: [], skipped: 0, warnings: [], warningCount: 0, refusal: refusal,
                statistics: reader.statistics)
        }
        return document
    }

    /// Reads and maps every card of `bytes`.
    public static func read(bytes: [UInt8], importer: VCardImporter = VCardImporter()) -> VCardDocument {
        read(source: InMemoryByteSource(bytes), importer: importer)
    }
}
