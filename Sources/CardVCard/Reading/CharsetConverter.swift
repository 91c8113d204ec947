#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// Converts text in a named character set (`CHARSET=EUC-KR`, `windows-1252`, `ISO-8859-2`…) to
/// UTF-8 with the C library's `iconv(3)`, which knows every charset phones and mail programs
/// ever wrote, instead of tables of our own.
///
/// One converter per charset is opened on first use and kept until the cache goes away: the
/// cache owns every `iconv_t` and closes them in `deinit`. Not thread-safe: one per reader.
final class CharsetConverter {
    private var open: [String: iconv_t?] = [:]

    deinit {
        for case let descriptor? in open.values { iconv_close(descriptor) }
    }

    /// The UTF-8 text of `bytes` in `charset`, or `nil` when the charset is unknown or the bytes
    /// are not valid in it (the caller then falls back to reading them as UTF-8 or Windows-1252).
    func utf8(_ bytes: [UInt8], charset: String) -> String? {
        let key = Self.canonicalName(charset)
        if key == "UTF-8" || key == "US-ASCII" { return String(validating: bytes, as: UTF8.self) }
        if bytes.isEmpty { return "" }
        guard let descriptor = descriptor(for: key) else { return nil }
        // Reset the shift state: stateful charsets (ISO-2022-KR) start fresh on every value.
        _ = iconv(descriptor, nil, nil, nil, nil)
        // Four output bytes per input byte is enough for every single- and double-byte charset.
        var output = [UInt8](repeating: 0, count: bytes.count * 4 + 16)
        var input = bytes
        let produced: Int? = input.withUnsafeMutableBufferPointer { inBuffer in
            output.withUnsafeMutableBufferPointer { outBuffer in
                var inPointer: UnsafeMutablePointer<CChar>? = UnsafeMutableRawPointer(inBuffer.baseAddress!)
                    .assumingMemoryBound(to: CChar.self)
                var inLeft = inBuffer.count
                var outPointer: UnsafeMutablePointer<CChar>? = UnsafeMutableRawPointer(outBuffer.baseAddress!)
                    .assumingMemoryBound(to: CChar.self)
                var outLeft = outBuffer.count
                let result = iconv(descriptor, &inPointer, &inLeft, &outPointer, &outLeft)
                if result == -1 { return nil }
                var flushLeft = outLeft
                _ = iconv(descriptor, nil, nil, &outPointer, &flushLeft)
                return outBuffer.count - flushLeft
            }
        }
        guard let produced else { return nil }
        return String(validating: output[0..<produced], as: UTF8.self)
    }

    /// The UTF-8 bytes of `bytes` in `charset` (not UTF-8 or ASCII: see ``isUTF8OrASCII(_:)``), or
    /// `nil` when the charset is unknown or the bytes are not valid in it.
    func convert(_ bytes: UnsafeBufferPointer<UInt8>, charset: String) -> [UInt8]? {
        let key = Self.canonicalName(charset)
        if key == "UTF-8" || key == "US-ASCII" {
            return TextDecoding.kind(bytes) == .invalid ? nil : Array(bytes)
        }
        if bytes.isEmpty { return [] }
        guard let text = utf8(Array(bytes), charset: charset) else { return nil }
        return Array(text.utf8)
    }

    /// Whether `charset` names UTF-8 or ASCII (`UTF-8`, `utf8`, `US-ASCII`…): answered from the
    /// bytes for the usual spellings, since Android writes `CHARSET=UTF-8` on every value.
    static func isUTF8OrASCII(_ charset: String) -> Bool {
        func spells(_ upper: StaticString) -> Bool {
            guard charset.utf8.count == upper.utf8CodeUnitCount else { return false }
            var offset = 0
            for byte in charset.utf8 {
                guard (byte >= 97 && byte <= 122 ? byte - 32 : byte) == upper.utf8Start[offset] else { return false }
                offset += 1
            }
            return true
        }
        if spells("UTF-8") || spells("UTF8") { return true }
        let key = canonicalName(charset)
        return key == "UTF-8" || key == "US-ASCII"
    }

    /// Whether iconv knows `charset`.
    func knows(_ charset: String) -> Bool {
        let key = Self.canonicalName(charset)
        return key == "UTF-8" || key == "US-ASCII" || descriptor(for: key) != nil
    }

    private func descriptor(for key: String) -> iconv_t? {
        if let cached = open[key] { return cached }
        let descriptor = iconv_open("UTF-8", key)
        let usable: iconv_t? = descriptor == iconv_t(bitPattern: -1) ? nil : descriptor
        open[key] = usable
        return usable
    }

    /// Whether ASCII bytes in `charset` are those ASCII characters, so a value of ASCII bytes
    /// needs no conversion — true of every charset vCards use except UTF-7, the stateful
    /// ISO-2022 family and HZ, whose ASCII bytes encode other characters.
    static func readsASCIIAsItself(_ charset: String) -> Bool {
        guard let first = charset.utf8.first(where: { $0 != 32 && $0 != 9 && $0 != 0x22 }) else { return true }
        // Cheap on the usual `UTF-8`, `ISO-8859-1`, `windows-1252`: only names starting with U, I
        // or H can be one of the others.
        guard
            [
                UInt8(ascii: "U"), UInt8(ascii: "u"), UInt8(ascii: "I"), UInt8(ascii: "i"), UInt8(ascii: "H"),
                UInt8(ascii: "h"),
            ].contains(first)
        else { return true }
        let name = canonicalName(charset)
        return
            !(name.hasPrefix("UTF-7") || name.hasPrefix("UTF7") || name.hasPrefix("ISO-2022")
            || name.hasPrefix("ISO2022") || name == "HZ" || name.hasPrefix("HZ-") || name.hasPrefix("UTF-16")
            || name.hasPrefix("UTF-32") || name.hasPrefix("UCS-"))
    }

    /// Upper-cased, with the spellings exporters use for UTF-8 and ASCII folded together, and
    /// ISO-8859-1 read as Windows-1252 (its superset, as every browser and mail reader does:
    /// Outlook labels Windows-1252 text ISO-8859-1).
    static func canonicalName(_ charset: String) -> String {
        let upper = charset.uppercased().filter { !$0.isWhitespace && $0 != "\"" }
        switch upper {
        case "UTF8", "UTF-8": return "UTF-8"
        case "ASCII", "US-ASCII", "ANSI_X3.4-1968": return "US-ASCII"
        case "ISO-8859-1", "ISO8859-1", "LATIN1", "ISO_8859-1": return "WINDOWS-1252"
        case "CP1252": return "WINDOWS-1252"
        // CP949 is the superset of EUC-KR that Windows and phones actually write.
        case "EUC-KR", "EUCKR", "KS_C_5601-1987", "KSC5601", "CP949", "UHC": return "CP949"
        default: return upper
        }
    }
}
