/// Text made safe to show on a terminal: control characters become visible escapes.
public enum TerminalText {
    /// `text` with C0/C1 control characters, DEL and bidirectional overrides escaped
    /// (`\n`, `\t`, `\u{1B}`…), so untrusted text cannot move the cursor or change colours.
    public static func escaped(_ text: String, keepingNewlines: Bool = false) -> String {
        // Most text needs nothing: find that out on the UTF-8 bytes, without decoding scalars.
        let clean =
            text.utf8.withContiguousStorageIfAvailable { !containsEscapable($0, keepingNewlines: keepingNewlines) }
            ?? !text.unicodeScalars.contains(where: { needsEscape($0, keepingNewlines: keepingNewlines) })
        guard !clean else { return text }
        var result = ""
        result.reserveCapacity(text.utf8.count + 8)
        for scalar in text.unicodeScalars {
            guard needsEscape(scalar, keepingNewlines: keepingNewlines) else {
                result.unicodeScalars.append(scalar)
                continue
            }
            switch scalar {
            case "\n": result += "\\n"
            case "\r": result += "\\r"
            case "\t": result += "\\t"
            default: result += "\\u{\(String(scalar.value, radix: 16, uppercase: true))}"
            }
        }
        return result
    }

    /// Whether the UTF-8 text `bytes` (valid, as every `String`'s is) holds a scalar that
    /// ``needsEscape(_:keepingNewlines:)``: a C0 byte, DEL, `C2 80`–`C2 9F` (C1), or
    /// `E2 80 8E`/`8F`, `E2 80 AA`–`AE`, `E2 81 A6`–`A9` (the bidirectional marks).
    static func containsEscapable(_ bytes: UnsafeBufferPointer<UInt8>, keepingNewlines: Bool) -> Bool {
        var index = 0
        let count = bytes.count
        while index < count {
            let byte = bytes[index]
            if byte >= 0x20 && byte < 0x7F {
                index += 1
                continue
            }
            if byte < 0x80 {
                if byte == 0x0A && keepingNewlines {
                    index += 1
                    continue
                }
                return true
            }
            if byte == 0xC2, index + 1 < count, bytes[index + 1] <= 0x9F { return true }
            if byte == 0xE2, index + 2 < count {
                let second = bytes[index + 1]
                let third = bytes[index + 2]
                if second == 0x80, third == 0x8E || third == 0x8F || (0xAA...0xAE).contains(third) { return true }
                if second == 0x81, (0xA6...0xA9).contains(third) { return true }
            }
            index += byte < 0xE0 ? 2 : byte < 0xF0 ? 3 : 4
        }
        return false
    }

    static func needsEscape(_ scalar: Unicode.Scalar, keepingNewlines: Bool) -> Bool {
        switch scalar.value {
        case 0x0A: !keepingNewlines
        case 0x00...0x1F, 0x7F...0x9F: true
        case 0x200E, 0x200F, 0x202A...0x202E, 0x2066...0x2069: true
        default: false
        }
    }
}
