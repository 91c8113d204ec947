/// A whole input read and mapped: its cards, the problems of the cards it skipped, or why it
/// was refused as a whole.
public struct VCardDocument: Sendable {
    /// The cards to import, in file order.
    public var cards: [ImportedCard]
    /// The first problems (at most the `maximumProblems` given to ``read(source:importer:maximumProblems:progress:)``).
    public var problems: [VCardProblem]
    /// How many cards were skipped in all.
    public var skipped: Int
    /// Why the input is not vCard at all; then ``cards`` and ``problems`` are empty.
    public var refusal: VCardRefusal?
    /// What the reader saw.
    public var statistics: VCardReader.Statistics

    /// Reads and maps every card of `source`.
    ///
    /// - Parameters:
    ///   - source: the bytes.
    ///   - importer: the mapping.
    ///   - limits: the reader's bounds.
    ///   - maximumProblems: how many problems to keep (the rest are counted), so that a file of
    ///     50,000 broken cards costs no more memory than one of 100.
    ///   - progress: called with the number of cards read so far, every 500 cards.
    public static func read(
        source: some VCardByteSource, importer: VCardImporter = VCardImporter(), limits: VCardLimits = .standard,
        maximumProblems: Int = 100, progress: ((Int) -> Void)? = nil
    ) -> VCardDocument {
        var reader = VCardReader(source: UnicodeDetectingSource(source), limits: limits)
        var document = VCardDocument(cards: [], problems: [], skipped: 0, refusal: nil, statistics: .init())
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
            }
            seen += 1
            if seen % 500 == 0 { progress?(seen) }
        }
        document.statistics = reader.statistics
        if let refusal = reader.refusal {
            document = VCardDocument(
                cards: [], problems: [], skipped: 0, refusal: refusal, statistics: reader.statistics)
        }
        return document
    }

    /// Reads and maps every card of `bytes`.
    public static func read(bytes: [UInt8], importer: VCardImporter = VCardImporter()) -> VCardDocument {
        read(source: InMemoryByteSource(bytes), importer: importer)
    }
}

/// Passes bytes through, except a file that starts with a UTF-16 byte-order mark (some Windows
/// programs write those), which is converted to UTF-8 whole, and a UTF-8 byte-order mark, which
/// is dropped.
struct UnicodeDetectingSource: VCardByteSource {
    private var base: any VCardByteSource
    private var started = false

    init(_ base: some VCardByteSource) { self.base = base }

    mutating func nextChunk() throws -> [UInt8]? {
        guard !started else { return try base.nextChunk() }
        started = true
        guard var first = try base.nextChunk() else { return nil }
        // Enough bytes to see a byte-order mark.
        while first.count < 3, let more = try base.nextChunk() { first += more }
        let isUTF16 = first.starts(with: [0xFF, 0xFE]) || first.starts(with: [0xFE, 0xFF])
        guard isUTF16 else { return VCardReader.utf8(fromPossiblyUTF16: first) }
        // UTF-16 text files are small address books; converting them whole keeps this simple.
        while let more = try base.nextChunk() {
            first += more
            if first.count > 64 << 20 { break }
        }
        return VCardReader.utf8(fromPossiblyUTF16: first)
    }
}
