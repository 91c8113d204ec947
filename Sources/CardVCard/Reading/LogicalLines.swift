/// Joins physical lines into content lines: folding (a line starting with a space or a tab
/// continues the previous one), quoted-printable soft line breaks (a value ending in `=`
/// continues on the next line, as vCard 2.1 writers do), and vCard 2.1 base64 values whose
/// continuation lines are not indented.
struct LogicalLines {
    /// One unfolded content line.
    struct Line {
        var bytes: [UInt8]
        var number: Int
        /// Longer than the limit: only its start was kept.
        var truncated: Bool
    }

    private enum Kind { case plain, quotedPrintable, base64 }

    private var physical: PhysicalLines
    private var pending: [UInt8] = []
    private var pendingNumber = 0
    private var pendingKind = Kind.plain
    private var pendingTruncated = false
    private var hasPending = false
    private let maximumLength: Int
    /// Whether the card is vCard 2.1 (or has not said yet): base64 may go on in lines that are
    /// not indented, as 2.1 writers did (in 3.0 and 4.0 such a line is a property of its own),
    /// and a quoted-printable soft break keeps the next line whole, a leading space included
    /// (Outlook and Android break lines anywhere, before a space too); in 3.0 and 4.0 an indented
    /// line after a `=` is a fold, as a folded line may end with `=`.
    var isVersion21 = false

    init(source: any VCardByteSource, maximumLength: Int) {
        physical = PhysicalLines(source: source, maximumLength: maximumLength)
        self.maximumLength = maximumLength
    }

    /// Bytes read so far.
    var bytesRead: Int { physical.bytesRead }
    /// The error that ended the input early, if any.
    var readError: (any Error)? { physical.readError }
    /// The number of the last physical line read.
    var lastPhysicalLine: Int { physical.lastNumber }

    /// The next content line, or `nil` at the end.
    mutating func next() -> Line? {
        while let line = physical.next() {
            let bytes = physical.bytes(of: line)
            if bytes.isEmpty || bytes.allSatisfy({ $0 == 32 || $0 == 9 }) {
                // A blank line ends a value (vCard 2.1 base64 ends with one); it is never content.
                if let done = flush() { return done }
                continue
            }
            if hasPending, continues(bytes) {
                append(bytes, indented: bytes.first == 32 || bytes.first == 9)
                if line.truncated { pendingTruncated = true }
                continue
            }
            let done = flush()
            start(bytes, number: line.number, truncated: line.truncated)
            if let done { return done }
        }
        return flush()
    }

    private func continues(_ bytes: ArraySlice<UInt8>) -> Bool {
        let first = bytes.first!
        if first == 32 || first == 9 { return true }
        switch pendingKind {
        case .plain:
            return false
        case .quotedPrintable:
            // A soft break never swallows the card's END (or the next BEGIN): a writer that ends a
            // value's last line with `=` must not cost the card.
            return pending.last == UInt8(ascii: "=") && VCardMarker.of(bytes) == nil
        case .base64:
            return isVersion21 && bytes.allSatisfy(Self.isBase64Byte)
        }
    }

    private mutating func append(_ bytes: ArraySlice<UInt8>, indented: Bool) {
        var body = bytes
        if pendingKind == .quotedPrintable, pending.last == UInt8(ascii: "="), !indented || isVersion21 {
            // A soft line break: the `=` goes, the next line follows whole.
            pending.removeLast()
        } else if indented {
            // A fold: the first white space goes.
            body = bytes.dropFirst()
        }
        if pending.count + body.count > maximumLength {
            pendingTruncated = true
            pending.append(contentsOf: body.prefix(max(0, maximumLength - pending.count)))
        } else {
            pending.append(contentsOf: body)
        }
    }

    private mutating func start(_ bytes: ArraySlice<UInt8>, number: Int, truncated: Bool) {
        pending.removeAll(keepingCapacity: true)
        pending.append(contentsOf: bytes.prefix(maximumLength))
        pendingNumber = number
        pendingTruncated = truncated || bytes.count > maximumLength
        pendingKind = Self.kind(of: bytes)
        hasPending = true
    }

    private mutating func flush() -> Line? {
        guard hasPending else { return nil }
        hasPending = false
        return Line(bytes: pending, number: pendingNumber, truncated: pendingTruncated)
    }

    /// Whether the parameters (before the first `:`) ask for quoted-printable or base64, the
    /// way the parser reads them: a bare `QUOTED-PRINTABLE` or `BASE64` (vCard 2.1), or an
    /// `ENCODING=` parameter.
    private static func kind(of bytes: ArraySlice<UInt8>) -> Kind {
        guard let colon = bytes.firstIndex(of: UInt8(ascii: ":")) else { return .plain }
        guard var start = bytes[bytes.startIndex..<colon].firstIndex(of: UInt8(ascii: ";")) else { return .plain }
        // Each parameter between semicolons, compared without copying it.
        while start < colon {
            let from = start + 1
            let end = bytes[from..<colon].firstIndex(of: UInt8(ascii: ";")) ?? colon
            let segment = bytes[from..<end]
            if matches(segment, quotedPrintableWord) || matches(segment, encodingQuotedPrintable) {
                return .quotedPrintable
            }
            if matches(segment, base64Word) || matches(segment, encodingBase64) || matches(segment, encodingB) {
                return .base64
            }
            start = end
        }
        return .plain
    }

    /// Whether `segment`, without spaces and tabs and ignoring ASCII case, is `word`.
    private static func matches(_ segment: ArraySlice<UInt8>, _ word: [UInt8]) -> Bool {
        var index = 0
        for byte in segment where byte != 32 && byte != 9 {
            guard index < word.count, (byte >= 97 && byte <= 122 ? byte - 32 : byte) == word[index] else {
                return false
            }
            index += 1
        }
        return index == word.count
    }

    private static let quotedPrintableWord = Array("QUOTED-PRINTABLE".utf8)
    private static let encodingQuotedPrintable = Array("ENCODING=QUOTED-PRINTABLE".utf8)
    private static let base64Word = Array("BASE64".utf8)
    private static let encodingBase64 = Array("ENCODING=BASE64".utf8)
    private static let encodingB = Array("ENCODING=B".utf8)

    private static func isBase64Byte(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"),
            UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "+"), UInt8(ascii: "/"), UInt8(ascii: "="):
            return true
        default:
            return false
        }
    }
}
