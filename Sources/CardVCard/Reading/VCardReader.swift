#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// Reads vCards 2.1, 3.0 and 4.0 one card at a time, as phones and programs really write them.
///
/// ```swift
/// var reader = VCardReader(bytes: Array(data))
/// while let item = reader.next() {
///     switch item {
///     case .card(let card): …
///     case .problem(let problem): print(problem.formatted(file: "contacts.vcf"))
///     case .warning(let warning): print(warning.formatted(file: "contacts.vcf"))
///     }
/// }
/// if let refusal = reader.refusal { … }   // not vCard at all: ignore what came out
/// ```
///
/// It never throws, and every block of the input comes out: a card it can read as a card, a
/// card it cannot read (or lines ending in `END:VCARD` without their `BEGIN:VCARD`) as a
/// ``VCardProblem`` at its line — the reading goes on with the next `BEGIN:VCARD` — and text
/// outside any card that is more than white space (a mail around a pasted card, stray NULs) as
/// a warning. Memory is bounded by one card (``VCardLimits``), time is linear in the input. Only
/// an input without any card in it — no `BEGIN:VCARD`, nor an `END:VCARD` after card lines
/// (binary, empty, text) — or past the card-count limit is refused: ``refusal`` says why in one
/// line once ``next()`` has returned `nil`.
public struct VCardReader {
    /// What the reader yields.
    public enum Item: Sendable {
        /// A complete card.
        case card(VCard)
        /// A block that cannot be read as a card (a damaged card, or card lines without their
        /// `BEGIN:VCARD`), skipped.
        case problem(VCardProblem)
        /// Something outside the cards that was ignored (text around them, stray bytes, the odd
        /// last byte of a UTF-16 file); no card was lost to it.
        case warning(VCardProblem)
    }

    private enum State {
        case outside
        case inCard
        /// Inside a vCard 2.1 `AGENT` card nested in the card being read (depth ≥ 1).
        case nested(Int)
    }

    /// Counts, for the summary and the refusal. Once the input is read, every block is a card
    /// or a problem: `cards + problems == blocks`.
    public struct Statistics: Sendable, Hashable {
        /// `BEGIN:VCARD` lines seen (those of nested `AGENT` cards aside).
        public var begun = 0
        /// Blocks of card lines ending in `END:VCARD` without a `BEGIN:VCARD`.
        public var orphans = 0
        /// Complete cards yielded.
        public var cards = 0
        /// Blocks skipped with a problem.
        public var problems = 0
        /// Warnings yielded (outside the cards).
        public var warnings = 0
        /// Bytes read.
        public var bytes = 0

        /// Every block of the input: the cards begun and the orphaned blocks.
        public var blocks: Int { begun + orphans }
    }

    private var lines: LogicalLines
    private let notes: DecodingNotes
    private let parser: ContentLineParser
    private let limits: VCardLimits
    private var state = State.outside
    private var finished = false

    // The card being read: its properties are offsets into `lines.bytes`.
    private var version: VCardVersion?
    private var properties: [PropertyLayout] = []
    /// The problems of the properties kept as their lines (``PropertyLayout/Flags/damaged``).
    private var damages: [Int: String] = [:]
    private var warnings: [VCardProblem] = []
    /// The properties left out, with what was wrong with each: a card left without a name
    /// by them is skipped with the first reason.
    private var dropped: [VCardProblem] = []
    private var beginLine = 0
    private var cardBytes = 0
    private var broken: VCardProblem?

    private var queue: [Item] = []
    private var queueStart = 0
    /// What stands outside the cards since the last one.
    private var stray = StrayText()
    private var sawNonBlank = false
    private var sawBinary = false

    /// Why the input was refused, once ``next()`` returned `nil`; then ignore what it yielded.
    public private(set) var refusal: VCardRefusal?
    /// What was read so far.
    public private(set) var statistics = Statistics()

    /// A reader of `source`: UTF-8 (a byte-order mark is dropped) or UTF-16 (with or without a
    /// byte-order mark), read in its chunks.
    public init(source: some VCardByteSource, limits: VCardLimits = .standard) {
        let notes = DecodingNotes()
        self.notes = notes
        lines = LogicalLines(source: UnicodeSource(source, notes: notes), maximumLength: limits.maximumLineBytes)
        parser = ContentLineParser(converter: CharsetConverter())
        self.limits = limits
    }

    /// A reader of bytes in memory.
    public init(bytes: [UInt8], limits: VCardLimits = .standard) {
        self.init(source: InMemoryByteSource(bytes), limits: limits)
    }

    /// The next card, problem or warning, or `nil` at the end (or when the input was refused).
    public mutating func next() -> Item? {
        while queueStart == queue.count, !finished {
            guard let line = lines.next() else {
                finish()
                break
            }
            statistics.bytes = lines.bytesRead
            handle(line)
        }
        guard queueStart < queue.count else { return nil }
        let item = queue[queueStart]
        queueStart += 1
        if queueStart == queue.count {
            queue.removeAll(keepingCapacity: true)
            queueStart = 0
        }
        return item
    }

    /// One content line: kept (its bytes stay in `lines.bytes`) only when it is a property of
    /// the card; every other line's bytes are dropped once it is handled.
    private mutating func handle(_ line: LogicalLines.Line) {
        switch state {
        case .outside:
            outside(line)
            lines.drop(from: line.range.lowerBound)
        case .inCard:
            switch VCardMarker.of(lines.bytes[line.range]) {
            case .begin:
                let hasNUL = Self.hasNUL(lines.bytes, line.range)
                lines.drop(from: line.range.lowerBound)
                if let last = properties.last, Self.isEmptyAgent(last, in: lines.bytes) {
                    state = .nested(1)
                } else {
                    fail(
                        VCardProblem(
                            line: beginLine,
                            "the card has no END:VCARD before the next BEGIN:VCARD (line \(line.number))"))
                    begin(at: line.number, strayBytes: hasNUL)
                }
            case .end:
                if Self.hasNUL(lines.bytes, line.range) { warn(line.number, "NUL bytes around END:VCARD, ignored") }
                lines.drop(from: line.range.lowerBound)
                end(at: line.number)
            case nil:
                if !add(line) { lines.drop(from: line.range.lowerBound) }
            }
        case .nested(let depth):
            switch VCardMarker.of(lines.bytes[line.range]) {
            case .begin:
                if depth >= 4 { markBroken(VCardProblem(line: line.number, "AGENT cards are nested too deeply")) }
                state = .nested(depth + 1)
            case .end: state = depth == 1 ? .inCard : .nested(depth - 1)
            case nil: break
            }
            lines.drop(from: line.range.lowerBound)
        }
    }

    private static func hasNUL(_ bytes: [UInt8], _ range: Range<Int>) -> Bool {
        bytes.withUnsafeBufferPointer { buffer in
            guard !range.isEmpty else { return false }
            return memchr(buffer.baseAddress! + range.lowerBound, 0, range.count) != nil
        }
    }

    /// Whether `layout` is an `AGENT` property with an empty value (a 2.1 card nested after it).
    private static func isEmptyAgent(_ layout: PropertyLayout, in bytes: [UInt8]) -> Bool {
        !layout.flags.contains(.binary) && layout.valueStart == layout.valueEnd
            && bytes.withUnsafeBufferPointer { layout.nameEquals("AGENT", in: $0) }
    }

    /// A line between cards: text to report, the start of a card (perhaps after stray bytes on
    /// its line), or the end of card lines whose BEGIN is missing.
    private mutating func outside(_ line: LogicalLines.Line) {
        let bytes = Array(lines.bytes[line.range])
        if bytes.contains(0) { sawBinary = true }
        guard let (marker, start) = VCardMarker.ending(bytes) else {
            if stray.add(bytes[...], line: line.number) { sawNonBlank = true }
            return
        }
        switch marker {
        case .begin:
            stray.add(bytes[..<start], line: line.number, beforeBegin: true)
            if let warning = stray.warning() { note(warning) }
            stray.reset()
            begin(at: line.number, strayBytes: bytes[start...].contains(0))
        case .end:
            stray.add(bytes[..<start], line: line.number)
            sawNonBlank = true
            if stray.isEmpty {
                note(VCardProblem(line: line.number, "END:VCARD without a card before it, ignored"))
            } else {
                statistics.orphans += 1
                fail(stray.orphan(endLine: line.number))
            }
            stray.reset()
        }
    }

    private mutating func begin(at line: Int, strayBytes: Bool) {
        statistics.begun += 1
        if statistics.begun > limits.maximumCards {
            refusal = VCardRefusal("more than \(limits.maximumCards) cards in one file; split it")
            stop()
            return
        }
        state = .inCard
        version = nil
        // Until the card says otherwise (most 2.1 files say VERSION:2.1 on their second line).
        lines.isVersion21 = true
        properties.removeAll(keepingCapacity: true)
        damages.removeAll()
        warnings.removeAll()
        dropped.removeAll()
        lines.drop(from: 0)
        beginLine = line
        cardBytes = 0
        broken = nil
        if strayBytes { warn(line, "NUL bytes around BEGIN:VCARD, ignored") }
    }

    /// A warning for the card being read.
    private mutating func warn(_ line: Int, _ message: String) {
        warnings.append(VCardProblem(line: line, message))
    }

    /// Reads a line of the card; whether it is kept as one of its properties. A line that is
    /// not a property, or a property that cannot be read, costs that line only: the card comes
    /// in without it, with a warning at its line (a value that is not base64 is kept as its
    /// line, for export).
    private mutating func add(_ line: LogicalLines.Line) -> Bool {
        guard broken == nil else { return false }
        // Lines left out are not held, and do not count toward the card's size.
        if line.truncated {
            drop(VCardProblem(line: line.number, "a property is longer than \(Self.size(limits.maximumLineBytes))"))
            return false
        }
        if Self.hasNUL(lines.bytes, line.range) {
            drop(VCardProblem(line: line.number, "binary data (a NUL byte) in a property"))
            return false
        }
        cardBytes += line.range.count
        if cardBytes > limits.maximumCardBytes {
            markBroken(VCardProblem(line: line.number, "the card is larger than \(Self.size(limits.maximumCardBytes))"))
            return false
        }
        let layout: PropertyLayout
        switch parser.parse(
            in: &lines.bytes, start: line.range.lowerBound, end: line.range.upperBound, line: line.number,
            version: version, warnings: &warnings)
        {
        case .failure(let problem):
            drop(problem)
            return false
        case .damaged(let damaged, let problem):
            layout = damaged
            damages[properties.count] = problem.message
        case .property(let read):
            layout = read
            if version == nil, read.nameStart == read.start,
                lines.bytes.withUnsafeBufferPointer({ read.nameEquals("VERSION", in: $0) })
            {
                let value = lines.bytes.withUnsafeBufferPointer { bytes in
                    String(decoding: bytes[Int(read.valueStart)..<Int(read.valueEnd)], as: UTF8.self)
                }
                version = VCardVersion(versionValue: read.flags.contains(.binary) ? "" : value)
                lines.isVersion21 = version == .v21
                return false
            }
        }
        if properties.count >= limits.maximumProperties {
            markBroken(VCardProblem(line: line.number, "the card has more than \(limits.maximumProperties) properties"))
            return false
        }
        properties.append(layout)
        return true
    }

    /// A property left out: the card comes in without it, and says so.
    private mutating func drop(_ problem: VCardProblem) {
        dropped.append(problem)
        warnings.append(VCardProblem(line: problem.line, problem.message + ": the card comes in without it"))
    }

    private mutating func end(at line: Int) {
        state = .outside
        if let broken {
            fail(broken)
            return
        }
        // Nothing read but lines left out (a UTF-16 card inside a UTF-8 file): a card that
        // cannot be read, for the first of them.
        if properties.isEmpty, let first = dropped.first {
            lines.drop(from: 0)
            fail(first)
            return
        }
        statistics.cards += 1
        let bytes = lines.take()
        var card = VCard(
            version: version ?? .v30,
            properties: properties.enumerated().map { index, layout in
                VCardProperty(PropertyBytes(bytes: bytes, layout: layout, damage: damages[index]), line: layout.line)
            },
            beginLine: beginLine, endLine: line, warnings: warnings)
        card.dropped = dropped
        properties.removeAll(keepingCapacity: true)
        damages.removeAll()
        warnings = []
        dropped = []
        queue.append(.card(card))
    }

    private mutating func markBroken(_ problem: VCardProblem) {
        if broken == nil { broken = problem }
        properties.removeAll()
        damages.removeAll()
        lines.drop(from: 0)
    }

    private mutating func fail(_ problem: VCardProblem) {
        statistics.problems += 1
        queue.append(.problem(problem))
    }

    /// A warning about something outside the cards.
    private mutating func note(_ warning: VCardProblem) {
        statistics.warnings += 1
        queue.append(.warning(warning))
    }

    private mutating func stop() {
        finished = true
        decideRefusal()
    }

    private mutating func finish() {
        statistics.bytes = lines.bytesRead
        switch state {
        case .outside:
            if let warning = stray.warning() { note(warning) }
            stray.reset()
        case .inCard, .nested:
            fail(VCardProblem(line: beginLine, "the card has no END:VCARD (the file ends first)"))
            state = .outside
            lines.drop(from: 0)
        }
        if notes.strayTrailingByte {
            note(
                VCardProblem(
                    line: max(1, lines.lastPhysicalLine),
                    "the UTF-16 file ends with a stray byte (half a character), ignored"))
        }
        if notes.unpairedSurrogates > 0 {
            let count = notes.unpairedSurrogates
            note(
                VCardProblem(
                    line: 1,
                    "the UTF-16 file holds \(count) unpaired surrogate\(count == 1 ? "" : "s") (half a character), read as U+FFFD"
                ))
        }
        stop()
    }

    /// Once the input is over: is it vCard at all?
    private mutating func decideRefusal() {
        guard refusal == nil else { return }
        if let error = lines.readError {
            refusal = VCardRefusal("could not be read: \(error)")
        } else if statistics.blocks == 0 {
            if sawBinary {
                refusal = VCardRefusal("not a vCard file (it holds binary data)")
            } else if !sawNonBlank {
                refusal = VCardRefusal("empty: no vCard in it")
            } else {
                refusal = VCardRefusal("not a vCard file (no BEGIN:VCARD line in it)")
            }
        }
    }

    /// `4 MiB`, or `1000 bytes` for a limit that is not a whole number of MiB.
    private static func size(_ bytes: Int) -> String {
        bytes % (1 << 20) == 0 ? "\(bytes >> 20) MiB" : "\(bytes) bytes"
    }
}
