/// Joins physical lines into content lines: folding (a line starting with a space or a tab
/// continues the previous one), quoted-printable soft line breaks (a value ending in `=`
/// continues on the next line, as vCard 2.1 writers do), and vCard 2.1 base64 values whose
/// continuation lines are not indented.
///
/// Each content line is unfolded straight into ``bytes``, the bytes of the card being read,
/// after the lines before it: the reader parses it there and keeps it, or drops it
/// (``drop(from:)``), and takes the card's bytes at its end (``take()``). A physical line that
/// starts the next content line stays where ``PhysicalLines`` read it until the next call.
struct LogicalLines {
    /// One unfolded content line: ``LogicalLines/bytes`` in `range`.
    struct Line {
        var range: Range<Int>
        var number: Int
        /// Longer than the limit: only its start was kept.
        var truncated: Bool
    }

    private enum Kind { case plain, quotedPrintable, base64 }

    private var physical: PhysicalLines
    /// A physical line read but not started yet: it begins the next content line.
    private var lookahead: PhysicalLines.Line?
    /// The card's bytes so far: its content lines, and what the parser appended.
    var bytes: [UInt8] = []
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

    /// Drops the bytes from `start` on (a line the reader does not keep).
    mutating func drop(from start: Int) {
        if start < bytes.count { bytes.removeSubrange(start...) }
    }

    /// The card's bytes, leaving room for the next card's.
    mutating func take() -> [UInt8] {
        let taken = bytes
        bytes = []
        bytes.reserveCapacity(taken.count)
        return taken
    }

    /// The next content line, appended to ``bytes``, or `nil` at the end.
    mutating func next() -> Line? {
        var current: (start: Int, number: Int, truncated: Bool, kind: Kind)?
        while true {
            let line: PhysicalLines.Line
            if let held = lookahead {
                line = held
                lookahead = nil
            } else if let read = physical.next() {
                line = read
            } else {
                break
            }
            let physicalBytes = physical.bytes(of: line)
            if Self.isBlank(physicalBytes) {
                // A blank line ends a value (vCard 2.1 base64 ends with one); it is never content.
                if let current { return finish(current) }
                continue
            }
            if var open = current {
                if continues(physicalBytes, open.kind) {
                    append(physicalBytes, kind: open.kind, start: open.start, truncated: &open.truncated)
                    if line.truncated { open.truncated = true }
                    current = open
                    continue
                }
                lookahead = line
                return finish(open)
            }
            let start = bytes.count
            bytes.append(contentsOf: physicalBytes.prefix(maximumLength))
            current = (
                start, line.number, line.truncated || physicalBytes.count > maximumLength, Self.kind(of: physicalBytes)
            )
        }
        return current.map(finish)
    }

    private func finish(_ line: (start: Int, number: Int, truncated: Bool, kind: Kind)) -> Line {
        Line(range: line.start..<bytes.count, number: line.number, truncated: line.truncated)
    }

    private static func isBlank(_ bytes: ArraySlice<UInt8>) -> Bool {
        for byte in bytes where byte != 32 && byte != 9 { return false }
        return true
    }

    private func continues(_ line: ArraySlice<UInt8>, _ kind: Kind) -> Bool {
        let first = line.first!
        if first == 32 || first == 9 { return true }
        switch kind {
        case .plain:
            return false
        case .quotedPrintable:
            // A soft break never swallows the card's END (or the next BEGIN): a writer that ends a
            // value's last line with `=` must not cost the card.
            return bytes.last == UInt8(ascii: "=") && VCardMarker.of(line) == nil
        case .base64:
            return isVersion21 && line.allSatisfy(Self.isBase64Byte)
        }
    }

    private mutating func append(_ line: ArraySlice<UInt8>, kind: Kind, start: Int, truncated: inout Bool) {
        var body = line
        let indented = line.first == 32 || line.first == 9
        if kind == .quotedPrintable, bytes.last == UInt8(ascii: "="), !indented || isVersion21 {
            // A soft line break: the `=` goes, the next line follows whole.
            bytes.removeLast()
        } else if indented {
            // A fold: the first white space goes.
            body = line.dropFirst()
        }
        let length = bytes.count - start
        if length + body.count > maximumLength {
            truncated = true
            bytes.append(contentsOf: body.prefix(max(0, maximumLength - length)))
        } else {
            bytes.append(contentsOf: body)
        }
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
