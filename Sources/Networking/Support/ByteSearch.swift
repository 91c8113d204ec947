#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// Byte-level substring search, for scans on the hot path that must not build strings.
enum ByteSearch {
    /// Whether `needle` occurs in `haystack`.
    static func contains<Haystack: RandomAccessCollection>(_ haystack: Haystack, _ needle: [UInt8]) -> Bool
    where Haystack.Element == UInt8, Haystack.Index == Int {
        firstRange(of: needle, in: haystack) != nil
    }

    /// The first occurrence of `needle` in `haystack` at or after `start`, comparing bytes exactly.
    static func firstRange<Haystack: RandomAccessCollection>(
        of needle: [UInt8],
        in haystack: Haystack,
        from start: Int? = nil
    ) -> Range<Int>? where Haystack.Element == UInt8, Haystack.Index == Int {
        let begin = start ?? haystack.startIndex
        guard let first = needle.first, haystack.endIndex - begin >= needle.count else { return nil }
        let contiguous = haystack.withContiguousStorageIfAvailable { buffer -> Range<Int>? in
            let offset = begin - haystack.startIndex
            guard let found = firstOffset(of: needle, in: buffer, from: offset) else { return nil }
            return (haystack.startIndex + found)..<(haystack.startIndex + found + needle.count)
        }
        if let contiguous { return contiguous }
        let last = haystack.endIndex - needle.count
        var index = begin
        while index <= last {
            if haystack[index] == first {
                var matched = 1
                while matched < needle.count, haystack[index + matched] == needle[matched] { matched += 1 }
                if matched == needle.count { return index..<(index + needle.count) }
            }
            index += 1
        }
        return nil
    }

    /// The offset of the first `needle` in `buffer` at or after `offset`: the C library's
    /// `memchr` finds candidates for the first byte and `memcmp` checks them, both vectorised,
    /// for scrubbing secrets out of whole bodies.
    private static func firstOffset(of needle: [UInt8], in buffer: UnsafeBufferPointer<UInt8>, from offset: Int) -> Int?
    {
        guard let base = buffer.baseAddress, let first = needle.first, offset >= 0,
            buffer.count - offset >= needle.count
        else { return nil }
        let last = buffer.count - needle.count
        return needle.withUnsafeBufferPointer { pattern -> Int? in
            guard let pattern = pattern.baseAddress else { return nil }
            var position = offset
            while position <= last {
                guard let hit = memchr(base + position, Int32(first), last - position + 1) else { return nil }
                let index = UnsafeRawPointer(base).distance(to: UnsafeRawPointer(hit))
                if memcmp(base + index, pattern, needle.count) == 0 { return index }
                position = index + 1
            }
            return nil
        }
    }

    /// The offset of the first `byte` in `buffer` at or after `offset` (`memchr`).
    static func firstOffset(of byte: UInt8, in buffer: UnsafeBufferPointer<UInt8>, from offset: Int) -> Int? {
        guard let base = buffer.baseAddress, offset >= 0, offset < buffer.count,
            let hit = memchr(base + offset, Int32(byte), buffer.count - offset)
        else { return nil }
        return UnsafeRawPointer(base).distance(to: UnsafeRawPointer(hit))
    }

    /// Whether any of `needles` occurs in `bytes`, ignoring ASCII case.
    static func containsCaseInsensitive<Bytes: RandomAccessCollection>(
        _ bytes: Bytes,
        anyOf needles: NeedleSet
    ) -> Bool where Bytes.Element == UInt8, Bytes.Index == Int {
        guard !needles.needles.isEmpty else { return false }
        var index = bytes.startIndex
        let end = bytes.endIndex
        while index < end {
            if needles.startsNeedle[Int(lower(bytes[index]))] {
                for needle in needles.needles where end - index >= needle.count {
                    var matched = 0
                    while matched < needle.count, lower(bytes[index + matched]) == needle[matched] { matched += 1 }
                    if matched == needle.count { return true }
                }
            }
            index += 1
        }
        return false
    }

    /// Whether `bytes` equals `lowercased` (ASCII, lower case), ignoring ASCII case.
    static func equalsCaseInsensitive(_ bytes: UnsafeBufferPointer<UInt8>, _ lowercased: [UInt8]) -> Bool {
        guard bytes.count == lowercased.count else { return false }
        for index in 0..<bytes.count where lower(bytes[index]) != lowercased[index] { return false }
        return true
    }

    @inline(__always)
    static func lower(_ byte: UInt8) -> UInt8 {
        byte &- UInt8(ascii: "A") < 26 ? byte | 0x20 : byte
    }
}

/// Lower-case ASCII needles for case-insensitive scans, with a table of their first bytes so a
/// scan skips most positions with one lookup.
struct NeedleSet: Sendable, Hashable {
    let needles: [[UInt8]]
    let startsNeedle: [Bool]

    init(_ words: some Sequence<String>) {
        needles = words.map { Array($0.lowercased().utf8) }.filter { !$0.isEmpty }
        var table = [Bool](repeating: false, count: 256)
        for needle in needles { table[Int(needle[0])] = true }
        startsNeedle = table
    }

    /// Whether `bytes` equals one of the needles, ignoring ASCII case.
    func matchesWhole(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        needles.contains { ByteSearch.equalsCaseInsensitive(bytes, $0) }
    }
}
