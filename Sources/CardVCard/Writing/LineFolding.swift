/// Appends content lines to a byte buffer as vCard wants them on the wire: CR LF after each,
/// folded so that no physical line is longer than 75 octets (RFC 6350 §3.2), never inside a
/// UTF-8 sequence.
public enum LineFolding {
    /// The longest physical line, in octets, line break excluded.
    public static let width = 75

    /// Appends `line`, folded, with CR LF.
    public static func append(_ line: String, to out: inout [UInt8]) {
        var line = line
        line.withUTF8 { bytes in
            var start = 0
            var room = width
            while bytes.count - start > room {
                var cut = start + room
                // Back up to the start of a UTF-8 sequence (continuation bytes are 10xxxxxx).
                while cut > start, bytes[cut] & 0xC0 == 0x80 { cut -= 1 }
                out.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[start..<cut]))
                out.append(13)
                out.append(10)
                out.append(32)
                start = cut
                // The leading space counts toward the 75 octets.
                room = width - 1
            }
            out.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[start..<bytes.count]))
            out.append(13)
            out.append(10)
        }
    }
}
