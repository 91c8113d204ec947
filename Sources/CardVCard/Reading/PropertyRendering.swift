/// A property written back as its content line straight from the bytes it was read from
/// (``ContentLine/render(_:marker:)``'s result, one string, no parameter objects), for the
/// parameters as most files write them: ASCII without spaces, quotes or carets. Anything else
/// (`nil`) takes the general path, which reads the parameters first.
extension PropertyBytes {
    /// Most parameters a line may have here (more take the general path).
    private static let maximumParameters = 24

    /// One parameter in the header: its name, and its values (`=` to its end) or none (bare).
    private struct Segment {
        var nameStart: Int
        var nameEnd: Int
        var valuesStart: Int
        var end: Int
        var bare: Bool { valuesStart < 0 }
    }

    /// The line `[group.]NAME[;ENCODING=b][;marker][;PARAM=a,b…]:value`, or `nil` when the
    /// parameters need the general path.
    ///
    /// - Parameters:
    ///   - marker: the parameter written first (``WalletProperty/fieldParameter`` and the like).
    ///   - withoutMarkers: leave out CardWallet's markers found in the line.
    ///   - value: the value to write instead of the property's own (text).
    func rendered(
        marker: (name: String, value: String)? = nil, withoutMarkers: Bool = false, value override: String? = nil
    )
        -> String?
    {
        bytes.withUnsafeBufferPointer { buffer -> String? in
            let start = Int(layout.start)
            let nameStart = Int(layout.nameStart)
            let nameEnd = Int(layout.nameEnd)
            let colon = Int(layout.colon)
            for index in nameEnd..<colon {
                let byte = buffer[index]
                guard byte > 0x20, byte < 0x7F, byte != UInt8(ascii: "\""), byte != UInt8(ascii: "^") else {
                    return nil
                }
            }
            // The parameters that count, in order.
            return withUnsafeTemporaryAllocation(of: Segment.self, capacity: Self.maximumParameters) { segments in
                var count = 0
                var index = nameEnd
                while index < colon {
                    // At a `;`.
                    index += 1
                    let segmentStart = index
                    while index < colon, buffer[index] != UInt8(ascii: "="), buffer[index] != UInt8(ascii: ";") {
                        index += 1
                    }
                    var segment = Segment(nameStart: segmentStart, nameEnd: index, valuesStart: -1, end: index)
                    if index < colon, buffer[index] == UInt8(ascii: "=") {
                        segment.valuesStart = index + 1
                        while index < colon, buffer[index] != UInt8(ascii: ";") { index += 1 }
                        segment.end = index
                    }
                    if segment.bare, segment.nameStart == segment.nameEnd { continue }
                    let header = UnsafeBufferPointer(rebasing: buffer[0..<colon])
                    if ParameterReader.isTransferParameter(
                        header, segment.nameStart, segment.nameEnd, hasValues: !segment.bare)
                    {
                        continue
                    }
                    if withoutMarkers, !segment.bare,
                        ParameterReader.matches(header, segment.nameStart, segment.nameEnd, "X-CARDWALLET-FIELD")
                            || ParameterReader.matches(header, segment.nameStart, segment.nameEnd, "X-CARDWALLET-NAME")
                    {
                        continue
                    }
                    // A bare parameter of only commas holds no type.
                    if segment.bare,
                        !(segment.nameStart..<segment.nameEnd).contains(where: { buffer[$0] != UInt8(ascii: ",") })
                    {
                        continue
                    }
                    guard count < Self.maximumParameters else { return nil }
                    segments[count] = segment
                    count += 1
                }
                let binary = layout.flags.contains(.binary) && override == nil
                var overrideText = override ?? ""
                return overrideText.withUTF8 { overrideBytes in
                    let value =
                        override != nil
                        ? overrideBytes
                        : UnsafeBufferPointer(rebasing: buffer[Int(layout.valueStart)..<Int(layout.valueEnd)])
                    let base64 = binary ? Array(TransferEncoding.base64Encode(value).utf8) : []
                    let markerText = marker.map { ";" + $0.name + "=" + ContentLine.parameterValue($0.value) } ?? ""
                    let capacity =
                        (nameEnd - start) + 11 + markerText.utf8.count + (colon - nameEnd) + 6 * count + 1
                        + (binary ? base64.count : value.count)
                    return String(unsafeUninitializedCapacity: capacity) { out in
                        var written = 0
                        func put(_ byte: UInt8) {
                            out[written] = byte
                            written += 1
                        }
                        func put(_ range: Range<Int>) {
                            for index in range { put(buffer[index]) }
                        }
                        func put(_ text: StaticString) {
                            for offset in 0..<text.utf8CodeUnitCount { put(text.utf8Start[offset]) }
                        }
                        func upper(_ byte: UInt8) -> UInt8 { byte >= 97 && byte <= 122 ? byte - 32 : byte }
                        put(start..<nameStart)
                        let extended =
                            nameEnd - nameStart >= 2 && upper(buffer[nameStart]) == UInt8(ascii: "X")
                            && buffer[nameStart + 1] == UInt8(ascii: "-")
                        for index in nameStart..<nameEnd { put(extended ? buffer[index] : upper(buffer[index])) }
                        if binary { put(";ENCODING=b") }
                        for byte in markerText.utf8 { put(byte) }
                        // Whether two segments name the same parameter (a bare one is TYPE).
                        func sameKey(_ a: Segment, _ b: Segment) -> Bool {
                            func isType(_ segment: Segment) -> Bool {
                                segment.bare
                                    || ParameterReader.matches(
                                        UnsafeBufferPointer(rebasing: buffer[0..<colon]), segment.nameStart,
                                        segment.nameEnd, "TYPE")
                            }
                            if a.bare || b.bare { return isType(a) && isType(b) }
                            guard a.nameEnd - a.nameStart == b.nameEnd - b.nameStart else { return false }
                            for offset in 0..<(a.nameEnd - a.nameStart)
                            where upper(buffer[a.nameStart + offset]) != upper(buffer[b.nameStart + offset]) {
                                return false
                            }
                            return true
                        }
                        // The values of a segment: as written after `=`; a bare one's name split at
                        // its commas, empty parts left out.
                        func putValues(_ segment: Segment, first: inout Bool) {
                            if !segment.bare {
                                if !first { put(UInt8(ascii: ",")) }
                                first = false
                                put(segment.valuesStart..<segment.end)
                                return
                            }
                            var partStart = segment.nameStart
                            for index in segment.nameStart...segment.nameEnd
                            where index == segment.nameEnd || buffer[index] == UInt8(ascii: ",") {
                                if index > partStart {
                                    if !first { put(UInt8(ascii: ",")) }
                                    first = false
                                    put(partStart..<index)
                                }
                                partStart = index + 1
                            }
                        }
                        for position in 0..<count {
                            let segment = segments[position]
                            if (0..<position).contains(where: { sameKey(segments[$0], segment) }) { continue }
                            put(UInt8(ascii: ";"))
                            if segment.bare {
                                put("TYPE")
                            } else {
                                for index in segment.nameStart..<segment.nameEnd { put(upper(buffer[index])) }
                            }
                            put(UInt8(ascii: "="))
                            var first = true
                            putValues(segment, first: &first)
                            for later in (position + 1)..<max(position + 1, count)
                            where sameKey(segment, segments[later]) {
                                putValues(segments[later], first: &first)
                            }
                        }
                        put(UInt8(ascii: ":"))
                        if binary {
                            for byte in base64 { put(byte) }
                        } else {
                            for byte in value { put(byte) }
                        }
                        return written
                    }
                }
            }
        }
    }
}
