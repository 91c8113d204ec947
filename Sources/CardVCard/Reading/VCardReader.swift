/// Reads vCards 2.1, 3.0 and 4.0 one card at a time, as phones and programs really write them.
///
/// ```swift
/// var reader = VCardReader(bytes: Array(data))
/// while let item = reader.next() {
///     switch item {
///     case .card(let card): …
///     case .problem(let problem): print(problem.formatted(file: "contacts.vcf"))
///     }
/// }
/// if let refusal = reader.refusal { … }   // not vCard at all: ignore what came out
/// ```
///
/// It never throws: a card it cannot read comes out as a ``VCardProblem`` at its line and the
/// reading goes on. Memory is bounded by one card (``VCardLimits``), time is linear in the
/// input. When the input is not vCard at all (binary, empty, only broken cards) or goes past a
/// limit, ``refusal`` says why in one line once ``next()`` has returned `nil`.
public struct VCardReader {
    /// What the reader yields.
    public enum Item: Sendable {
        /// A complete card.
        case card(VCard)
        /// A card that cannot be read, skipped.
        case problem(VCardProblem)
    }

    private enum State {
        case outside
        case inCard
        /// Inside a vCard 2.1 `AGENT` card nested in the card being read (depth ≥ 1).
        case nested(Int)
    }

    /// Counts, for the summary and the refusal.
    public struct Statistics: Sendable, Hashable {
        /// `BEGIN:VCARD` lines seen.
        public var begun = 0
        /// Complete cards yielded.
        public var cards = 0
        /// Cards skipped with a problem.
        public var problems = 0
        /// Bytes read.
        public var bytes = 0
    }

    private var lines: LogicalLines
    private let parser: ContentLineParser
    private let limits: VCardLimits
    private var state = State.outside
    private var finished = false

    // The card being read.
    private var version: VCardVersion?
    private var properties: [VCardProperty] = []
    private var beginLine = 0
    private var cardBytes = 0
    private var broken: VCardProblem?

    private var queue: [Item] = []
    private var sawNonBlank = false
    private var sawBinary = false
    /// Bytes of the content lines handled so far (the reader's position, roughly).
    private var consumed = 0

    /// Why the input was refused, once ``next()`` returned `nil`; then ignore what it yielded.
    public private(set) var refusal: VCardRefusal?
    /// What was read so far.
    public private(set) var statistics = Statistics()

    /// A reader of `source`.
    public init(source: some VCardByteSource, limits: VCardLimits = .standard) {
        lines = LogicalLines(source: source, maximumLength: limits.maximumLineBytes)
        lines.limitLines(to: min(limits.headerWindowBytes, limits.maximumLineBytes), draining: false)
        parser = ContentLineParser(converter: CharsetConverter())
        self.limits = limits
    }

    /// A reader of bytes in memory.
    public init(bytes: [UInt8], limits: VCardLimits = .standard) {
        self.init(source: UnicodeDetectingSource(InMemoryByteSource(bytes)), limits: limits)
    }

    /// The next card or problem, or `nil` at the end (or when the input was refused).
    public mutating func next() -> Item? {
        while queue.isEmpty, !finished {
            guard let line = lines.next() else {
                finish()
                break
            }
            statistics.bytes = lines.bytesRead
            handle(line)
        }
        return queue.isEmpty ? nil : queue.removeFirst()
    }

    private mutating func handle(_ line: LogicalLines.Line) {
        consumed += line.bytes.count + 1
        let marker = Self.marker(line.bytes)
        switch state {
        case .outside:
            if marker == .begin {
                begin(at: line.number)
                return
            }
            if line.bytes.contains(0) { sawBinary = true }
            if line.truncated { consumed += limits.headerWindowBytes }
            sawNonBlank = true
            // Text before the first card is ignored, but not forever: a file that shows no card
            // near its start is not vCard, whatever follows.
            if statistics.begun == 0, sawBinary || consumed > limits.headerWindowBytes { stop() }
        case .inCard:
            switch marker {
            case .begin:
                if properties.last?.key == "AGENT", properties.last?.value.isEmpty == true {
                    state = .nested(1)
                } else {
                    fail(
                        VCardProblem(
                            line: beginLine,
                            "the card has no END:VCARD before the next BEGIN:VCARD (line \(line.number))"))
                    begin(at: line.number)
                }
            case .end:
                end(at: line.number)
            case nil:
                add(line)
            }
        case .nested(let depth):
            switch marker {
            case .begin:
                if depth >= 4 { markBroken(VCardProblem(line: line.number, "AGENT cards are nested too deeply")) }
                state = .nested(depth + 1)
            case .end: state = depth == 1 ? .inCard : .nested(depth - 1)
            case nil: break
            }
        }
    }

    private mutating func begin(at line: Int) {
        if statistics.begun == 0 { lines.limitLines(to: limits.maximumLineBytes, draining: true) }
        statistics.begun += 1
        if statistics.begun > limits.maximumCards {
            refusal = VCardRefusal("more than \(limits.maximumCards) cards in one file; split it")
            stop()
            return
        }
        state = .inCard
        version = nil
        // Until the card says otherwise (most 2.1 files say VERSION:2.1 on their second line).
        lines.allowsBareBase64Lines = true
        properties.removeAll(keepingCapacity: true)
        beginLine = line
        cardBytes = 0
        broken = nil
    }

    private mutating func add(_ line: LogicalLines.Line) {
        guard broken == nil else { return }
        cardBytes += line.bytes.count
        if line.truncated {
            return markBroken(
                VCardProblem(line: line.number, "a property is longer than \(Self.size(limits.maximumLineBytes))"))
        }
        if cardBytes > limits.maximumCardBytes {
            return markBroken(
                VCardProblem(line: line.number, "the card is larger than \(Self.size(limits.maximumCardBytes))"))
        }
        if line.bytes.contains(0) {
            return markBroken(VCardProblem(line: line.number, "binary data (a NUL byte) in a property"))
        }
        switch parser.parse(line.bytes, line: line.number, version: version) {
        case .failure(let problem):
            markBroken(problem)
        case .success(let property):
            if property.key == "VERSION", property.group == nil, version == nil {
                version = VCardVersion(versionValue: property.value)
                lines.allowsBareBase64Lines = version == .v21
                return
            }
            if properties.count >= limits.maximumProperties {
                return markBroken(
                    VCardProblem(line: line.number, "the card has more than \(limits.maximumProperties) properties"))
            }
            properties.append(property)
        }
    }

    private mutating func end(at line: Int) {
        state = .outside
        if let broken {
            fail(broken)
            return
        }
        statistics.cards += 1
        let card = VCard(version: version ?? .v30, properties: properties, beginLine: beginLine, endLine: line)
        properties = []
        queue.append(.card(card))
    }

    private mutating func markBroken(_ problem: VCardProblem) {
        if broken == nil { broken = problem }
        properties.removeAll()
    }

    private mutating func fail(_ problem: VCardProblem) {
        statistics.problems += 1
        queue.append(.problem(problem))
    }

    private mutating func stop() {
        finished = true
        decideRefusal()
    }

    private mutating func finish() {
        statistics.bytes = lines.bytesRead
        if case .outside = state {
        } else {
            fail(VCardProblem(line: beginLine, "the card has no END:VCARD (the file ends first)"))
            state = .outside
        }
        stop()
    }

    /// Once the input is over: is it vCard at all?
    private mutating func decideRefusal() {
        guard refusal == nil else { return }
        if let error = lines.readError {
            refusal = VCardRefusal("could not be read: \(error)")
        } else if statistics.begun == 0 {
            if sawBinary {
                refusal = VCardRefusal("not a vCard file (it holds binary data)")
            } else if !sawNonBlank {
                refusal = VCardRefusal("empty: no vCard in it")
            } else {
                refusal = VCardRefusal("not a vCard file (no BEGIN:VCARD line near its start)")
            }
        } else if statistics.cards == 0 {
            let begun = statistics.begun == 1 ? "one BEGIN:VCARD" : "\(statistics.begun) BEGIN:VCARD lines"
            refusal = VCardRefusal("not a vCard file: \(begun) but no complete card")
        }
    }

    /// `4 MiB`, or `1000 bytes` for a limit that is not a whole number of MiB.
    private static func size(_ bytes: Int) -> String {
        bytes % (1 << 20) == 0 ? "\(bytes >> 20) MiB" : "\(bytes) bytes"
    }

    private enum Marker { case begin, end }

    /// `BEGIN:VCARD` or `END:VCARD`, in any case, with trailing spaces.
    private static func marker(_ bytes: [UInt8]) -> Marker? {
        guard bytes.count >= 9, bytes.count <= 40 else { return nil }
        if matches(bytes, beginBytes) { return .begin }
        if matches(bytes, endBytes) { return .end }
        return nil
    }

    private static func matches(_ bytes: [UInt8], _ word: [UInt8]) -> Bool {
        guard bytes.count >= word.count else { return false }
        for index in 0..<word.count {
            let byte = bytes[index]
            if (byte >= 97 && byte <= 122 ? byte - 32 : byte) != word[index] { return false }
        }
        return bytes[word.count...].allSatisfy { $0 == 32 || $0 == 9 }
    }

    private static let beginBytes = Array("BEGIN:VCARD".utf8)
    private static let endBytes = Array("END:VCARD".utf8)

    /// UTF-16 exports (some Windows programs write them, with a byte-order mark) as UTF-8; a
    /// UTF-8 byte-order mark dropped; anything else unchanged.
    static func utf8(fromPossiblyUTF16 bytes: [UInt8]) -> [UInt8] {
        if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { return Array(bytes.dropFirst(3)) }
        let little = bytes.starts(with: [0xFF, 0xFE])
        guard little || bytes.starts(with: [0xFE, 0xFF]) else { return bytes }
        let converter = CharsetConverter()
        guard let text = converter.utf8(Array(bytes.dropFirst(2)), charset: little ? "UTF-16LE" : "UTF-16BE") else {
            return bytes
        }
        return Array(text.utf8)
    }
}
