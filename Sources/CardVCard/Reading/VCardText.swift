/// vCard's text escapes (RFC 6350 §3.4): `\\`, `\,`, `\;` and `\n` (or `\N`) in values.
public enum VCardText {
    /// `text` with its escapes undone. An unknown escape keeps its backslash (vCard 2.1 files
    /// hold Windows paths such as `C:\Users`).
    public static func unescape(_ text: Substring) -> String {
        guard text.utf8.contains(UInt8(ascii: "\\")) else { return String(text) }
        // On the bytes: every escape is ASCII, and no byte of a multi-byte sequence is.
        var out: [UInt8] = []
        out.reserveCapacity(text.utf8.count)
        var escaping = false
        for byte in text.utf8 {
            if escaping {
                escaping = false
                switch byte {
                case UInt8(ascii: "n"), UInt8(ascii: "N"): out.append(10)
                case UInt8(ascii: ","), UInt8(ascii: ";"), UInt8(ascii: "\\"), UInt8(ascii: ":"): out.append(byte)
                default:
                    out.append(UInt8(ascii: "\\"))
                    out.append(byte)
                }
            } else if byte == UInt8(ascii: "\\") {
                escaping = true
            } else {
                out.append(byte)
            }
        }
        if escaping { out.append(UInt8(ascii: "\\")) }
        return String(decoding: out, as: UTF8.self)
    }

    /// The parts of `text` between unescaped `separator`s, each unescaped.
    public static func split(_ text: String, separator: Unicode.Scalar) -> [String] {
        // The separators and the backslash are ASCII, and no byte of a multi-byte UTF-8
        // sequence is: scanning the bytes finds them exactly.
        let mark = UInt8(separator.value)
        let utf8 = text.utf8
        var parts: [String] = []
        var start = utf8.startIndex
        var index = start
        var escaping = false
        while index < utf8.endIndex {
            let byte = utf8[index]
            if escaping {
                escaping = false
            } else if byte == 0x5C {
                escaping = true
            } else if byte == mark {
                parts.append(unescape(text[start..<index]))
                start = utf8.index(after: index)
            }
            index = utf8.index(after: index)
        }
        parts.append(unescape(text[start..<utf8.endIndex]))
        return parts
    }

    /// `text` escaped for a text value: backslash, comma, semicolon and line breaks.
    public static func escape(_ text: String) -> String {
        guard text.utf8.contains(where: { $0 == 0x5C || $0 == 0x2C || $0 == 0x3B || $0 == 10 || $0 == 13 }) else {
            return text
        }
        var out: [UInt8] = []
        out.reserveCapacity(text.utf8.count + 8)
        var previousCR = false
        for byte in text.utf8 {
            switch byte {
            case 0x5C, 0x2C, 0x3B:
                out.append(0x5C)
                out.append(byte)
            case 13:
                out.append(0x5C)
                out.append(UInt8(ascii: "n"))
            case 10:
                // CR LF is one line break.
                if !previousCR {
                    out.append(0x5C)
                    out.append(UInt8(ascii: "n"))
                }
            default:
                out.append(byte)
            }
            previousCR = byte == 13
        }
        return String(decoding: out, as: UTF8.self)
    }

    /// The parts escaped and joined with `separator` (a structured or list value).
    public static func join(_ parts: [String], separator: String) -> String {
        var out = ""
        for (index, part) in parts.enumerated() {
            if index > 0 { out += separator }
            out += escape(part)
        }
        return out
    }
}
