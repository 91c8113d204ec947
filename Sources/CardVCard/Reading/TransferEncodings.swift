/// Base64 (RFC 4648) and quoted-printable (RFC 2045), the transfer encodings of vCard values.
///
/// Written here rather than taken from Foundation: the reader decodes straight from the line's
/// bytes, skipping the folding whitespace, without building an intermediate `String` or `Data`.
public enum TransferEncoding {
    private static let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/".utf8)

    private static let decodeTable: [UInt8] = {
        var table = [UInt8](repeating: 0xFF, count: 256)
        for (index, byte) in alphabet.enumerated() { table[Int(byte)] = UInt8(index) }
        // The URL-safe alphabet too: some writers use it in data: URIs.
        table[Int(UInt8(ascii: "-"))] = 62
        table[Int(UInt8(ascii: "_"))] = 63
        return table
    }()

    /// The bytes of base64 `text`; whitespace is skipped, padding is optional. `nil` when a
    /// character is not base64 or the length cannot be.
    public static func base64Decode(_ text: some Collection<UInt8>) -> [UInt8]? {
        var out: [UInt8] = []
        out.reserveCapacity(text.count * 3 / 4)
        var accumulator: UInt32 = 0
        var bits = 0
        var padding = 0
        let table = decodeTable
        for byte in text {
            if byte == 32 || byte == 9 || byte == 10 || byte == 13 { continue }
            if byte == UInt8(ascii: "=") {
                padding += 1
                continue
            }
            // Data after padding is not base64.
            if padding > 0 { return nil }
            let value = table[Int(byte)]
            if value == 0xFF { return nil }
            accumulator = (accumulator << 6) | UInt32(value)
            bits += 6
            if bits >= 8 {
                bits -= 8
                out.append(UInt8(truncatingIfNeeded: accumulator >> UInt32(bits)))
            }
        }
        // Six leftover bits cannot end a base64 text.
        if bits >= 6 || padding > 2 { return nil }
        return out
    }

    /// ``base64Decode(_:)`` of bytes in memory: four characters at a time while they are plain
    /// base64 (the bytes of a picture), one at a time around white space and padding. The
    /// same answers.
    static func base64Decode(buffer text: UnsafeBufferPointer<UInt8>) -> [UInt8]? {
        let table = decodeTable
        return table.withUnsafeBufferPointer { table -> [UInt8]? in
            var failed = false
            let decoded = [UInt8](unsafeUninitializedCapacity: text.count / 4 * 3 + 3) { out, written in
                var count = 0
                var index = 0
                var accumulator: UInt32 = 0
                var bits = 0
                var padding = 0
                let end = text.count
                while index < end {
                    // Four plain characters, no bits pending: three bytes.
                    if bits == 0, padding == 0, index + 4 <= end {
                        let a = table[Int(text[index])]
                        let b = table[Int(text[index + 1])]
                        let c = table[Int(text[index + 2])]
                        let d = table[Int(text[index + 3])]
                        if (a | b | c | d) & 0xC0 == 0 {
                            let value = UInt32(a) << 18 | UInt32(b) << 12 | UInt32(c) << 6 | UInt32(d)
                            out[count] = UInt8(truncatingIfNeeded: value >> 16)
                            out[count + 1] = UInt8(truncatingIfNeeded: value >> 8)
                            out[count + 2] = UInt8(truncatingIfNeeded: value)
                            count += 3
                            index += 4
                            continue
                        }
                    }
                    let byte = text[index]
                    index += 1
                    if byte == 32 || byte == 9 || byte == 10 || byte == 13 { continue }
                    if byte == UInt8(ascii: "=") {
                        padding += 1
                        continue
                    }
                    // Data after padding is not base64.
                    if padding > 0 {
                        failed = true
                        break
                    }
                    let value = table[Int(byte)]
                    if value == 0xFF {
                        failed = true
                        break
                    }
                    accumulator = (accumulator << 6) | UInt32(value)
                    bits += 6
                    if bits >= 8 {
                        bits -= 8
                        out[count] = UInt8(truncatingIfNeeded: accumulator >> UInt32(bits))
                        count += 1
                    }
                }
                // Six leftover bits cannot end a base64 text.
                if bits >= 6 || padding > 2 { failed = true }
                written = count
            }
            return failed ? nil : decoded
        }
    }

    /// `bytes` as base64 with padding, on one line.
    public static func base64Encode(_ bytes: some Collection<UInt8>) -> String {
        var out = [UInt8]()
        out.reserveCapacity((bytes.count + 2) / 3 * 4)
        var iterator = bytes.makeIterator()
        let alphabet = Self.alphabet
        while let first = iterator.next() {
            let second = iterator.next()
            let third = iterator.next()
            let value = UInt32(first) << 16 | UInt32(second ?? 0) << 8 | UInt32(third ?? 0)
            out.append(alphabet[Int(value >> 18 & 63)])
            out.append(alphabet[Int(value >> 12 & 63)])
            out.append(second == nil ? UInt8(ascii: "=") : alphabet[Int(value >> 6 & 63)])
            out.append(third == nil ? UInt8(ascii: "=") : alphabet[Int(value & 63)])
        }
        return String(decoding: out, as: UTF8.self)
    }

    /// The bytes of quoted-printable `text`: `=XX` is a byte, `=` before a line break is a
    /// soft break (already joined by the reader; kept here for safety). A malformed `=` stays.
    public static func quotedPrintableDecode(_ text: some Collection<UInt8>) -> [UInt8] {
        let bytes = Array(text)
        var out: [UInt8] = []
        out.reserveCapacity(bytes.count)
        var index = 0
        while index < bytes.count {
            let byte = bytes[index]
            if byte == UInt8(ascii: "=") {
                if let high = hex(bytes[safe: index + 1]), let low = hex(bytes[safe: index + 2]) {
                    out.append(high << 4 | low)
                    index += 3
                    continue
                }
                if bytes[safe: index + 1] == 13 || bytes[safe: index + 1] == 10 {
                    index += 1
                    while index < bytes.count, bytes[index] == 13 || bytes[index] == 10 { index += 1 }
                    continue
                }
            }
            out.append(byte)
            index += 1
        }
        return out
    }

    /// Quoted-printable undone in place in `bytes[start..<end]` (what
    /// ``quotedPrintableDecode(_:)`` gives, written over its input, which is never shorter).
    ///
    /// - Returns: the end of the decoded bytes.
    static func quotedPrintableDecode(inPlace bytes: UnsafeMutableBufferPointer<UInt8>, from start: Int, to end: Int)
        -> Int
    {
        var read = start
        var write = start
        while read < end {
            let byte = bytes[read]
            if byte == UInt8(ascii: "=") {
                if read + 2 < end, let high = hex(bytes[read + 1]), let low = hex(bytes[read + 2]) {
                    bytes[write] = high << 4 | low
                    write += 1
                    read += 3
                    continue
                }
                if read + 1 < end, bytes[read + 1] == 13 || bytes[read + 1] == 10 {
                    read += 1
                    while read < end, bytes[read] == 13 || bytes[read] == 10 { read += 1 }
                    continue
                }
            }
            bytes[write] = byte
            write += 1
            read += 1
        }
        return write
    }

    /// `bytes` read as Latin-1 (ISO-8859-1): every byte is the character of the same number, so
    /// nothing is ever lost or replaced.
    static func latin1(_ bytes: some Collection<UInt8>) -> String {
        String(decoding: bytes.map { UInt16($0) }, as: UTF16.self)
    }

    private static func hex(_ byte: UInt8?) -> UInt8? {
        guard let byte else { return nil }
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): return byte - UInt8(ascii: "0")
        case UInt8(ascii: "A")...UInt8(ascii: "F"): return byte - UInt8(ascii: "A") + 10
        case UInt8(ascii: "a")...UInt8(ascii: "f"): return byte - UInt8(ascii: "a") + 10
        default: return nil
        }
    }
}

extension Array {
    subscript(safe index: Int) -> Element? { indices.contains(index) ? self[index] : nil }
}
