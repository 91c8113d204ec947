/// Characters counted, cut and trimmed from the bytes when every scalar of the text is a
/// character of its own — letters and signs of the scripts names and notes are mostly written
/// in (Latin, Greek, Cyrillic, Armenian, Hebrew and Arabic letters, Georgian, kana, Han,
/// Hangul syllables), and printable ASCII —, which Swift's grapheme breaking would only
/// confirm, slowly. Text with anything else (combining marks, the vowel signs of Indic and Thai
/// scripts, emoji, controls) takes the `Character` path: same answers, always.
enum SimpleText {
    /// Whether `scalar` is always a character of its own, next to any other simple scalar:
    /// no extending or spacing mark, no joiner, no Hangul jamo, no control, no prepended sign.
    static func isSimple(_ scalar: UInt32) -> Bool {
        switch scalar {
        case 0x20...0x7E, 0xA1...0x2FF, 0x370...0x482, 0x48A...0x52F, 0x531...0x556, 0x561...0x587,
            0x5D0...0x5EA, 0x620...0x64A, 0x10A0...0x10FF, 0x3001...0x3003, 0x300C...0x300F, 0x3041...0x3096,
            0x30A1...0x30FA, 0x30FC...0x30FE, 0x4E00...0x9FFF, 0xAC00...0xD7A3:
            return true
        default:
            return false
        }
    }

    /// The scalars of `text` (valid UTF-8, as every String is), each with where it starts.
    private static func forEachScalar(_ text: String, _ body: (UInt32, Int) -> Bool) {
        var text = text
        text.withUTF8 { bytes in
            var index = 0
            while index < bytes.count {
                let lead = bytes[index]
                let scalar: UInt32
                let length: Int
                switch lead {
                case 0..<0x80: (scalar, length) = (UInt32(lead), 1)
                case 0xC0..<0xE0: (scalar, length) = (UInt32(lead & 0x1F) << 6 | UInt32(bytes[index + 1] & 0x3F), 2)
                case 0xE0..<0xF0:
                    scalar =
                        UInt32(lead & 0x0F) << 12 | UInt32(bytes[index + 1] & 0x3F) << 6
                        | UInt32(bytes[index + 2] & 0x3F)
                    length = 3
                default:
                    scalar =
                        UInt32(lead & 0x07) << 18 | UInt32(bytes[index + 1] & 0x3F) << 12
                        | UInt32(bytes[index + 2] & 0x3F) << 6 | UInt32(bytes[index + 3] & 0x3F)
                    length = 4
                }
                if !body(scalar, index) { return }
                index += length
            }
        }
    }

    /// The number of characters of `text` when every scalar of it is simple, else `nil`.
    static func count(_ text: String) -> Int? {
        var count = 0
        var simple = true
        forEachScalar(text) { scalar, _ in
            guard isSimple(scalar) else {
                simple = false
                return false
            }
            count += 1
            return true
        }
        return simple ? count : nil
    }

    /// The first `limit` characters of `text` when every scalar of it is simple, else `nil`.
    static func prefix(_ text: String, _ limit: Int) -> Substring? {
        var count = 0
        var end: Int?
        var simple = true
        forEachScalar(text) { scalar, start in
            guard isSimple(scalar) else {
                simple = false
                return false
            }
            if count == limit, end == nil { end = start }
            count += 1
            return true
        }
        guard simple else { return nil }
        let utf8 = text.utf8
        return Substring(text[..<utf8.index(utf8.startIndex, offsetBy: end ?? utf8.count)])
    }

    /// Whether `text` holds a line break (`Character.isNewline`: LF, VT, FF, CR, NEL, U+2028,
    /// U+2029), answered from the bytes.
    static func hasNewline(_ text: String) -> Bool {
        var previous: (UInt8, UInt8) = (0, 0)
        for byte in text.utf8 {
            if byte >= 10 && byte <= 13 { return true }
            if previous.1 == 0xC2, byte == 0x85 { return true }
            if previous.0 == 0xE2, previous.1 == 0x80, byte == 0xA8 || byte == 0xA9 { return true }
            previous = (previous.1, byte)
        }
        return false
    }

    /// Whether the first and last characters of `text` are surely not white space: simple
    /// scalars other than the space (the only white space among them). Empty text has none.
    static func hasSimpleEnds(_ text: String) -> Bool {
        var text = text
        return text.withUTF8 { bytes in
            guard let lastByte = bytes.last else { return true }
            let first = scalar(in: bytes, at: 0)
            var lastStart = bytes.count - 1
            if lastByte >= 0x80 {
                while lastStart > 0, bytes[lastStart] & 0xC0 == 0x80 { lastStart -= 1 }
            }
            let last = scalar(in: bytes, at: lastStart)
            return first != 0x20 && last != 0x20 && isSimple(first) && isSimple(last)
        }
    }

    /// The scalar whose UTF-8 starts at `index`.
    private static func scalar(in bytes: UnsafeBufferPointer<UInt8>, at index: Int) -> UInt32 {
        let lead = bytes[index]
        switch lead {
        case 0..<0x80: return UInt32(lead)
        case 0xC0..<0xE0: return UInt32(lead & 0x1F) << 6 | UInt32(bytes[index + 1] & 0x3F)
        case 0xE0..<0xF0:
            return UInt32(lead & 0x0F) << 12 | UInt32(bytes[index + 1] & 0x3F) << 6 | UInt32(bytes[index + 2] & 0x3F)
        default:
            return UInt32(lead & 0x07) << 18 | UInt32(bytes[index + 1] & 0x3F) << 12
                | UInt32(bytes[index + 2] & 0x3F) << 6 | UInt32(bytes[index + 3] & 0x3F)
        }
    }
}
