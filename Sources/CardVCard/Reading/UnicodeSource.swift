/// What ``UnicodeSource`` found while decoding: the reader reports it, since no byte may be
/// dropped in silence. Shared by reference between the source (which the reader's line splitter
/// owns) and the reader.
final class DecodingNotes {
    /// The input was UTF-16 (with or without a byte-order mark).
    var utf16 = false
    /// A UTF-16 input ended with an odd byte, which was ignored.
    var strayTrailingByte = false
    /// UTF-16 code units that were half a surrogate pair, read as U+FFFD.
    var unpairedSurrogates = 0
}

/// Passes UTF-8 through, dropping a byte-order mark at its start, and decodes UTF-16 — with its
/// byte-order mark, as Windows programs write it, or without one, recognised by the NUL byte
/// beside every ASCII character — to UTF-8 chunk by chunk, so a UTF-16 file costs no more memory
/// than a UTF-8 one. Decoding UTF-16 is a few lines of bit twiddling; doing it here (rather than
/// with iconv) lets a stray trailing byte or an unpaired surrogate be reported instead of
/// failing the whole file.
struct UnicodeSource: VCardByteSource {
    private enum Encoding { case utf8, utf16LittleEndian, utf16BigEndian }

    private var base: any VCardByteSource
    let notes: DecodingNotes
    private var encoding = Encoding.utf8
    private var started = false
    private var finished = false
    /// The first byte of a code unit whose second byte is in the next chunk.
    private var carry: UInt8?
    /// A high surrogate waiting for its low half.
    private var highSurrogate: UInt16?

    /// The bytes looked at to recognise UTF-16 without a byte-order mark.
    static let sniffBytes = 512

    init(_ base: some VCardByteSource, notes: DecodingNotes = DecodingNotes()) {
        self.base = base
        self.notes = notes
    }

    mutating func nextChunk() throws -> [UInt8]? {
        // Never an empty chunk: a chunk of one byte of UTF-16, or only a byte-order mark, decodes
        // to nothing yet.
        while !finished {
            if let out = try decodeNext(), !out.isEmpty { return out }
        }
        return nil
    }

    private mutating func decodeNext() throws -> [UInt8]? {
        if !started {
            started = true
            guard var first = try base.nextChunk() else {
                finished = true
                return nil
            }
            while first.count < Self.sniffBytes, let more = try base.nextChunk() { first += more }
            var start = 0
            if first.starts(with: [0xEF, 0xBB, 0xBF]) {
                start = 3
            } else if first.starts(with: [0xFF, 0xFE]) {
                encoding = .utf16LittleEndian
                start = 2
            } else if first.starts(with: [0xFE, 0xFF]) {
                encoding = .utf16BigEndian
                start = 2
            } else {
                encoding = Self.sniff(first)
            }
            if encoding == .utf8 { return start == 0 ? first : Array(first[start...]) }
            notes.utf16 = true
            return decode(first[start...])
        }
        guard let chunk = try base.nextChunk() else {
            finished = true
            guard encoding != .utf8 else { return nil }
            var tail: [UInt8] = []
            if carry != nil { notes.strayTrailingByte = true }
            if highSurrogate != nil {
                notes.unpairedSurrogates += 1
                TextDecoding.appendScalar(0xFFFD, to: &tail)
            }
            return tail
        }
        return encoding == .utf8 ? chunk : decode(chunk[...])
    }

    /// UTF-16 without a byte-order mark: most of the first bytes pair an ASCII byte with a NUL,
    /// and the NULs are all on one side (binary data has NULs, but not in that rhythm).
    private static func sniff(_ bytes: [UInt8]) -> Encoding {
        let pairs = min(bytes.count, sniffBytes) / 2
        guard pairs >= 8 else { return .utf8 }
        var little = 0
        var big = 0
        for pair in 0..<pairs {
            let (a, b) = (bytes[2 * pair], bytes[2 * pair + 1])
            if a != 0, a < 0x80, b == 0 { little += 1 }
            if a == 0, b != 0, b < 0x80 { big += 1 }
        }
        if little * 10 >= pairs * 6, big * 20 <= pairs { return .utf16LittleEndian }
        if big * 10 >= pairs * 6, little * 20 <= pairs { return .utf16BigEndian }
        return .utf8
    }

    /// The UTF-8 of the code units in `bytes` (after any byte carried from the last chunk).
    private mutating func decode(_ bytes: ArraySlice<UInt8>) -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(bytes.count + bytes.count / 2)
        var index = bytes.startIndex
        if let first = carry, index < bytes.endIndex {
            carry = nil
            unit(first, bytes[index], into: &out)
            index += 1
        }
        while index + 1 < bytes.endIndex {
            unit(bytes[index], bytes[index + 1], into: &out)
            index += 2
        }
        if index < bytes.endIndex { carry = bytes[index] }
        return out
    }

    private mutating func unit(_ first: UInt8, _ second: UInt8, into out: inout [UInt8]) {
        let unit =
            encoding == .utf16LittleEndian
            ? UInt16(second) << 8 | UInt16(first) : UInt16(first) << 8 | UInt16(second)
        if let high = highSurrogate {
            highSurrogate = nil
            if (0xDC00...0xDFFF).contains(unit) {
                let scalar = 0x10000 + ((UInt32(high) - 0xD800) << 10 | (UInt32(unit) - 0xDC00))
                TextDecoding.appendScalar(scalar, to: &out)
                return
            }
            notes.unpairedSurrogates += 1
            TextDecoding.appendScalar(0xFFFD, to: &out)
        }
        switch unit {
        case 0xD800...0xDBFF: highSurrogate = unit
        case 0xDC00...0xDFFF:
            notes.unpairedSurrogates += 1
            TextDecoding.appendScalar(0xFFFD, to: &out)
        default: TextDecoding.appendScalar(UInt32(unit), to: &out)
        }
    }
}

extension UnicodeSource {
    /// `bytes` as UTF-8: UTF-16 (with or without a byte-order mark) decoded, a UTF-8 byte-order
    /// mark dropped, anything else passed through.
    static func utf8(_ bytes: [UInt8]) -> [UInt8] {
        var source = UnicodeSource(InMemoryByteSource(bytes))
        var out: [UInt8] = []
        out.reserveCapacity(bytes.count)
        // An in-memory source never throws.
        while let chunk = try? source.nextChunk() { out += chunk }
        return out
    }
}
