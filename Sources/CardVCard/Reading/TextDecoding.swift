/// Text from bytes, checked once: UTF-8 validation with an ASCII fast path (eight bytes at a
/// time), and the reader's fallback for text that is not UTF-8 (Windows-1252, as Outlook writes
/// without saying so; Latin-1 for the five bytes Windows-1252 leaves undefined).
enum TextDecoding {
    /// What a run of bytes is.
    enum Kind {
        case ascii, utf8, invalid
    }

    /// Whether `bytes` are ASCII, other valid UTF-8, or not UTF-8 (RFC 3629: no overlong
    /// forms, no surrogates, nothing past U+10FFFF — what `String(validating:)` accepts).
    static func kind(_ bytes: UnsafeBufferPointer<UInt8>) -> Kind {
        guard let base = bytes.baseAddress else { return .ascii }
        let count = bytes.count
        var index = 0
        // Eight ASCII bytes at a time.
        let raw = UnsafeRawPointer(base)
        while index + 8 <= count {
            if raw.loadUnaligned(fromByteOffset: index, as: UInt64.self) & 0x8080_8080_8080_8080 != 0 { break }
            index += 8
        }
        while index < count, base[index] < 0x80 { index += 1 }
        if index == count { return .ascii }
        return isValidUTF8(bytes, from: index) ? .utf8 : .invalid
    }

    /// Whether `bytes` from `start` on are valid UTF-8.
    static func isValidUTF8(_ bytes: UnsafeBufferPointer<UInt8>, from start: Int) -> Bool {
        let count = bytes.count
        var index = start
        while index < count {
            let byte = bytes[index]
            if byte < 0x80 {
                index += 1
                continue
            }
            func continuation(_ offset: Int) -> Bool {
                index + offset < count && bytes[index + offset] & 0xC0 == 0x80
            }
            switch byte {
            case 0xC2...0xDF:
                guard continuation(1) else { return false }
                index += 2
            case 0xE0...0xEF:
                guard continuation(1), continuation(2) else { return false }
                let second = bytes[index + 1]
                if byte == 0xE0, second < 0xA0 { return false }  // overlong
                if byte == 0xED, second > 0x9F { return false }  // surrogates
                index += 3
            case 0xF0...0xF4:
                guard continuation(1), continuation(2), continuation(3) else { return false }
                let second = bytes[index + 1]
                if byte == 0xF0, second < 0x90 { return false }  // overlong
                if byte == 0xF4, second > 0x8F { return false }  // past U+10FFFF
                index += 4
            default:
                return false
            }
        }
        return true
    }

    /// `bytes` as a String: UTF-8 as it is; otherwise Windows-1252, else Latin-1.
    static func string(_ bytes: UnsafeBufferPointer<UInt8>) -> String {
        switch kind(bytes) {
        case .ascii, .utf8: return String(decoding: bytes, as: UTF8.self)
        case .invalid: return String(decoding: windows1252(bytes), as: UTF8.self)
        }
    }

    /// The UTF-8 of `bytes` read as Windows-1252 (Latin-1 for the five bytes it leaves undefined).
    static func windows1252(_ bytes: UnsafeBufferPointer<UInt8>) -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(bytes.count * 2)
        appendWindows1252(bytes, to: &out)
        return out
    }

    /// Appends the UTF-8 of `bytes` read as Windows-1252 (what iconv's WINDOWS-1252 gives); a
    /// value holding one of the five bytes Windows-1252 leaves undefined (0x81, 0x8D, 0x8F, 0x90,
    /// 0x9D), which iconv refuses, is read as Latin-1 whole.
    static func appendWindows1252(_ bytes: UnsafeBufferPointer<UInt8>, to out: inout [UInt8]) {
        if bytes.contains(where: { $0 == 0x81 || $0 == 0x8D || $0 == 0x8F || $0 == 0x90 || $0 == 0x9D }) {
            appendLatin1(bytes, to: &out)
            return
        }
        for byte in bytes {
            if byte < 0x80 {
                out.append(byte)
                continue
            }
            let scalar: UInt32 = byte >= 0xA0 ? UInt32(byte) : windows1252High[Int(byte - 0x80)]
            appendScalar(scalar, to: &out)
        }
    }

    /// Appends the UTF-8 of `bytes` read as Latin-1.
    static func appendLatin1(_ bytes: UnsafeBufferPointer<UInt8>, to out: inout [UInt8]) {
        for byte in bytes {
            if byte < 0x80 {
                out.append(byte)
            } else {
                appendScalar(UInt32(byte), to: &out)
            }
        }
    }

    static func appendScalar(_ scalar: UInt32, to out: inout [UInt8]) {
        switch scalar {
        case 0..<0x80:
            out.append(UInt8(scalar))
        case 0x80..<0x800:
            out.append(UInt8(0xC0 | scalar >> 6))
            out.append(UInt8(0x80 | scalar & 0x3F))
        case 0x800..<0x10000:
            out.append(UInt8(0xE0 | scalar >> 12))
            out.append(UInt8(0x80 | scalar >> 6 & 0x3F))
            out.append(UInt8(0x80 | scalar & 0x3F))
        default:
            out.append(UInt8(0xF0 | scalar >> 18))
            out.append(UInt8(0x80 | scalar >> 12 & 0x3F))
            out.append(UInt8(0x80 | scalar >> 6 & 0x3F))
            out.append(UInt8(0x80 | scalar & 0x3F))
        }
    }

    /// Windows-1252's 0x80–0x9F (the five it leaves undefined never looked up).
    static let windows1252High: [UInt32] = [
        0x20AC, 0x81, 0x201A, 0x0192, 0x201E, 0x2026, 0x2020, 0x2021, 0x02C6, 0x2030, 0x0160, 0x2039, 0x0152, 0x8D,
        0x017D, 0x8F, 0x90, 0x2018, 0x2019, 0x201C, 0x201D, 0x2022, 0x2013, 0x2014, 0x02DC, 0x2122, 0x0161, 0x203A,
        0x0153, 0x9D, 0x017E, 0x0178,
    ]
}
