/// `BEGIN:VCARD` and `END:VCARD`, found where real files put them: in any case, with spaces and
/// tabs after them, and with the stray bytes that joined and damaged files carry around them — a
/// UTF-8 byte-order mark at the start of each file joined with `cat`, NUL bytes, or the NULs of a
/// UTF-16 part inside a UTF-8 file (`B\0E\0G\0I\0N\0…`).
enum VCardMarker: Equatable {
    case begin, end

    private static let beginWord = Array("BEGIN:VCARD".utf8)
    private static let endWord = Array("END:VCARD".utf8)

    /// The marker `bytes` are, ignoring NULs anywhere, and spaces, tabs and byte-order marks
    /// before and after it; `nil` for anything else (most lines: this answers from the first
    /// bytes).
    static func of<Bytes: Collection<UInt8>>(_ bytes: Bytes) -> VCardMarker? {
        let count = bytes.count
        // 9 is END:VCARD; a UTF-16 BEGIN:VCARD with some spaces is well under 160.
        guard count >= 9, count <= 160 else { return nil }
        var index = bytes.startIndex
        // Leading spaces, tabs, NULs and byte-order marks.
        while index != bytes.endIndex {
            let byte = bytes[index]
            if byte == 32 || byte == 9 || byte == 0 || byte == 0xEF || byte == 0xBB || byte == 0xBF {
                index = bytes.index(after: index)
            } else {
                break
            }
        }
        guard index != bytes.endIndex else { return nil }
        let word: [UInt8]
        let marker: VCardMarker
        switch bytes[index] {
        case UInt8(ascii: "B"), UInt8(ascii: "b"): (word, marker) = (beginWord, .begin)
        case UInt8(ascii: "E"), UInt8(ascii: "e"): (word, marker) = (endWord, .end)
        default: return nil
        }
        var matched = 0
        while index != bytes.endIndex {
            let byte = bytes[index]
            index = bytes.index(after: index)
            if byte == 0 { continue }
            if matched < word.count {
                guard upper(byte) == word[matched] else { return nil }
                matched += 1
            } else if byte != 32, byte != 9 {
                return nil
            }
        }
        return matched == word.count ? marker : nil
    }

    /// A line outside a card that ends with a marker (spaces, tabs and NULs after it ignored),
    /// and where the marker starts: what stands before it on the line is stray.
    static func ending(_ bytes: [UInt8]) -> (marker: VCardMarker, start: Int)? {
        var index = bytes.count - 1
        while index >= 0, bytes[index] == 32 || bytes[index] == 9 || bytes[index] == 0 { index -= 1 }
        guard index >= 8 else { return nil }
        // Backwards through `VCARD`, `:`, then `BEGIN` or `END`, skipping NULs.
        func match(_ word: ArraySlice<UInt8>, from end: Int) -> Int? {
            var at = end
            for expected in word.reversed() {
                while at >= 0, bytes[at] == 0 { at -= 1 }
                guard at >= 0, upper(bytes[at]) == expected else { return nil }
                at -= 1
            }
            return at
        }
        guard let beforeColon = match(endWord[3...], from: index) else { return nil }
        if let before = match(beginWord[..<5], from: beforeColon) { return (.begin, before + 1) }
        if let before = match(endWord[..<3], from: beforeColon) { return (.end, before + 1) }
        return nil
    }

    private static func upper(_ byte: UInt8) -> UInt8 { byte >= 97 && byte <= 122 ? byte - 32 : byte }
}
