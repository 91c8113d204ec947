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

    /// The text of `bytes` (UTF-8) with its escapes undone.
    static func unescape(bytes: UnsafeBufferPointer<UInt8>) -> String {
        guard let backslash = bytes.firstIndex(of: UInt8(ascii: "\\")) else {
            return String(decoding: bytes, as: UTF8.self)
        }
        return String(unsafeUninitializedCapacity: bytes.count) { out in
            // Everything before the first backslash as it is; escapes never make text longer.
            var written = 0
            for index in 0..<backslash {
                out[written] = bytes[index]
                written += 1
            }
            var escaping = false
            for index in backslash..<bytes.count {
                let byte = bytes[index]
                if escaping {
                    escaping = false
                    switch byte {
                    case UInt8(ascii: "n"), UInt8(ascii: "N"):
                        out[written] = 10
                    case UInt8(ascii: ","), UInt8(ascii: ";"), UInt8(ascii: "\\"), UInt8(ascii: ":"):
                        out[written] = byte
                    default:
                        out[written] = UInt8(ascii: "\\")
                        written += 1
                        out[written] = byte
                    }
                    written += 1
                } else if byte == UInt8(ascii: "\\") {
                    escaping = true
                } else {
                    out[written] = byte
                    written += 1
                }
            }
            if escaping {
                out[written] = UInt8(ascii: "\\")
                written += 1
            }
            return written
        }
    }

    /// The parts of `bytes` (UTF-8) between unescaped `separator`s, each unescaped.
    static func split(bytes: UnsafeBufferPointer<UInt8>, separator: UInt8) -> [String] {
        var parts: [String] = []
        var start = 0
        var escaping = false
        for index in 0..<bytes.count {
            let byte = bytes[index]
            if escaping {
                escaping = false
            } else if byte == 0x5C {
                escaping = true
            } else if byte == separator {
                parts.append(unescape(bytes: UnsafeBufferPointer(rebasing: bytes[start..<index])))
                start = index + 1
            }
        }
        parts.append(unescape(bytes: UnsafeBufferPointer(rebasing: bytes[start..<bytes.count])))
        return parts
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
        var text = text
        return text.withUTF8 { bytes in
            var escapes = 0
            for byte in bytes where byte == 0x5C || byte == 0x2C || byte == 0x3B || byte == 10 || byte == 13 {
                escapes += 1
            }
            if escapes == 0 { return String(decoding: bytes, as: UTF8.self) }
            // One string, written once: at most one more byte per escape.
            return String(unsafeUninitializedCapacity: bytes.count + escapes) { out in
                var written = 0
                var previousCR = false
                for byte in bytes {
                    switch byte {
                    case 0x5C, 0x2C, 0x3B:
                        out[written] = 0x5C
                        out[written + 1] = byte
                        written += 2
                    case 13:
                        out[written] = 0x5C
                        out[written + 1] = UInt8(ascii: "n")
                        written += 2
                    case 10:
                        // CR LF is one line break.
                        if !previousCR {
                            out[written] = 0x5C
                            out[written + 1] = UInt8(ascii: "n")
                            written += 2
                        }
                    default:
                        out[written] = byte
                        written += 1
                    }
                    previousCR = byte == 13
                }
                return written
            }
        }
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
