/// Splits bytes into physical lines at CR LF, LF or a lone CR (all three occur in the wild), and
/// at CR CR LF (a CRLF file that went through one more text-mode conversion, as mail and Windows
/// tools do): any run of CRs followed by an LF is one line break. Lines are numbered from 1.
/// Holds at most one line (up to the limit) plus a chunk in memory.
struct PhysicalLines {
    /// One line; ``PhysicalLines/bytes(of:)`` gives its bytes until the next call.
    struct Line {
        fileprivate var range: Range<Int>
        /// Its number, from 1.
        var number: Int
        /// The line was longer than the limit: only its first bytes are kept, the rest was skipped.
        var truncated: Bool
    }

    private var source: any VCardByteSource
    private var buffer: [UInt8] = []
    private var position = 0
    private var exhausted = false
    private var number = 0
    /// The longest line held; the rest of a longer one is dropped.
    let maximumLength: Int
    /// The first bytes of the last overlong line.
    private var overlong: [UInt8] = []
    /// Bytes read so far.
    private(set) var bytesRead = 0
    /// The error that ended the input early, if any.
    private(set) var readError: (any Error)?
    /// The CRs before this index are known to be lone ones (no LF after their run), so a long
    /// run of CRs is scanned once, not once per line.
    private var loneCRsUntil = 0
    /// The number of the last line returned.
    var lastNumber: Int { number }

    init(source: any VCardByteSource, maximumLength: Int) {
        self.source = source
        self.maximumLength = maximumLength
    }

    /// The bytes of `line` (valid until the next call of ``next()``).
    func bytes(of line: Line) -> ArraySlice<UInt8> {
        line.truncated ? overlong[line.range] : buffer[line.range]
    }

    /// The next line (without its line break), or `nil` at the end.
    mutating func next() -> Line? {
        // How far past `position` has been scanned without finding a break (kept across refills,
        // which move the bytes).
        var scanned = 0
        while true {
            if let end = lineBreak(from: position + scanned) {
                guard let after = breakEnd(at: end) else {
                    // A run of CRs at the very end of the buffer may be the start of CR CR LF.
                    scanned = end - position
                    _ = refill()
                    continue
                }
                return take(upTo: end, next: after)
            }
            if buffer.count - position > maximumLength { return skipOverlongLine() }
            scanned = buffer.count - position
            if !refill() {
                guard position < buffer.count else { return nil }
                number += 1
                let range = position..<buffer.count
                position = buffer.count
                return Line(range: range, number: number, truncated: false)
            }
        }
    }

    /// Where the line break that starts at `end` (a CR or an LF) ends: after the LF of a run of
    /// CRs ended by one, else after the one CR or LF. `nil` when the buffer ends inside a run of
    /// CRs and more input may follow.
    private mutating func breakEnd(at end: Int) -> Int? {
        guard buffer[end] == 13, end >= loneCRsUntil else { return end + 1 }
        let after = buffer.withUnsafeBufferPointer { bytes in
            var index = end + 1
            while index < bytes.count, bytes[index] == 13 { index += 1 }
            return index
        }
        if after == buffer.count, !exhausted { return nil }
        if after < buffer.count, buffer[after] == 10 { return after + 1 }
        loneCRsUntil = after
        return end + 1
    }

    private mutating func take(upTo end: Int, next: Int) -> Line {
        let start = position
        number += 1
        position = next
        if end - start > maximumLength {
            overlong = Array(buffer[start..<start + maximumLength])
            return Line(range: 0..<overlong.count, number: number, truncated: true)
        }
        return Line(range: start..<end, number: number, truncated: false)
    }

    /// Keeps the first `maximumLength` bytes of a line too long to hold and drops the rest of
    /// it chunk by chunk, so memory stays bounded whatever the input.
    private mutating func skipOverlongLine() -> Line {
        overlong = Array(buffer[position..<position + maximumLength])
        position += maximumLength
        while true {
            if let end = lineBreak(from: position) {
                guard let after = breakEnd(at: end) else {
                    position = end
                    _ = refill()
                    continue
                }
                var line = take(upTo: end, next: after)
                line.range = 0..<overlong.count
                line.truncated = true
                return line
            }
            position = buffer.count
            if !refill() {
                number += 1
                return Line(range: 0..<overlong.count, number: number, truncated: true)
            }
        }
    }

    private func lineBreak(from start: Int) -> Int? {
        buffer.withUnsafeBufferPointer { bytes in
            var index = start
            let end = bytes.count
            // Eight bytes at a time while none of them is below 14 (CR and LF are; so are tabs
            // and other controls, which then take the byte loop).
            if let base = bytes.baseAddress {
                let raw = UnsafeRawPointer(base)
                while index + 8 <= end {
                    let word = raw.loadUnaligned(fromByteOffset: index, as: UInt64.self)
                    if (word &- 0x0E0E_0E0E_0E0E_0E0E) & ~word & 0x8080_8080_8080_8080 != 0 { break }
                    index += 8
                }
            }
            while index < end {
                let byte = bytes[index]
                if byte == 10 || byte == 13 { return index }
                index += 1
            }
            return nil
        }
    }

    /// Drops consumed bytes and appends the next chunk; false at the end of the input.
    private mutating func refill() -> Bool {
        guard !exhausted else { return false }
        let chunk: [UInt8]?
        do {
            chunk = try source.nextChunk()
        } catch {
            readError = error
            chunk = nil
        }
        guard let chunk else {
            exhausted = true
            return false
        }
        bytesRead += chunk.count
        if position > 0 {
            loneCRsUntil = max(0, loneCRsUntil - position)
            if position == buffer.count {
                buffer.removeAll(keepingCapacity: true)
            } else {
                buffer.removeSubrange(0..<position)
            }
            position = 0
        }
        buffer.append(contentsOf: chunk)
        return true
    }
}
