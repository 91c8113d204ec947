/// One content line of a resource exactly as it is in the text: the physical lines it spans
/// (kept byte for byte, written back unchanged unless the line is rewritten) and the pieces
/// that, joined, are the unfolded line the parser reads.
struct ResourceLine: Sendable, Hashable {
    /// The physical lines, as byte ranges of the text, line breaks excluded.
    var physical: [Range<Int>]
    /// The byte ranges whose concatenation is the unfolded content line (a fold's leading
    /// space left out, a quoted-printable soft break's `=` too); empty for a blank line.
    var pieces: [Range<Int>]
    /// The number of its first physical line, from 1.
    var number: Int

    /// The unfolded content line.
    func unfolded(in bytes: [UInt8]) -> [UInt8] {
        if pieces.count == 1 { return Array(bytes[pieces[0]]) }
        var out: [UInt8] = []
        out.reserveCapacity(pieces.reduce(0) { $0 + $1.count })
        for piece in pieces { out.append(contentsOf: bytes[piece]) }
        return out
    }
}

/// The lines of the one card in a resource: `BEGIN:VCARD`, what is between, `END:VCARD`.
///
/// Found with the reader's rules (folding; quoted-printable soft breaks; vCard 2.1 base64 going
/// on in lines that are not indented; a 2.1 `AGENT` card nested in the card), but keeping where
/// every line is, so that an edit can give back every line it does not change as it was.
struct ResourceLayout: Sendable, Hashable {
    var begin: ResourceLine
    var lines: [ResourceLine]
    var end: ResourceLine

    private enum Transfer { case plain, quotedPrintable, base64 }

    /// The layout of the card in `bytes`.
    ///
    /// - Throws: ``VCardResourceError/notVCard`` without a `BEGIN:VCARD`,
    ///   ``VCardResourceError/unterminated(line:)`` without its `END:VCARD`,
    ///   ``VCardResourceError/severalCards(line:)`` when a second card follows.
    static func scan(_ bytes: [UInt8]) throws(VCardResourceError) -> ResourceLayout {
        var begin: ResourceLine?
        var end: ResourceLine?
        var lines: [ResourceLine] = []
        var transfer = Transfer.plain
        var lastIsBlank = true
        // Bare base64 continuation lines belong to vCard 2.1; allowed until VERSION says otherwise.
        var bareBase64 = true
        // Inside a 2.1 AGENT card nested in this one: its lines go to the AGENT line.
        var nested = 0
        var index = bytes.starts(with: [0xEF, 0xBB, 0xBF]) ? 3 : 0
        var number = 0
        while index < bytes.count {
            var lineEnd = index
            while lineEnd < bytes.count, bytes[lineEnd] != 10, bytes[lineEnd] != 13 { lineEnd += 1 }
            let range = index..<lineEnd
            index = lineEnd
            if index < bytes.count {
                index += bytes[index] == 13 && index + 1 < bytes.count && bytes[index + 1] == 10 ? 2 : 1
            }
            number += 1
            let line = bytes[range]
            guard begin != nil else {
                if Self.isMarker(line, Self.beginWord) {
                    begin = ResourceLine(physical: [range], pieces: [range], number: number)
                }
                continue
            }
            if end != nil {
                if Self.isMarker(line, Self.beginWord) { throw .severalCards(line: number) }
                continue
            }
            if nested > 0 {
                lines[lines.count - 1].physical.append(range)
                if Self.isMarker(line, Self.beginWord) { nested += 1 }
                if Self.isMarker(line, Self.endWord) { nested -= 1 }
                continue
            }
            if line.allSatisfy({ $0 == 32 || $0 == 9 }) {
                lines.append(ResourceLine(physical: [range], pieces: [], number: number))
                lastIsBlank = true
                continue
            }
            if !lastIsBlank, line.first == 32 || line.first == 9 {
                lines[lines.count - 1].physical.append(range)
                lines[lines.count - 1].pieces.append(range.lowerBound + 1..<range.upperBound)
                continue
            }
            // Before the quoted-printable and base64 continuations: a card's end is never a value.
            if Self.isMarker(line, Self.endWord) {
                end = ResourceLine(physical: [range], pieces: [range], number: number)
                continue
            }
            if Self.isMarker(line, Self.beginWord) {
                guard let last = lines.last, Self.isEmptyAgent(last.unfolded(in: bytes)) else {
                    throw .unterminated(line: begin!.number)
                }
                lines[lines.count - 1].physical.append(range)
                nested = 1
                continue
            }
            if !lastIsBlank, let last = lines.last {
                if transfer == .quotedPrintable, let piece = last.pieces.last, !piece.isEmpty,
                    bytes[piece.upperBound - 1] == 0x3D
                {
                    // A soft line break: the `=` goes, the next line follows directly.
                    lines[lines.count - 1].pieces[last.pieces.count - 1] = piece.lowerBound..<piece.upperBound - 1
                    lines[lines.count - 1].physical.append(range)
                    lines[lines.count - 1].pieces.append(range)
                    continue
                }
                if transfer == .base64, bareBase64, line.allSatisfy(Self.isBase64Byte) {
                    lines[lines.count - 1].physical.append(range)
                    lines[lines.count - 1].pieces.append(range)
                    continue
                }
            }
            lines.append(ResourceLine(physical: [range], pieces: [range], number: number))
            lastIsBlank = false
            transfer = Self.transfer(of: line)
            if let version = Self.versionValue(line) { bareBase64 = version.first == UInt8(ascii: "2") }
        }
        guard let begin else { throw .notVCard }
        guard let end else { throw .unterminated(line: begin.number) }
        return ResourceLayout(begin: begin, lines: lines, end: end)
    }

    private static let beginWord = Array("BEGIN:VCARD".utf8)
    private static let endWord = Array("END:VCARD".utf8)

    /// `BEGIN:VCARD` or `END:VCARD` in any case, with trailing spaces (as the reader takes them).
    private static func isMarker(_ line: ArraySlice<UInt8>, _ word: [UInt8]) -> Bool {
        guard line.count >= word.count, line.count <= 40 else { return false }
        for (byte, expected) in zip(line, word) where Self.upper(byte) != expected { return false }
        return line.dropFirst(word.count).allSatisfy { $0 == 32 || $0 == 9 }
    }

    /// An `AGENT` property with nothing after its colon: a 2.1 card nested in this one follows.
    private static func isEmptyAgent(_ line: [UInt8]) -> Bool {
        guard let colon = line.firstIndex(of: 0x3A), colon + 1 == line.count else { return false }
        let name = line[..<colon].prefix { $0 != 0x3B }
        let bare = name.lastIndex(of: 0x2E).map { name[($0 + 1)...] } ?? name
        return bare.map(Self.upper) == Array("AGENT".utf8)
    }

    /// The value of an ungrouped `VERSION` line, trimmed, or `nil` for any other line.
    static func versionValue(_ line: ArraySlice<UInt8>) -> ArraySlice<UInt8>? {
        let word = Array("VERSION".utf8)
        guard line.count > word.count, zip(line, word).allSatisfy({ Self.upper($0) == $1 }) else { return nil }
        var rest = line.dropFirst(word.count)
        while rest.first == 32 || rest.first == 9 { rest = rest.dropFirst() }
        guard rest.first == 0x3A else { return nil }
        rest = rest.dropFirst()
        while rest.first == 32 || rest.first == 9 { rest = rest.dropFirst() }
        while rest.last == 32 || rest.last == 9 { rest = rest.dropLast() }
        return rest
    }

    /// Whether the parameters (before the first `:`) ask for quoted-printable or base64, in the
    /// spellings the parser reads: a bare `QUOTED-PRINTABLE` or `BASE64`, or an `ENCODING=`.
    private static func transfer(of line: ArraySlice<UInt8>) -> Transfer {
        let header = line.prefix { $0 != 0x3A }
        for segment in header.split(separator: 0x3B).dropFirst() {
            let word = segment.filter { $0 != 32 && $0 != 9 }.map(Self.upper)
            switch String(decoding: word, as: UTF8.self) {
            case "QUOTED-PRINTABLE", "ENCODING=QUOTED-PRINTABLE": return .quotedPrintable
            case "BASE64", "ENCODING=BASE64", "ENCODING=B": return .base64
            default: continue
            }
        }
        return .plain
    }

    private static func upper(_ byte: UInt8) -> UInt8 { byte >= 97 && byte <= 122 ? byte - 32 : byte }

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
