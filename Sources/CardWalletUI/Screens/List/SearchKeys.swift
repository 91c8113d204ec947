import CardModels
import Foundation

/// The folded search and sort keys of every loaded card, in one contiguous byte buffer.
///
/// A card's key is its name, company, title and email, lower-cased, without accents, with
/// fullwidth ASCII folded to ASCII, joined by NUL so a word never matches across
/// fields. One buffer and 12 bytes of bookkeeping per card keep 100,000 cards in a few MB and
/// let a filter pass scan memory linearly.
struct SearchKeys: Equatable, Sendable {
    /// Where one card's key lives in ``bytes``.
    struct Record: Equatable, Sendable {
        var start: UInt32
        var name: UInt16
        var company: UInt16
        var title: UInt16
        var email: UInt16

        var count: Int { Int(name) + Int(company) + Int(title) + Int(email) + 3 }
    }

    private(set) var bytes: [UInt8] = []
    private(set) var records: [Record] = []

    /// Adds the key of the card that gets the next arena index.
    mutating func append(_ summary: CardSummary) {
        records.append(write(summary))
    }

    /// Replaces the key of the card at `index` (after an edit). The old bytes stay as garbage:
    /// edits are rare and the buffer is rebuilt on every reload.
    mutating func replace(_ index: Int, with summary: CardSummary) {
        records[index] = write(summary)
    }

    private mutating func write(_ summary: CardSummary) -> Record {
        let start = UInt32(truncatingIfNeeded: bytes.count)
        func segment(_ text: String?) -> UInt16 {
            let folded = Self.fold(text ?? "").prefix(Int(UInt16.max))
            bytes.append(contentsOf: folded)
            return UInt16(folded.count)
        }
        let name = segment(summary.name)
        bytes.append(0)
        let company = segment(summary.company)
        bytes.append(0)
        let title = segment(summary.title)
        bytes.append(0)
        let email = segment(summary.email)
        return Record(start: start, name: name, company: company, title: title, email: email)
    }

    /// `text` lower-cased, fullwidth ASCII folded to ASCII, as UTF-8 without NUL bytes.
    static func fold(_ text: String) -> [UInt8] {
        if text.utf8.allSatisfy({ $0 < 0x80 }) {
            return text.utf8.compactMap { byte in
                byte == 0 ? nil : (byte >= 0x41 && byte <= 0x5A ? byte | 0x20 : byte)
            }
        }
        // Case, accents and width fold away: `angstrom` finds Ångström, `zoe` finds Zoë,
        // `ｋｉｍ` finds Kim. Hangul syllables and CJK stay as they are.
        let foldedText = text.folding(
            options: [.caseInsensitive, .diacriticInsensitive, .widthInsensitive], locale: nil)
        var folded = String.UnicodeScalarView()
        for scalar in foldedText.lowercased().unicodeScalars {
            switch scalar.value {
            case 0: continue
            case 0xFF01...0xFF5E: folded.append(Unicode.Scalar(scalar.value - 0xFEE0) ?? scalar)
            case 0x3000: folded.append(" ")
            default: folded.append(scalar)
            }
        }
        return Array(String(folded).lowercased().utf8)
    }

    /// The words of a filter query, folded: a card matches when every word occurs in its key.
    static func needles(of query: String) -> [[UInt8]] {
        fold(query).split(separator: 0x20, omittingEmptySubsequences: true).map(Array.init)
    }

    /// The candidates (arena indices, in order) whose key contains every needle.
    func filter(_ candidates: [Int32], needles: [[UInt8]]) -> [Int32] {
        guard !needles.isEmpty else { return candidates }
        var result: [Int32] = []
        bytes.withUnsafeBufferPointer { haystack in
            records.withUnsafeBufferPointer { records in
                for candidate in candidates {
                    let record = records[Int(candidate)]
                    let start = Int(record.start)
                    let end = start + record.count
                    var matches = true
                    for needle in needles where !Self.occurs(needle, in: haystack, from: start, to: end) {
                        matches = false
                        break
                    }
                    if matches { result.append(candidate) }
                }
            }
        }
        return result
    }

    @inline(__always)
    private static func occurs(_ needle: [UInt8], in haystack: UnsafeBufferPointer<UInt8>, from start: Int, to end: Int)
        -> Bool
    {
        needle.withUnsafeBufferPointer { needle in
            let count = needle.count
            let first = needle[0]
            var index = start
            let last = end - count
            while index <= last {
                if haystack[index] == first {
                    var offset = 1
                    while offset < count, haystack[index + offset] == needle[offset] { offset += 1 }
                    if offset == count { return true }
                }
                index += 1
            }
            return false
        }
    }

    /// Which field a sort compares.
    enum SortField { case name, company }

    /// Compares two cards' folded `field` bytewise; an empty value sorts after any other.
    func compare(
        _ a: Int32, _ b: Int32, by field: SortField, in haystack: UnsafeBufferPointer<UInt8>,
        records: UnsafeBufferPointer<Record>
    ) -> Int {
        let left = records[Int(a)]
        let right = records[Int(b)]
        let (leftStart, leftCount, rightStart, rightCount): (Int, Int, Int, Int)
        switch field {
        case .name:
            (leftStart, leftCount) = (Int(left.start), Int(left.name))
            (rightStart, rightCount) = (Int(right.start), Int(right.name))
        case .company:
            (leftStart, leftCount) = (Int(left.start) + Int(left.name) + 1, Int(left.company))
            (rightStart, rightCount) = (Int(right.start) + Int(right.name) + 1, Int(right.company))
        }
        if leftCount == 0 || rightCount == 0 {
            if leftCount == rightCount { return 0 }
            return leftCount == 0 ? 1 : -1
        }
        let shared = min(leftCount, rightCount)
        for offset in 0..<shared {
            let l = haystack[leftStart + offset]
            let r = haystack[rightStart + offset]
            if l != r { return l < r ? -1 : 1 }
        }
        return leftCount - rightCount
    }
}
